import Foundation
import GridStoreAudit
import Testing

/// `gridstore undo`, `redo`, `history`, `revert --to` and `show --at`.
@Suite("gridstore history")
struct HistoryCommandTests {
    let directory = TemporaryDirectory()

    func run(_ database: String, _ arguments: String...) throws -> CommandResult {
        try CommandRunner.run(["--db", database] + arguments, environment: ["COLUMNS": "100"])
    }

    @Test("changes are listed newest first with the operation as typed; undo, redo and revert are changes too", arguments: Backend.all)
    func history(backend: Backend) throws {
        let database = try backend.database(in: directory)
        for command in [["toggle", "3"], ["insert", "0", "--section", "0", "--size", "big"], ["set", "5", "middle", "--format", "json"],
                        ["type", "less", "-q"]] {
            #expect(try CommandRunner.run(["--db", database, "--grid", "g"] + command).status == 0)
        }
        #expect(try run(database, "--grid", "g", "undo", "-q").status == 0)
        #expect(try run(database, "--grid", "g", "redo", "-q").status == 0)
        #expect(try run(database, "--grid", "g", "revert", "--to", "1", "-q").status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(try run(database, "--grid", "g", "history", "--format", "json").standardOutput.utf8))
            as? [String: Any]
        let entries = json?["entries"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["operation"] as? String } == ["revert --to 1", "redo 1", "undo 1", "type less", "set 5 middle",
                                                               "insert 0 --section 0 --size big", "toggle 3"])
        #expect(entries.map { $0["kind"] as? String } == ["revert", "redo", "undo", "change", "change", "change", "change"])
        #expect(entries[2]["targets"] as? [Int] == [4])
        #expect(json?["keep"] as? Int == 1000)
        let text = try run(database, "--grid", "g", "history", "--limit", "2").standardOutput
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0] == "revision  made at (UTC)            operation")
        #expect(lines[1].hasPrefix("       7  20") && lines[1].contains("  revert --to 1  · "))
        #expect(lines[2].contains("redo 1 (re-applied 4)"))
    }

    @Test("show --at draws an older revision; undo 2 after five changes gives the state after the third", arguments: Backend.all)
    func showAt(backend: Backend) throws {
        let database = try backend.database(in: directory)
        var after: [String] = []
        for item in 0..<5 {
            _ = try run(database, "toggle", String(item), "-q")
            after.append(try run(database, "show", "--format", "json").standardOutput)
        }
        func sizes(_ document: String) -> [String] {
            document.split(separator: "\n").filter { $0.contains("\"index\"") }.map { line in
                String(line.split(separator: ",").first { $0.contains("\"size\"") } ?? "")
            }
        }
        #expect(sizes(try run(database, "show", "--at", "3", "--format", "json").standardOutput) == sizes(after[2]))
        #expect(try run(database, "show", "--at", "3").standardOutput.hasPrefix("default · more (6 columns) · vertical · revision 3"))
        _ = try run(database, "undo", "2", "-q")
        #expect(sizes(try run(database, "show", "--format", "json").standardOutput) == sizes(after[2]))
    }

    @Test("refusals are one line, exit non-zero and change nothing", arguments: Backend.all)
    func refusals(backend: Backend) throws {
        let database = try backend.database(in: directory)
        _ = try run(database, "toggle", "1", "-q")
        let before = try DatabaseAudit.rows(path: database)
        for (arguments, status, message) in [
            (["redo"], Int32(64), "Error: there is nothing to redo: nothing was undone since the last change"),
            (["undo", "2"], 64, "Error: only 1 change(s) can be undone, not 2"),
            (["undo", "0"], 64, "Error: <count> must be from 1 to 1000000, not 0"),
            (["show", "--at", "5"], 64, "Error: revision 5 does not exist: the grid's revisions are 0 to 1"),
            (["revert"], 64, "Error: missing --to REV: the revision whose state to restore ('gridstore history' lists them)"),
            (["history", "--keep", "5", "--limit", "2"], 64,
             "Error: --keep sets how many changes are kept; give --limit and --format without it"),
            (["--grid", "nope", "undo"], 1, "Error: no grid named 'nope'; 'gridstore grids' lists the grids"),
        ] {
            let result = try CommandRunner.run(["--db", database] + arguments)
            #expect(result.status == status, "\(arguments)")
            #expect(result.standardError.split(separator: "\n").first.map(String.init) == message, "\(arguments)")
        }
        #expect(try DatabaseAudit.rows(path: database) == before)
        #expect(try run(database, "history", "--keep", "0").standardOutput == "grid 'default' keeps its newest 0 change(s)\n")
        #expect(try run(database, "history").standardOutput == "grid 'default' keeps no history ('gridstore history --keep N')\n")
        let trimmed = try run(database, "undo")
        #expect(trimmed.status == 64)
        #expect(trimmed.standardError.hasPrefix("Error: the history of grid 'default' before that was trimmed"))
    }
}
