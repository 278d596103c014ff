import Foundation
import GridStore
import GridStoreSQLite
import GridStoreAudit
import Testing

/// Each failure says its real cause in one line: not a neighbouring one whose remedy would not help.
@Suite("Messages that name the real cause")
struct CauseMessageTests {
    let directory = TemporaryDirectory()
    let hostile = HostileDatabaseTests()

    @Test("too few file descriptors is said as such, for a new file and an existing one, and no file is left")
    func fileDescriptors() throws {
        let existing = directory.file("existing.sqlite")
        #expect(try CommandRunner.run(["--db", existing, "-q", "toggle", "1"]).status == 0)
        let fresh = directory.file("fresh.sqlite")
        for (path, verb) in [(fresh, "create"), (existing, "open")] {
            let result = try CommandRunner.shell("ulimit -n 5; exec \"$GRIDSTORE\" --db '\(path)' -q toggle 2")
            #expect(result.status == 1)
            #expect(result.standardError == "Error: cannot \(verb) \(path): this process may have no more files open than its "
                    + "limit (5) allows, and gridstore needs a few more; raise it (ulimit -n) and try again\n")
        }
        #expect(!FileManager.default.fileExists(atPath: fresh))
    }

    @Test("a write past the file-size limit is said as such in one line; no new file is left, nor a changed one")
    func fileSizeLimit() throws {
        let source = directory.file("source.sqlite")
        #expect(try CommandRunner.run(["--db", source, "-q", "items", "3000"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: source))
        let new = directory.file("new.sqlite")
        for command in ["--db '\(source)' sync '\(new)' --create", "copy '\(source)' '\(new)'", "--db '\(source)' -q items 20000"] {
            // A limit far below what the command writes: the write fails, and the process lives on to say so.
            let result = try CommandRunner.shell("ulimit -f 100; exec \"$GRIDSTORE\" \(command)")
            #expect(result.status == 1, "\(command)")
            #expect(result.standardError.hasPrefix("Error: ") && result.standardError.filter { $0 == "\n" }.count == 1, "\(command)")
            #expect(result.standardError.contains("file-size limit (ulimit -f)"), "\(command): \(result.standardError)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                    == ["source.sqlite", "source.sqlite-shm", "source.sqlite-wal"], "\(command)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == before)
    }

    @Test("a key given twice is said to be given twice, on a new grid and an existing one")
    func repeatedKey() throws {
        let path = directory.file("keys.sqlite")
        for _ in 0..<2 {
            let result = try CommandRunner.run(["--db", path, "keys", "m", "n", "m"])
            #expect(result.status == 64)
            #expect(result.standardError.hasPrefix("Error: the key 'm' is given more than once; a key names one item of its grid\n"))
            #expect(try CommandRunner.run(["--db", path, "-q", "toggle", "1"]).status == 0)
        }
    }

    @Test("grid ids used up are said as such, not as a full disk")
    func gridIDsUsedUp() throws {
        let path = try hostile.database(editedWith: "UPDATE sqlite_sequence SET seq = 9223372036854775807 WHERE name = 'grids';")
        let result = try CommandRunner.run(["--db", path, "--grid", "other", "init"])
        #expect(result.status == 1)
        #expect(result.standardError == "Error: the stored grid is inconsistent: the file has given out every grid id (its "
                + "sqlite_sequence for grids is at 9223372036854775807), so no grid can be added; copy its grids into a new "
                + "file with 'gridstore copy'\n")
        #expect(try CommandRunner.run(["--db", path, "-q", "toggle", "1"]).status == 0)
    }

    @Test("history entries edited by hand are inconsistent, not trimmed", arguments: [
        ("UPDATE history SET kind = 'undo', targets = '1' WHERE revision = 3;", "whose undo of revision 1 does not follow"),
        ("UPDATE history SET kind = 'redo', targets = '2' WHERE revision = 3;", "whose redo of revision 2 does not follow"),
        ("PRAGMA ignore_check_constraints = ON; UPDATE history SET kind = 'undone' WHERE revision = 2;", "with an unknown kind"),
        ("UPDATE history SET targets = '1' WHERE revision = 2;", "with targets that do not fit its kind"),
    ])
    func editedHistory(sql: String, message: String) throws {
        let path = directory.file("history.sqlite")
        for item in 1...3 { #expect(try CommandRunner.run(["--db", path, "-q", "toggle", String(item)]).status == 0) }
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        try connection.executeScript(sql)
        // The entries read on their own; undo and redo find that they do not follow from each other.
        let commands = message.hasPrefix("whose") ? [["undo"], ["redo"]] : [["undo"], ["redo"], ["history"]]
        for command in commands {
            let result = try CommandRunner.run(["--db", path] + command)
            #expect(result.status == 1, "\(command)")
            #expect(result.standardError.hasPrefix("Error: the stored grid is inconsistent: grid 'default' has a history entry "),
                    "\(command): \(result.standardError)")
            #expect(result.standardError.contains(message) || command != ["undo"], "\(command): \(result.standardError)")
        }
    }

    @Test("a history time that is not a time is refused, never printed", arguments: [
        "'2026-12-01T00:00:00.000Z' || char(27) || ']0;owned' || char(7)", "char(27) || '[2J'", "'2026-12-01 00:00:00'",
        "'2026-13-01T00:00:00.000Z'", "'2026-02-29T00:00:00.000Z'", "'0000-01-01T00:00:00.000Z'", "printf('%.10000000c', 'x')",
    ])
    func madeAt(value: String) throws {
        let path = directory.file("time.sqlite")
        #expect(try CommandRunner.run(["--db", path, "-q", "toggle", "1"]).status == 0)
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        try connection.execute("UPDATE history SET made_at = \(value)")
        for format in [["history"], ["history", "--format", "json"]] {
            let result = try CommandRunner.run(["--db", path] + format)
            #expect(result.status == 1)
            #expect(result.standardOutput.isEmpty)
            #expect(result.standardError == "Error: the stored grid is inconsistent: grid 'default' has a history entry for "
                    + "revision 1 with a time that is not of the form 2026-11-30T11:32:01.123Z\n")
        }
    }
}
