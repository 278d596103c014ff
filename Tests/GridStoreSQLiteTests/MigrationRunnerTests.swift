import Testing
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit

@Suite("MigrationRunner")
struct MigrationRunnerTests {
    static let first = ("0001_first.sql", "CREATE TABLE a (x INTEGER);")
    static let second = ("0002_second.sql", "CREATE TABLE b (y INTEGER);\nINSERT INTO b VALUES (1);")
    static let broken = ("0003_broken.sql", "CREATE TABLE c (z INTEGER);\nINSERT INTO missing VALUES (1);")

    func runner(_ files: (String, String)..., applicationID: Int32? = nil) throws -> MigrationRunner {
        MigrationRunner(migrations: try MigrationSet(files: files.map { ($0.0, $0.1) }), applicationID: applicationID)
    }

    func tables(_ connection: SQLiteConnection) throws -> [String] {
        try connection.fetchAll("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") { $0.string(at: 0) }
    }

    @Test("a fresh database gets every migration, recorded in the ledger")
    func freshMigrate() throws {
        let connection = try memoryConnection()
        let applied = try runner(Self.first, Self.second, applicationID: 77).migrate(connection)
        #expect(applied.map(\.version) == [1, 2])
        #expect(try tables(connection) == ["a", "b", "schema_migrations"])
        let ledger = try connection.fetchAll("SELECT version, name, checksum, applied_at FROM schema_migrations") {
            ($0.int(at: 0), $0.string(at: 1), $0.string(at: 2), $0.string(at: 3))
        }
        #expect(ledger.map(\.0) == [1, 2])
        #expect(ledger.map(\.1) == ["first", "second"])
        #expect(ledger[0].2 == Migration.checksum(of: Self.first.1))
        #expect(ledger.allSatisfy { $0.3.hasSuffix("Z") && $0.3.count == 24 })
        #expect(try scalar(connection, "PRAGMA user_version") == 2)
        #expect(try scalar(connection, "PRAGMA application_id") == 77)
    }

    @Test("running again is a no-op")
    func rerun() throws {
        let connection = try memoryConnection()
        let runner = try runner(Self.first, Self.second)
        try runner.migrate(connection)
        let changesBefore = try scalar(connection, "SELECT total_changes()")
        #expect(try runner.migrate(connection).isEmpty)
        #expect(try scalar(connection, "SELECT total_changes()") == changesBefore)
        #expect(try runner.status(of: connection).isUpToDate)
    }

    @Test("applies only what is pending")
    func incremental() throws {
        let connection = try memoryConnection()
        try runner(Self.first).migrate(connection)
        let status = try runner(Self.first, Self.second).status(of: connection)
        #expect(status.applied.map(\.version) == [1])
        #expect(status.pending.map(\.version) == [2])
        #expect(try runner(Self.first, Self.second).migrate(connection).map(\.version) == [2])
    }

    @Test("a failing migration rolls back completely and names its file")
    func failingMigrationRollsBack() throws {
        let connection = try memoryConnection()
        try runner(Self.first, applicationID: 5).migrate(connection)
        let error = try #require(throws: MigrationError.self) {
            try runner(Self.first, Self.second, Self.broken, applicationID: 5).migrate(connection)
        }
        guard case .failed(let fileName, let reason) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(fileName == "0003_broken.sql")
        #expect(reason == "no such table: missing")
        #expect(error.description == "migration 0003_broken.sql failed and was rolled back: no such table: missing")
        // 0002 succeeded in its own transaction; 0003 left nothing behind.
        #expect(try tables(connection) == ["a", "b", "schema_migrations"])
        #expect(try scalar(connection, "SELECT max(version) FROM schema_migrations") == 2)
        #expect(try scalar(connection, "PRAGMA user_version") == 2)
    }

    @Test("a failing first migration leaves a fresh database empty, unstamped")
    func failingFirstMigration() throws {
        let connection = try memoryConnection()
        #expect(throws: MigrationError.self) {
            try runner(("0001_bad.sql", "CREATE TABLE a (x); SELECT * FROM nowhere;"), applicationID: 9).migrate(connection)
        }
        #expect(try tables(connection).isEmpty)
        #expect(try scalar(connection, "PRAGMA application_id") == 0)
        #expect(try scalar(connection, "PRAGMA user_version") == 0)
    }

    @Test("an applied migration whose file changed is refused without writing")
    func checksumMismatch() throws {
        let connection = try memoryConnection()
        try runner(Self.first).migrate(connection)
        let changesBefore = try scalar(connection, "SELECT total_changes()")
        let edited = ("0001_first.sql", "CREATE TABLE a (x INTEGER, extra TEXT);")
        let error = try #require(throws: MigrationError.self) { try runner(edited, Self.second).migrate(connection) }
        guard case .checksumMismatch(let name, let recorded, let current) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(name == "0001_first.sql")
        #expect(recorded == Migration.checksum(of: Self.first.1))
        #expect(current == Migration.checksum(of: edited.1))
        #expect(try tables(connection) == ["a", "schema_migrations"])
        #expect(try scalar(connection, "SELECT total_changes()") == changesBefore)
    }

    @Test("a database migrated by a newer build is refused")
    func newerDatabase() throws {
        let connection = try memoryConnection()
        try runner(Self.first, Self.second).migrate(connection)
        let error = try #require(throws: MigrationError.self) { try runner(Self.first).migrate(connection) }
        #expect(error == .newerDatabase(unknownVersions: [2], latestKnownVersion: 1))
        #expect(error.description.contains("created by a newer gridstore"))
    }

    @Test("a version this build lacks, below its latest, is refused")
    func unknownVersion() throws {
        let connection = try memoryConnection()
        try runner(Self.first, Self.second).migrate(connection)
        let third = ("0003_third.sql", "CREATE TABLE c (z);")
        #expect(throws: MigrationError.unknownVersions([2])) { try runner(Self.first, third).migrate(connection) }
    }

    @Test("an unapplied file below the highest applied version is refused")
    func outOfOrder() throws {
        let connection = try memoryConnection()
        try runner(Self.first, ("0003_third.sql", "CREATE TABLE c (z);")).migrate(connection)
        let error = try #require(throws: MigrationError.self) {
            try runner(Self.first, Self.second, ("0003_third.sql", "CREATE TABLE c (z);")).migrate(connection)
        }
        #expect(error == .outOfOrder(fileName: "0002_second.sql", highestAppliedVersion: 3))
        #expect(try tables(connection) == ["a", "c", "schema_migrations"])
    }
}
