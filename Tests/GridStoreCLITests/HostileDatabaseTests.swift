import Foundation
import GridStore
import GridStoreSQLite
import GridStoreAudit
@testable import GridStoreCLI
import Testing

/// Database files gridstore did not write: planted SQL and rows the schema allows but a grid
/// cannot hold end in one line and exit 1, never a crash or a hang, and the file is unchanged.
@Suite("gridstore and hand-edited database files")
struct HostileDatabaseTests {
    let directory = TemporaryDirectory()

    /// A database with grid `default` of 12 items, edited with `sql` on a plain connection.
    func database(editedWith sql: String) throws -> String {
        let path = directory.file("edited.sqlite")
        #expect(try CommandRunner.run(["--db", path, "toggle", "2"]).status == 0)
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        try connection.executeScript(sql)
        return path
    }

    /// Runs `arguments` on `path` and checks the refusal: exit 1, one line starting with `message`, bytes unchanged.
    func expectRefused(_ arguments: [String], on path: String, message: String,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = FileManager.default.contents(atPath: path)
        let started = Date()
        let result = try CommandRunner.run(["--db", path] + arguments)
        #expect(Date().timeIntervalSince(started) < 20, sourceLocation: sourceLocation)
        #expect(result.status == 1, "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.hasPrefix("Error: " + message), "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
        #expect(FileManager.default.contents(atPath: path) == before, sourceLocation: sourceLocation)
    }

    @Test("a planted trigger is refused before anything runs, naming it", arguments: [
        "CREATE TRIGGER wipe AFTER UPDATE ON grids BEGIN DELETE FROM grids WHERE id <> new.id; END;",
        "CREATE TRIGGER forever BEFORE UPDATE ON grids BEGIN SELECT count(*) FROM "
            + "(WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c); END;",
        "CREATE VIEW extra AS SELECT 1;",
        "CREATE INDEX sizes_by_letters ON size_chunks (sizes);",
        "CREATE TRIGGER fill INSTEAD OF INSERT ON item_sizes BEGIN SELECT 1; END;",
    ])
    func plantedObjects(sql: String) throws {
        let path = try database(editedWith: sql)
        for command in [["toggle", "3"], ["show"], ["get", "1"], ["grids"]] {
            try expectRefused(command, on: path, message: "\(path) is not as gridstore left it: it holds ")
        }
    }

    @Test("a refused ledger leaves the file and its folder exactly as they were, -wal and -shm included", arguments: [
        ("UPDATE schema_migrations SET checksum = 'feedface' WHERE version = 1;", "migration 0001_initial.sql was changed"),
        ("INSERT INTO schema_migrations VALUES ('gridstore', 9000, 'future', 'x', 'now');", "the database was created by a newer gridstore"),
    ])
    func refusedLedger(sql: String, message: String) throws {
        let path = try database(editedWith: sql + "PRAGMA journal_mode = DELETE;")
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        for command in [["toggle", "3"], ["show"], ["migrate"]] {
            try expectRefused(command, on: path, message: message)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == listing)
        }
        let status = try CommandRunner.run(["--db", path, "migrate", "--status"])
        #expect(status.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == listing)
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        #expect(try connection.fetchOne("PRAGMA journal_mode") { $0.string(at: 0) } == "delete")
    }

    @Test("rows a grid cannot hold are refused as an inconsistent grid", arguments: [
        ("INSERT INTO size_chunks (grid_id, section, first_item, sizes) VALUES (1, -1, 0, 'b');",
         "the stored grid is inconsistent: grid 'default' has a size for item 0 of section -1, which does not exist"),
        ("UPDATE size_chunks SET sizes = '............b';",
         "the stored grid is inconsistent: grid 'default' has a size for item 12 of section 0, which does not exist"),
        ("PRAGMA ignore_check_constraints = ON; UPDATE size_chunks SET sizes = 'x';",
         "the stored grid is inconsistent: grid 'default' has an unknown size for item 0 of section 0"),
        ("PRAGMA ignore_check_constraints = ON; UPDATE size_chunks SET first_item = 1;",
         "the stored grid is inconsistent: grid 'default' has a size chunk for section 0 at item 1 with 3 sizes"),
        ("PRAGMA ignore_check_constraints = ON; UPDATE size_chunks SET sizes = printf('%300s', 'b');",
         "the stored grid is inconsistent: grid 'default' has a size chunk for section 0 at item 0 with 300 sizes"),
        ("UPDATE grids SET revision = 9223372036854775807;",
         "the stored grid is inconsistent: grid 'default' has revision 9223372036854775807"),
        ("UPDATE sections SET item_count = 1000000000000;",
         "the stored grid is inconsistent: grid 'default' has 1000000000000 items in section 0, over the limit"),
        ("UPDATE sections SET item_count = 20000000;",
         "the stored grid is inconsistent: grid 'default' has 20000000 items in section 0, over the limit"),
        ("INSERT INTO sections (grid_id, section, item_count) VALUES (1, 5, 3);",
         "the stored grid is inconsistent: grid 'default' has section 5 where section 1 was expected"),
    ])
    func inconsistentRows(sql: String, message: String) throws {
        let path = try database(editedWith: sql)
        for command in [["toggle", "3"], ["show"], ["export"]] {
            try expectRefused(command, on: path, message: message)
        }
    }
}

/// Text from a file or the command line cannot drive the terminal; paths are file names.
@Suite("gridstore's text and paths")
struct TextAndPathTests {
    let directory = TemporaryDirectory()

    @Test("escape sequences read from the file are refused as an inconsistent grid, and never printed as they are")
    func escapedOutput() throws {
        let path = directory.file("grids.sqlite")
        _ = try CommandRunner.run(["--db", path, "toggle", "1"])
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        try connection.execute("UPDATE grids SET updated_at = ?", ["2026\u{1B}]0;owned\u{07}\u{1B}[2J"])
        let badTime = try CommandRunner.run(["--db", path, "grids"], environment: ["COLUMNS": "200"])
        #expect(badTime.status == 1)
        #expect(badTime.standardError == "Error: the stored grid is inconsistent: grid 'default' has a change time that is not "
                + "of the form 2026-11-30T11:32:01.123Z\n")
        try connection.execute("UPDATE grids SET updated_at = ?, name = ?", ["2026-11-30T11:32:01.123Z", "a\u{202E}b\u{9B}c"])
        for format in ["text", "json"] {
            let listed = try CommandRunner.run(["--db", path, "grids", "--format", format], environment: ["COLUMNS": "200"])
            #expect(listed.status == 1)
            #expect(listed.standardOutput.isEmpty)
            #expect(!listed.standardError.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E || $0.value == 0x9B })
            #expect(listed.standardError.contains("a\\u{202e}b\\u{9b}c"), "\(listed.standardError)")
        }
        #expect(JSONOutput.quoted("a\u{202E}b\u{9B}c\u{1B}") == #""a\u202eb\u009bc\u001b""#)
    }

    @Test("names with C1 or bidirectional controls are refused as other control characters are",
          arguments: ["a\u{202E}b", "x\u{9B}y", "\u{2066}isolate"])
    func refusedNames(name: String) throws {
        let result = try CommandRunner.run(["--db", directory.file("grids.sqlite"), "--grid", name, "init"])
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("Error: "))
        #expect(result.standardError.contains("cannot contain control characters"))
        #expect(!result.standardError.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x9B || $0.value == 0x2066 })
    }

    @Test("--db '' is a usage error")
    func emptyDatabase() throws {
        let result = try CommandRunner.run(["--db", "", "toggle", "1"])
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("Error: --db needs a database file or a postgresql:// URI, not an empty value\n"))
    }

    @Test("a path that looks like an SQLite URI, given as ./name, is a file of exactly that name")
    func uriLookingPath() throws {
        let result = try CommandRunner.shell("cd '\(directory.path)' && \"$GRIDSTORE\" --db './file:x.db?immutable=1' toggle 1 >/dev/null"
                                             + " && \"$GRIDSTORE\" --db './file:x.db?immutable=1' get 1")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "middle\n")
        #expect(FileManager.default.fileExists(atPath: directory.file("file:x.db?immutable=1")))
        #expect(!FileManager.default.fileExists(atPath: directory.file("x.db")))
    }

    @Test("paths that are not database files are named for what they are")
    func oddPaths() throws {
        let fileManager = FileManager.default
        try fileManager.createSymbolicLink(atPath: directory.file("dangling.sqlite"), withDestinationPath: "/nonexistent/grids")
        try fileManager.createSymbolicLink(atPath: directory.file("loop-a"), withDestinationPath: directory.file("loop-b"))
        try fileManager.createSymbolicLink(atPath: directory.file("loop-b"), withDestinationPath: directory.file("loop-a"))
        let cases = [
            (directory.file("dangling.sqlite"), "it is a symbolic link to /nonexistent/grids, which does not exist"),
            (directory.file("loop-a"), "it is a loop of symbolic links"),
            ("/proc/self/mem", "it is a kernel pseudo-file (under /proc or /sys), not a file on disk"),
        ]
        for (path, reason) in cases {
            for command in [["show"], ["toggle", "1"]] {
                let result = try CommandRunner.run(["--db", path] + command)
                #expect(result.status == 1)
                #expect(result.standardError == "Error: cannot open \(path): \(reason)\n", "\(path) \(command)")
            }
        }
    }

    @Test("a -wal or -shm that is a directory, a symbolic link or a FIFO is named, and nothing is changed",
          arguments: ["directory", "symlink", "fifo"])
    func oddLogFiles(kind: String) throws {
        let path = directory.file("grids.sqlite")
        _ = try CommandRunner.run(["--db", path, "toggle", "1"])
        let log = path + (kind == "fifo" ? "-shm" : "-wal")
        try FileManager.default.removeItem(atPath: log)
        switch kind {
        case "directory": try FileManager.default.createDirectory(atPath: log, withIntermediateDirectories: false)
        case "symlink": try FileManager.default.createSymbolicLink(atPath: log, withDestinationPath: directory.file("elsewhere"))
        default: #expect(mkfifo(log, 0o600) == 0)
        }
        let before = FileManager.default.contents(atPath: path)
        let result = try CommandRunner.run(["--db", path, "toggle", "2"])
        let what = kind == "directory" ? "a directory" : kind == "symlink" ? "a symbolic link" : "a FIFO"
        let role = kind == "fifo" ? "shared-memory file" : "write-ahead log"
        #expect(result.status == 1)
        #expect(result.standardError
                == "Error: cannot open \(path): its \(role) \(log) is \(what), where gridstore keeps a regular file; remove it\n")
        #expect(FileManager.default.contents(atPath: path) == before)
        #expect(!FileManager.default.fileExists(atPath: directory.file("elsewhere")))
    }
}

/// A process killed while it creates a database leaves nothing behind for long.
@Suite("gridstore killed while creating a database")
struct KilledCreationTests {
    @Test("after 20 kills at random moments, the next creation leaves no temporary name behind")
    func killedCreations() throws {
        let directory = TemporaryDirectory()
        for attempt in 0..<20 {
            let process = try CommandRunner.start(["--db", directory.file("new-\(attempt).sqlite"), "toggle", "1"])
            usleep(useconds_t(Int.random(in: 0...15_000)))
            kill(process.pid, SIGKILL)
            _ = CommandRunner.finish(process)
        }
        #expect(try CommandRunner.run(["--db", directory.file("last.sqlite"), "toggle", "1"]).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.filter { $0.hasPrefix(".gridstore-new-") }.isEmpty, "\(names)")
        // What the killed processes finished is whole.
        for name in names where name.hasSuffix(".sqlite") {
            #expect(try CommandRunner.run(["--db", directory.file(name), "check"]).status == 0, "\(name)")
        }
    }
}
