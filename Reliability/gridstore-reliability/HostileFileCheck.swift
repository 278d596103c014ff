import Foundation
import TestSupport
import GridStoreAudit
import SeededRandom
import GridStore
import GridStoreSQLite

/// Files that are not gridstore databases, damaged ones, and ones gridstore may not write:
/// a one-line error with a documented exit status, never a crash, and the file unchanged.
enum HostileFileCheck {
    struct Case {
        var name: String
        /// Prepares the case in `folder` and returns the database path to pass with --db.
        var prepare: (_ folder: String, _ runner: ProcessRunner) throws -> String
        /// The commands to try.
        var commands: [[String]]
        /// The exit status each command must end with.
        var status: Int32
        /// Text the error must contain.
        var message: String
        /// Run as an unprivileged user (permissions do not apply to root).
        var unprivileged = false
    }

    static func run(_ runner: ProcessRunner, scratch: String, report: Report) {
        let asUser = getuid() == 0 ? ProcessRunner(executable: runner.executable, scratch: runner.scratch, userID: 65534) : runner
        for hostile in cases() {
            let folder = scratch + "/hostile-" + hostile.name.replacingOccurrences(of: " ", with: "-")
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            chmod(folder, 0o777)
            let path: String
            do {
                path = try hostile.prepare(folder, asUser)
            } catch {
                report.fail("hostile \(hostile.name): setup failed: \(error)")
                continue
            }
            report.count(hostileFiles: 1)
            // The file, its log and its journal, byte for byte.
            let files = [path, path + "-wal", path + "-journal"]
            let before = files.map(fileBytes)
            for command in hostile.commands {
                let result = (hostile.unprivileged ? asUser : runner).run(["--db", path] + command)
                report.count(processes: 1, commands: 1)
                let lines = result.standardError.split(separator: "\n")
                let described = "hostile \(hostile.name): gridstore \(command.joined(separator: " "))"
                report.check(result.status == hostile.status, "\(described): \(result.summary), expected exit \(hostile.status)")
                report.check(lines.count == 1 && lines[0].hasPrefix("Error: ") && result.standardError.contains(hostile.message),
                             "\(described): expected one line with '\(hostile.message)', got '\(result.standardError)'")
                report.check(files.map(fileBytes) == before, "\(described): the file, its -wal or its -journal changed")
            }
            chmod(folder, 0o777)
        }
    }

    static func cases() -> [Case] {
        let readAndWrite = [["show"], ["toggle", "1"], ["migrate"], ["grids"]]
        return [
            Case(name: "empty file", prepare: { folder, _ in
                let path = folder + "/empty.sqlite"
                _ = FileManager.default.createFile(atPath: path, contents: Data())
                return path
            }, commands: readAndWrite, status: 1, message: "is an empty file, not a gridstore database"),
            Case(name: "random bytes", prepare: { folder, _ in
                let path = folder + "/random.sqlite"
                var generator = SeededGenerator(seed: 3)
                _ = FileManager.default.createFile(atPath: path, contents: Data((0..<50_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }))
                return path
            }, commands: readAndWrite, status: 1, message: "is not a gridstore database (it is not an SQLite file)"),
            Case(name: "truncated database", prepare: { folder, runner in
                let path = folder + "/truncated.sqlite"
                _ = runner.run(["--db", path, "init", "--items", "3000"])
                _ = runner.run(["--db", path, "set", "5", "big"])
                for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
                // Keep the first page (the schema) and a little of the next: the grids are gone.
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                try bytes.prefix(16_384 + 500).write(to: URL(fileURLWithPath: path))
                return path
            }, commands: [["show"], ["toggle", "1"], ["export"]], status: 1, message: "malformed"),
            Case(name: "foreign database", prepare: { folder, _ in
                let path = folder + "/foreign.sqlite"
                let connection = try SQLiteConnection(path: path)
                try connection.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
                try connection.execute("INSERT INTO invoices (total) VALUES (9.5)")
                return path
            }, commands: readAndWrite, status: 1, message: "is an SQLite database of another application"),
            Case(name: "newer schema", prepare: { folder, _ in
                let path = folder + "/newer.sqlite"
                let newer = try MigrationSet(MigrationSet.gridStore.migrations
                    + [Migration(fileName: "9000_from_the_future.sql", sql: "CREATE TABLE future (x INTEGER) STRICT;")])
                _ = try GridDatabase(path: path, migrations: newer)
                for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
                return path
            }, commands: readAndWrite, status: 1, message: "created by a newer gridstore"),
            Case(name: "tampered ledger", prepare: { folder, _ in
                let path = folder + "/tampered.sqlite"
                _ = try GridDatabase(path: path)
                try SQLiteConnection(path: path, mode: .readWrite)
                    .execute("UPDATE schema_migrations SET checksum = 'feedface' WHERE version = 1")
                return path
            }, commands: readAndWrite, status: 1, message: "was changed after it was applied"),
            Case(name: "read-only file", prepare: { folder, runner in
                let path = folder + "/readonly.sqlite"
                _ = runner.run(["--db", path, "init"])
                chmod(path, 0o444)
                return path
            }, commands: [["toggle", "1"], ["set", "0", "big"], ["insert", "0"]], status: 1, message: "is read-only",
                 unprivileged: true),
            Case(name: "read-only folder, new file", prepare: { folder, _ in
                let locked = folder + "/locked"
                try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
                chmod(locked, 0o555)
                return locked + "/new.sqlite"
            // (`show` creates nothing: it says there is no database, as for any missing file.)
            }, commands: [["toggle", "1"], ["init"]], status: 1, message: "Permission denied", unprivileged: true),
            Case(name: "read-only folder, existing file", prepare: { folder, runner in
                let locked = folder + "/locked-existing"
                try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
                chmod(locked, 0o777)
                let path = locked + "/grids.sqlite"
                _ = runner.run(["--db", path, "init"])
                for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
                chmod(locked, 0o555)
                return path
            }, commands: [["toggle", "1"], ["show"]], status: 1, message: "cannot open", unprivileged: true),
            Case(name: "redefined view", prepare: { folder, runner in
                try edited(folder + "/view.sqlite", runner, """
                    DROP VIEW placements;
                    CREATE VIEW placements AS SELECT 1 AS grid_id, 0 AS section, 0 AS item, 'big' AS size, 0 AS x, 0 AS y, 4 AS w, 2 AS h;
                    """)
            }, commands: readAndWrite, status: 1, message: "the definition of view placements differs"),
            Case(name: "check removed through writable_schema", prepare: { folder, runner in
                try edited(folder + "/check.sqlite", runner, """
                    PRAGMA writable_schema = ON;
                    UPDATE sqlite_schema SET sql = replace(sql, 'CHECK (columns BETWEEN 1 AND 64)', '') WHERE name = 'grids';
                    """)
            }, commands: readAndWrite, status: 1, message: "the definition of table grids differs"),
            Case(name: "app table with a cascading foreign key", prepare: { folder, runner in
                try edited(folder + "/app.sqlite", runner, """
                    INSERT INTO schema_migrations VALUES ('app', 1, 'pins', 'x', '2026-01-01T00:00:00Z');
                    CREATE TABLE app_pins (grid INTEGER REFERENCES grids (id) ON DELETE CASCADE);
                    CREATE TRIGGER app_wipe AFTER DELETE ON app_pins BEGIN DELETE FROM history; END;
                    """)
            }, commands: readAndWrite + [["drop", "default"]], status: 1, message: "with a foreign key to gridstore's tables"),
            Case(name: "trigger only in the write-ahead log", prepare: { folder, runner in
                let original = folder + "/original.sqlite", planted = folder + "/planted.sqlite"
                _ = runner.run(["--db", original, "toggle", "1"])
                let connection = try SQLiteConnection(path: original, mode: .readWrite)
                try connection.skipCheckpointOnClose()
                try connection.executeScript("CREATE TRIGGER wipe AFTER UPDATE ON grids BEGIN DELETE FROM history; END;")
                for suffix in ["", "-wal", "-shm"] { try FileManager.default.copyItem(atPath: original + suffix, toPath: planted + suffix) }
                return planted
            }, commands: readAndWrite, status: 1, message: "it holds trigger wipe"),
            Case(name: "hot rollback journal", prepare: { folder, runner in
                let original = folder + "/rollback.sqlite", hot = folder + "/hot.sqlite"
                _ = runner.run(["--db", original, "init", "--items", "3000"])
                for item in stride(from: 0, to: 3000, by: 150) { _ = runner.run(["--db", original, "-q", "toggle", String(item)]) }
                let connection = try SQLiteConnection(path: original, mode: .readWrite)
                try connection.executeScript("PRAGMA journal_mode = DELETE; PRAGMA cache_size = 1; BEGIN IMMEDIATE;"
                                             + "UPDATE placement_chunks SET cells = cells || ' ';")
                for suffix in ["", "-journal"] { try FileManager.default.copyItem(atPath: original + suffix, toPath: hot + suffix) }
                try connection.execute("ROLLBACK")
                return hot
            }, commands: readAndWrite + [["check"]], status: 1, message: "holds an interrupted write that opening would replay"),
            Case(name: "directory", prepare: { folder, _ in folder },
                 commands: readAndWrite, status: 1, message: "is a directory; give the path of a database file"),
            Case(name: "path through a file", prepare: { folder, _ in
                let file = folder + "/plain-file"
                _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
                return file + "/grids.sqlite"
            }, commands: [["toggle", "1"]], status: 1, message: "cannot create"),
        ]
    }

    /// A gridstore database at `path`, then edited with `sql` on a plain connection.
    static func edited(_ path: String, _ runner: ProcessRunner, _ sql: String) throws -> String {
        _ = runner.run(["--db", path, "toggle", "2"])
        try SQLiteConnection(path: path, mode: .readWrite).executeScript(sql)
        return path
    }
}
