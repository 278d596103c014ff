import Foundation
import GridStore
import GridStoreSQLite
import GridStoreAudit
import TestSupport
@testable import GridStoreCLI
import Testing

/// Files whose schema gridstore did not make, or that carry a write SQLite would replay: each is
/// refused in one line before anything in it runs, and left byte for byte as it was, with the
/// files beside it.
@Suite("gridstore and planted schemas, logs and journals")
struct PlantedSchemaTests {
    let directory = TemporaryDirectory()
    let hostile = HostileDatabaseTests()

    /// The bytes of `path` and of its `-wal`, `-shm` and `-journal`, where they exist.
    func contents(of path: String) -> [String: Data] {
        var result: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm", "-journal"] {
            if let data = FileManager.default.contents(atPath: path + suffix) { result[suffix] = data }
        }
        return result
    }

    @Test("an app namespace in the ledger does not let an app table's foreign key or trigger act inside drop", arguments: [
        "CREATE TABLE app_pins (grid INTEGER REFERENCES grids (id) ON DELETE CASCADE);",
        "CREATE TABLE app_pins (grid INTEGER, FOREIGN KEY (grid) REFERENCES \"GRIDS\" (id));",
        "CREATE TABLE app_pins (grid INTEGER, item INTEGER, FOREIGN KEY (grid, item) REFERENCES sections (grid_id, section) ON DELETE SET NULL);",
    ])
    func appForeignKeys(table: String) throws {
        let path = try hostile.database(editedWith: """
            INSERT INTO schema_migrations VALUES ('app', 1, 'pins', 'x', '2026-01-01T00:00:00Z');
            \(table)
            CREATE TRIGGER app_wipe AFTER DELETE ON app_pins BEGIN DELETE FROM history; UPDATE grids SET revision = 99; END;
            INSERT INTO app_pins (grid) VALUES (1);
            """)
        #expect(try CommandRunner.run(["--db", path, "-q", "init", "other"]).status != 0)
        for command in [["drop", "default"], ["show"], ["toggle", "1"], ["check"]] {
            try hostile.expectRefused(command, on: path, message: "\(path) holds table app_pins (to ")
        }
    }

    @Test("an app's own tables and triggers beside gridstore's are accepted, and no trigger fires in gridstore's changes")
    func appObjectsAccepted() throws {
        let path = try hostile.database(editedWith: """
            INSERT INTO schema_migrations VALUES ('app', 1, 'notes', 'x', '2026-01-01T00:00:00Z');
            CREATE TABLE app_notes (grid_name TEXT, body TEXT);
            CREATE TABLE app_log (what TEXT);
            CREATE TRIGGER app_logged AFTER INSERT ON app_notes BEGIN INSERT INTO app_log VALUES ('noted'); END;
            CREATE VIEW app_summary AS SELECT name, revision FROM grids;
            """)
        #expect(try CommandRunner.run(["--db", path, "-q", "toggle", "3"]).status == 0)
        #expect(try CommandRunner.run(["--db", path, "-q", "drop", "default"]).status == 0)
        #expect(try CommandRunner.run(["--db", path, "check"]).status == 0)
    }

    @Test("gridstore's objects defined otherwise are refused by name", arguments: [
        ("DROP VIEW placements; CREATE VIEW placements AS SELECT 1 AS grid_id, 0 AS section, 0 AS item, 'big' AS size, "
            + "0 AS x, 0 AS y, 4 AS w, 2 AS h;", "view placements"),
        ("ALTER TABLE grids ADD COLUMN extra TEXT;", "table grids"),
        ("ALTER TABLE history ADD COLUMN note TEXT DEFAULT 'x';", "table history"),
        ("PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = replace(sql, 'CHECK (columns BETWEEN 1 AND 64)', '') "
            + "WHERE name = 'grids'; PRAGMA writable_schema = OFF;", "table grids"),
        ("PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = replace(sql, 'sizes NOT GLOB', 'sizes GLOB') "
            + "WHERE name = 'size_chunks'; PRAGMA writable_schema = OFF;", "table size_chunks"),
    ])
    func alteredDefinitions(sql: String, object: String) throws {
        let path = try hostile.database(editedWith: sql)
        for command in [["show"], ["toggle", "1"], ["check"], ["grids"]] {
            try hostile.expectRefused(command, on: path, message: "\(path) is not as gridstore left it: the definition of \(object)")
        }
    }

    @Test("a trigger committed in the write-ahead log but not yet in the file is refused, leaving the file and -wal as they were")
    func plantedInTheLog() throws {
        let original = directory.file("original.sqlite")
        #expect(try CommandRunner.run(["--db", original, "-q", "toggle", "2"]).status == 0)
        let planted = directory.file("planted.sqlite")
        do {
            // Copied while the planting connection is open: the trigger is only in the copy's -wal.
            let connection = try SQLiteConnection(path: original, mode: .readWrite)
            try connection.skipCheckpointOnClose()
            try connection.execute("PRAGMA wal_autocheckpoint = 0")
            try connection.executeScript("CREATE TRIGGER wipe AFTER UPDATE ON grids BEGIN DELETE FROM history; END;")
            for suffix in ["", "-wal", "-shm"] {
                try FileManager.default.copyItem(atPath: original + suffix, toPath: planted + suffix)
            }
        }
        let before = contents(of: planted)
        #expect(before["-wal"].map(\.count) ?? 0 > 0)
        for command in [["toggle", "3"], ["show"], ["check"]] {
            let result = try CommandRunner.run(["--db", planted] + command)
            #expect(result.status == 1)
            #expect(result.standardError.hasPrefix("Error: \(planted) is not as gridstore left it: it holds trigger wipe"))
            // The file and its log byte for byte; the -shm, SQLite's shared index of the log, stays
            // (a reader, gridstore or sqlite3, records in it where it reads up to).
            let after = contents(of: planted)
            for suffix in ["", "-wal"] { #expect(after[suffix] == before[suffix], "\(command): \(suffix)") }
            #expect(after["-shm"]?.count == before["-shm"]?.count)
        }
    }

    @Test("a journal another process is writing with is not an interrupted write: gridstore waits for that writer, then reads")
    func liveJournal() throws {
        let path = directory.file("live.sqlite")
        #expect(try CommandRunner.run(["--db", path, "-q", "init", "--items", "5000"]).status == 0)
        for item in 0..<30 { _ = try CommandRunner.run(["--db", path, "-q", "toggle", String(item * 151)]) }
        // A write in progress whose pages spilled: its journal has a header, and it holds the reserved lock.
        let writer = try SQLiteConnection(path: path, mode: .readWrite)
        try writer.executeScript("PRAGMA journal_mode = DELETE; PRAGMA cache_size = 1; BEGIN IMMEDIATE;"
                                 + "UPDATE placement_chunks SET cells = cells || ' ';")
        #expect(FileManager.default.contents(atPath: path + "-journal")?.first != 0)
        let reader = try CommandRunner.start(["--db", path, "migrate", "--status"])
        // It waits for the writer: asleep in SQLite's busy handler, still running.
        #expect(KernelWait.waitUntilSleeping(KernelWait.process(reader.pid)))
        #expect(reader.isRunning, "gridstore did not wait for the writer")
        try writer.execute("ROLLBACK")
        let result = CommandRunner.finish(reader)
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test("a trigger written on GRIDS in capitals is gridstore's table's, and refused")
    func capitalTable() throws {
        let path = try hostile.database(editedWith: """
            INSERT INTO schema_migrations VALUES ('app', 1, 'x', 'x', '2026-01-01T00:00:00Z');
            CREATE TRIGGER wipe AFTER UPDATE ON GRIDS BEGIN DELETE FROM history; END;
            """)
        try hostile.expectRefused(["toggle", "1"], on: path, message: "\(path) is not as gridstore left it: it holds trigger wipe")
    }

    @Test("a hot rollback journal is refused without being replayed, saying how to roll it back with sqlite3")
    func hotJournal() throws {
        let original = directory.file("rollback.sqlite")
        #expect(try CommandRunner.run(["--db", original, "-q", "init", "--items", "5000"]).status == 0)
        for item in 0..<50 { _ = try CommandRunner.run(["--db", original, "-q", "toggle", String(item * 97)]) }
        let hot = directory.file("hot.sqlite")
        do {
            // A write with pages spilled to the journal, copied before it ends: the copy's journal is hot.
            let connection = try SQLiteConnection(path: original, mode: .readWrite)
            try connection.execute("PRAGMA journal_mode = DELETE")
            try connection.execute("PRAGMA cache_size = 1")
            try connection.execute("BEGIN IMMEDIATE")
            try connection.execute("UPDATE placement_chunks SET cells = cells || ' '")
            #expect(FileManager.default.fileExists(atPath: original + "-journal"))
            for suffix in ["", "-journal"] { try FileManager.default.copyItem(atPath: original + suffix, toPath: hot + suffix) }
            try connection.execute("ROLLBACK")
        }
        let before = contents(of: hot)
        for command in [["show"], ["toggle", "3"], ["check"], ["migrate"]] {
            let result = try CommandRunner.run(["--db", hot] + command)
            #expect(result.status == 1)
            #expect(result.standardError == "Error: \(hot)-journal holds an interrupted write that opening would replay into \(hot); "
                    + "gridstore replays nothing and changed nothing; roll it back with sqlite3 \(hot) 'PRAGMA integrity_check', "
                    + "then try again\n")
            #expect(contents(of: hot) == before, "\(command)")
        }
        // The remedy the message gives works.
        _ = try ChildProcess(program: "/usr/bin/sqlite3", arguments: [hot, "PRAGMA integrity_check"],
                             environment: ProcessInfo.processInfo.environment).wait()
        #expect(try CommandRunner.run(["--db", hot, "check"]).status == 0)
    }
}
