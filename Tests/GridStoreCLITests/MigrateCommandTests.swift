import Foundation
import GridStore
import GridStoreSQLite
import GridStoreAudit
import Testing

@Suite("gridstore migrate")
struct MigrateCommandTests {
    @Test("migrates a new database and then reports it up to date")
    func migrate() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("x.sqlite")
        let all = MigrationSet.gridStore.migrations
        let first = try CommandRunner.run(["migrate", "--db", path])
        #expect(first.status == 0)
        #expect(first.standardOutput == """
            Applied \(all.count) migration(s) to \(path): \(all.map(\.fileName).joined(separator: ", "))
            \(path) is now at schema version \(all.last!.version).

            """)
        #expect(first.standardError == "Note: created a new database at '\(path)', which --db named\n")
        let second = try CommandRunner.run(["--db", path, "migrate"])
        #expect(second == CommandResult(status: 0, standardOutput: "\(path) is up to date at schema version \(all.last!.version).\n",
                                        standardError: ""))
    }

    @Test("--status lists applied and pending migrations without creating a database")
    func status() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("x.sqlite")
        let missing = try CommandRunner.run(["migrate", "--status", "--db", path])
        #expect(missing.status == 0)
        let all = MigrationSet.gridStore.migrations
        #expect(missing.standardOutput == """
            Database: \(path) (does not exist yet)
            Schema version: 0 (this gridstore knows up to \(all.last!.version))
            Applied:
              none
            Pending:
            \(all.map { "  " + $0.fileName.dropLast(4) }.joined(separator: "\n"))

            """)
        #expect(!FileManager.default.fileExists(atPath: path))

        _ = try CommandRunner.run(["migrate", "--db", path])
        let applied = try CommandRunner.run(["migrate", "--status", "--db", path])
        #expect(applied.status == 0)
        let lines = applied.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[2] == "Applied:")
        for (offset, migration) in all.enumerated() {
            #expect(lines[3 + offset].hasPrefix("  \(migration.fileName.dropLast(4))  20"))
            #expect(lines[3 + offset].hasSuffix("  sha256:" + migration.checksum.prefix(12)))
        }
        #expect(lines[(3 + all.count)...] == ["Pending:", "  none", ""])
    }

    @Test("processes migrating one new file at the same moment all succeed, applying it once")
    func concurrentProcesses() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("race.sqlite")
        for _ in 0..<5 {
            try? FileManager.default.removeItem(atPath: path)
            let processes = try (0..<6).map { _ in try CommandRunner.start(["migrate", "--db", path]) }
            let results = processes.map(CommandRunner.finish)
            #expect(results.allSatisfy { $0.status == 0 }, "\(results)")
            #expect(results.filter { $0.standardOutput.hasPrefix("Applied ") }.count == 1)
            let check = try SQLiteConnection(path: path)
            #expect(try check.fetchOne("SELECT count(*) FROM schema_migrations") { $0.int(at: 0) } == MigrationSet.gridStore.migrations.count)
            #expect(try check.fetchOne("PRAGMA integrity_check") { $0.string(at: 0) } == "ok")
        }
    }

    @Test("a foreign database is refused with one line and exit status 1, untouched")
    func foreignFile() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("other.sqlite")
        do {
            let other = try SQLiteConnection(path: path)
            try other.execute("CREATE TABLE notes (text TEXT)")
        }
        let before = FileManager.default.contents(atPath: path)
        let result = try CommandRunner.run(["migrate", "--db", path])
        #expect(result.status == 1)
        #expect(result.standardError == "Error: \(path) is an SQLite database of another application "
                + "(it has tables but no gridstore application_id); choose another path\n")
        #expect(FileManager.default.contents(atPath: path) == before)
    }

    @Test("the release-style binary copied alone into an empty folder migrates a new database")
    func copiedBinary() throws {
        let directory = TemporaryDirectory()
        let copy = directory.file("gridstore")
        try CommandRunner.copyExecutable(to: copy)
        let process = try ChildProcess(program: copy, arguments: ["migrate", "--db", directory.file("new.sqlite")],
                                       environment: ProcessInfo.processInfo.environment, directory: directory.path)
        #expect(process.wait().status == 0)
        let check = try SQLiteConnection(path: directory.file("new.sqlite"))
        #expect(try check.fetchOne("SELECT count(*) FROM schema_migrations") { $0.int(at: 0) } == MigrationSet.gridStore.migrations.count)
    }
}
