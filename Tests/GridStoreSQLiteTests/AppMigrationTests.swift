import Foundation
import GridLayout
import Testing
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit

/// An app's own tables and migrations in the same SQLite file as gridstore's.
@Suite("App migrations")
struct AppMigrationTests {
    let directory = TemporaryDirectory()

    static let notesV1 = try! MigrationSet(files: [
        ("0001_notes.sql", """
            CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT;
            CREATE INDEX notes_by_body ON notes (body);
            CREATE TRIGGER notes_trimmed AFTER INSERT ON notes BEGIN UPDATE notes SET body = trim(body) WHERE id = new.id; END;
            CREATE VIEW long_notes AS SELECT * FROM notes WHERE length(body) > 10;
            """),
    ])
    static let notesV2 = try! MigrationSet(notesV1.migrations + [
        Migration(fileName: "0002_tags.sql", sql: "CREATE TABLE tags (note INTEGER REFERENCES notes (id), tag TEXT) STRICT;"),
    ])

    func tables(_ path: String) throws -> [String] {
        try SQLiteConnection(path: path, mode: .readOnly).fetchAll(
            "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") { $0.string(at: 0) }
    }

    @Test("an app's migrations run under its own namespace; gridstore opens the file as before, and each side sees only its own versions")
    func namespacedMigrations() throws {
        let path = directory.file("shared.sqlite")
        do {
            let database = try GridDatabase(path: path)
            #expect(try database.migrate(MigrationRunner(namespace: "notes_app", migrations: Self.notesV1)).map(\.version) == [1])
            #expect(try database.migrate(MigrationRunner(namespace: "notes_app", migrations: Self.notesV1)).isEmpty)
            try Grid(named: "default", in: database).toggle(at: GridIndexPath(item: 0))
        }
        // gridstore's refusals look at gridstore's own entries: its version 1 and the app's version 1 coexist.
        let reopened = try GridDatabase(path: path)
        #expect(try reopened.migrationStatus().isUpToDate)
        #expect(try reopened.migrationStatus(of: MigrationRunner(namespace: "notes_app", migrations: Self.notesV1)).isUpToDate)
        #expect(try reopened.migrate(MigrationRunner(namespace: "notes_app", migrations: Self.notesV2)).map(\.version) == [2])
        #expect(try Grid(named: "default", in: reopened).snapshot().revision == 1)
        // An older version of the app sees a newer app database; gridstore does not mind.
        let old = try reopened.migrationStatus(of: MigrationRunner(namespace: "notes_app", migrations: Self.notesV1))
        #expect(old.problem == .newerNamespace("notes_app", unknownVersions: [2], latestKnownVersion: 1))
        #expect(throws: MigrationError.self) { try reopened.migrate(MigrationRunner(namespace: "notes_app", migrations: Self.notesV1)) }
        #expect(try GridDatabase(path: path).migrationStatus().isUpToDate)
        let ledger = try SQLiteConnection(path: path, mode: .readOnly).fetchAll(
            "SELECT namespace, version FROM schema_migrations ORDER BY namespace, version") { "\($0.string(at: 0)) \($0.int(at: 1))" }
        #expect(ledger == MigrationSet.gridStore.migrations.map { "gridstore \($0.version)" } + ["notes_app 1", "notes_app 2"])
        #expect(throws: DatabaseFileError.self) { try reopened.migrate(MigrationRunner(migrations: .gridStore)) }
    }

    @Test("beside an app's tables, a trigger or index on gridstore's own tables is still refused")
    func plantedObjectsStillRefused() throws {
        let path = directory.file("shared.sqlite")
        try GridDatabase(path: path).migrate(MigrationRunner(namespace: "notes_app", migrations: Self.notesV1))
        for planted in ["CREATE TRIGGER wipe AFTER UPDATE ON grids BEGIN DELETE FROM size_chunks; END",
                        "CREATE INDEX sizes_by_letters ON size_chunks (sizes)",
                        "CREATE TRIGGER fill INSTEAD OF INSERT ON item_sizes BEGIN SELECT 1; END"] {
            let copy = directory.file("copy-\(planted.count).sqlite")
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            try SQLiteConnection(path: copy).execute(planted)
            #expect(throws: DatabaseFileError.self) { try GridDatabase(path: copy) }
        }
    }

    @Test("a ledger written before namespaces is read as gridstore's, and given its namespace column by the next migration")
    func legacyLedger() throws {
        let path = directory.file("legacy.sqlite")
        do { _ = try GridDatabase(path: path) }
        // The ledger as earlier builds made it, with gridstore's rows.
        let connection = try SQLiteConnection(path: path)
        try connection.executeScript("""
            CREATE TABLE old_ledger (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT;
            INSERT INTO old_ledger SELECT version, name, checksum, applied_at FROM schema_migrations;
            DROP TABLE schema_migrations;
            ALTER TABLE old_ledger RENAME TO schema_migrations;
            """)
        #expect(try GridDatabase(path: path).migrationStatus().isUpToDate)
        try GridDatabase(path: path).migrate(MigrationRunner(namespace: "notes_app", migrations: Self.notesV1))
        let rows = try connection.fetchAll("SELECT namespace, count(*) FROM schema_migrations GROUP BY namespace ORDER BY 1") {
            "\($0.string(at: 0)) \($0.int(at: 1))"
        }
        #expect(rows == ["gridstore \(MigrationSet.gridStore.migrations.count)", "notes_app 1"])
        #expect(try GridDatabase(path: path).migrationStatus().isUpToDate)
    }

    @Test("gridstore's tables go into an existing app database, which keeps its application_id, user_version and tables")
    func embedding() throws {
        let path = directory.file("app.sqlite")
        do {
            let app = try SQLiteConnection(path: path)
            try app.executeScript("""
                PRAGMA application_id = 42; PRAGMA user_version = 7;
                CREATE TABLE contacts (name TEXT) STRICT; INSERT INTO contacts VALUES ('Ada');
                CREATE TRIGGER contacts_named BEFORE INSERT ON contacts BEGIN SELECT 1; END;
                """)
        }
        #expect(throws: DatabaseFileError.foreignDatabase(path: path, applicationID: 42)) { try GridDatabase(path: path) }
        do {
            let database = try GridDatabase(embeddingIn: path)
            #expect(database.migrationsAppliedOnOpen.count == MigrationSet.gridStore.migrations.count)
            try Grid(named: "phone", in: database).toggle(at: GridIndexPath(item: 2))
            try database.migrate(MigrationRunner(namespace: "contacts_app", migrations: Self.notesV1))
        }
        let reopened = try GridDatabase(embeddingIn: path)
        #expect(reopened.migrationsAppliedOnOpen.isEmpty)
        #expect(try Grid(named: "phone", in: reopened, creatingWith: nil).snapshot().size(at: GridIndexPath(item: 2)) == .middle)
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        #expect(try scalar(connection, "PRAGMA application_id") == 42)
        #expect(try scalar(connection, "PRAGMA user_version") == 7)
        #expect(try text(connection, "SELECT name FROM contacts") == "Ada")
        #expect(try tables(path).contains("grids"))
    }

    @Test("embedding refuses a missing file, a file that is not SQLite, and a database whose tables collide, leaving its tables as they were")
    func embeddingRefusals() throws {
        let missing = directory.file("missing.sqlite")
        #expect(throws: DatabaseFileError.self) { try GridDatabase(embeddingIn: missing) }
        #expect(!FileManager.default.fileExists(atPath: missing))
        let text = directory.file("text.sqlite")
        try "hello, this is not SQLite".write(toFile: text, atomically: true, encoding: .utf8)
        #expect(throws: DatabaseFileError.notADatabase(path: text)) { try GridDatabase(embeddingIn: text) }
        let colliding = directory.file("colliding.sqlite")
        try SQLiteConnection(path: colliding).execute("CREATE TABLE grids (mine TEXT)")
        #expect(throws: MigrationError.self) { try GridDatabase(embeddingIn: colliding) }
        #expect(try tables(colliding) == ["grids"])
        // A name of a later version stops the migrations there; the earlier ones stay applied, the app's table as it was.
        let late = directory.file("late.sqlite")
        try SQLiteConnection(path: late).execute("CREATE TABLE size_chunks (mine TEXT)")
        #expect {
            try GridDatabase(embeddingIn: late)
        } throws: { error in
            guard case .failed(let fileName, _) = error as? MigrationError else { return false }
            return fileName == "0007_size_chunks.sql"
        }
        let connection = try SQLiteConnection(path: late)
        #expect(try scalar(connection, "SELECT max(version) FROM schema_migrations") == 6)
        #expect(try connection.fetchOne("SELECT sql FROM sqlite_schema WHERE name = 'size_chunks'") { $0.string(at: 0) }
                == "CREATE TABLE size_chunks (mine TEXT)")
    }
}
