import Foundation
import GridStore
import GridStoreSQLite
import GridStoreAudit
import Testing

/// Each command, run as the built binary: its output and exit status.
@Suite("gridstore commands")
struct CommandTests {
    let directory = TemporaryDirectory()

    /// Runs `gridstore --db <database> arguments...`.
    func gridstore(at database: String, _ arguments: String..., input: String? = nil) throws -> CommandResult {
        try CommandRunner.run(["--db", database] + arguments, input: input.map { Data($0.utf8) })
    }

    @Test("toggle creates the default grid on first use, cycles sizes and draws the grid", arguments: Backend.all)
    func toggle(backend: Backend) throws {
        let database = try backend.database(in: directory)
        let first = try gridstore(at: database, "toggle", "3")
        #expect(first.status == 0)
        // A file --db named that was not there is made, with a note: a mistyped name shows.
        #expect(first.standardError == (backend == .sqlite ? "Note: created a new database at '\(database)', which --db named\n" : ""))
        #expect(first.standardOutput == """
            default · more (6 columns) · vertical · revision 1 · 12 items
            ┌───────────┬───────────┬───────────┬───────────────────────┬───────────┐
            │     0     │     1     │     2     │                       │     4     │
            │           │           │           │                       │           │
            ├───────────┼───────────┼───────────┤           3           ├───────────┤
            │     5     │     6     │     7     │                       │     8     │
            │           │           │           │                       │           │
            ├───────────┼───────────┼───────────┼───────────────────────┴───────────┘
            │     9     │    10     │    11     │
            │           │           │           │
            └───────────┴───────────┴───────────┘

            """)
        #expect(try gridstore(at: database, "get", "3").standardOutput == "middle\n")
        _ = try gridstore(at: database, "toggle", "3")
        #expect(try gridstore(at: database, "get", "3").standardOutput == "big\n")
        _ = try gridstore(at: database, "toggle", "3")
        #expect(try gridstore(at: database, "get", "3").standardOutput == "small\n")
    }

    @Test("init makes the grid it is told to, and refuses to replace one without --force", arguments: Backend.all)
    func initialize(backend: Backend) throws {
        let database = try backend.database(in: directory)
        let result = try gridstore(at: database, "init", "--type", "less", "--items", "5")
        #expect(result.status == 0)
        #expect(result.standardOutput == """
            default · less (4 columns) · vertical · revision 0 · 5 items
            ┌───────────┬───────────┬───────────┬───────────┐
            │     0     │     1     │     2     │     3     │
            │           │           │           │           │
            ├───────────┼───────────┴───────────┴───────────┘
            │     4     │
            │           │
            └───────────┘

            """)
        let again = try gridstore(at: database, "init")
        #expect(again.status == 64)
        #expect(again.standardError.hasPrefix("Error: a grid named 'default' exists already; use --force to replace it\n"))
        let forced = try gridstore(at: database, "--grid", "default", "init", "--columns", "8", "--sections", "2", "--items", "3",
                                   "--direction", "horizontal", "--default-size", "middle", "--force")
        #expect(forced.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(try gridstore(at: database, "show", "--format", "json").standardOutput.utf8)) as! [String: Any]
        #expect(json["type"] as? String == "custom")
        #expect(json["columns"] as? Int == 8)
        #expect(json["direction"] as? String == "horizontal")
        #expect((json["sections"] as? [[String: Any]])?.count == 2)
        #expect(try gridstore(at: database, "init", "--type", "less", "--columns", "6").status == 64)
    }

    @Test("set, insert, delete, move and swap change what get and export report", arguments: Backend.all)
    func itemEdits(backend: Backend) throws {
        let database = try backend.database(in: directory)
        #expect(try gridstore(at: database, "set", "0", "big").status == 0)
        #expect(try gridstore(at: database, "insert", "0", "--size", "middle").status == 0)
        #expect(try sizes(database) == ["middle", "big"] + Array(repeating: "small", count: 11))
        #expect(try gridstore(at: database, "delete", "0").status == 0)
        #expect(try gridstore(at: database, "move", "0", "11").status == 0)
        #expect(try sizes(database).last == "big")
        #expect(try gridstore(at: database, "swap", "11", "0").status == 0)
        #expect(try sizes(database).first == "big")
        #expect(try gridstore(at: database, "items", "3").status == 0)
        #expect(try sizes(database) == ["big", "small", "small"])
        #expect(try gridstore(at: database, "reset").status == 0)
        #expect(try sizes(database) == ["small", "small", "small"])
    }

    @Test("type, columns and direction change the settings", arguments: Backend.all)
    func settings(backend: Backend) throws {
        let database = try backend.database(in: directory)
        #expect(try gridstore(at: database, "init").status == 0)
        #expect(try gridstore(at: database, "type").standardOutput == "more\n")
        #expect(try gridstore(at: database, "type", "toggle").standardOutput.hasPrefix("default · less (4 columns) · vertical · revision 1"))
        #expect(try gridstore(at: database, "type", "more").status == 0)
        #expect(try gridstore(at: database, "columns", "9").standardOutput.hasPrefix("default · custom (9 columns)"))
        #expect(try gridstore(at: database, "type").standardOutput == "custom (9 columns)\n")
        let toggle = try gridstore(at: database, "type", "toggle")
        #expect(toggle.status == 64)
        #expect(toggle.standardError.hasPrefix("Error: the grid has 9 custom columns, not a less (4) or more (6) type;"))
        #expect(try gridstore(at: database, "direction", "horizontal").standardOutput.hasPrefix("default · custom (9 columns) · horizontal"))
    }

    @Test("sections are listed, added and removed", arguments: Backend.all)
    func sections(backend: Backend) throws {
        let database = try backend.database(in: directory)
        #expect(try gridstore(at: database, "init").status == 0)
        #expect(try gridstore(at: database, "sections").standardOutput == "section 0: 12 items, 2 rows\n")
        #expect(try gridstore(at: database, "sections", "add", "--items", "7").status == 0)
        #expect(try gridstore(at: database, "sections", "list").standardOutput == "section 0: 12 items, 2 rows\nsection 1: 7 items, 2 rows\n")
        #expect(try gridstore(at: database, "toggle", "6", "--section", "1").status == 0)
        #expect(try gridstore(at: database, "get", "6", "--section", "1").standardOutput == "middle\n")
        #expect(try gridstore(at: database, "sections", "remove", "0").status == 0)
        #expect(try gridstore(at: database, "sections").standardOutput == "section 0: 7 items, 3 rows\n")
        #expect(try gridstore(at: database, "sections", "remove").status == 64)
        #expect(try gridstore(at: database, "sections", "remove", "3").status == 64)
    }

    @Test("grids lists every grid; drop deletes one", arguments: Backend.all)
    func gridsAndDrop(backend: Backend) throws {
        let database = try backend.database(in: directory)
        #expect(try gridstore(at: database, "migrate").status == 0)
        #expect(try gridstore(at: database, "grids").standardOutput == "no grids yet; 'gridstore init' creates one\n")
        _ = try gridstore(at: database, "--grid", "phone", "init", "--type", "less")
        _ = try gridstore(at: database, "toggle", "0")
        let list = try gridstore(at: database, "grids").standardOutput.split(separator: "\n")
        #expect(list.count == 3)
        // Piped, the table is whole (on a terminal it fits the width: see GridsWidthTests).
        #expect(list[0].hasPrefix("NAME     TYPE  COLUMNS  DIRECTION  SECTIONS  ITEMS  REVISION  UPDATED"))
        #expect(list[1].hasPrefix("default  more        6  vertical          1     12         1  20"))
        #expect(list[2].hasPrefix("phone    less        4  vertical          1     12         0  20"))
        #expect(try gridstore(at: database, "drop", "phone").standardOutput == "dropped grid 'phone'\n")
        let again = try gridstore(at: database, "drop", "phone")
        #expect(again.status == 1)
        #expect(again.standardError == "Error: no grid named 'phone'; 'gridstore grids' lists the grids\n")
        #expect(try gridstore(at: database, "grids").standardOutput.split(separator: "\n").count == 2)
    }

    @Test("--db and --grid are accepted before or after the command; GRIDSTORE_DB is the default", arguments: Backend.all)
    func globalOptions(backend: Backend) throws {
        let database = try backend.database(in: directory)
        _ = try CommandRunner.run(["toggle", "1", "--db", database, "--grid", "after"])
        _ = try CommandRunner.run(["--grid", "before", "--db", database, "toggle", "2"])
        let fromEnvironment = try CommandRunner.run(["grids"], environment: ["GRIDSTORE_DB": database])
        #expect(fromEnvironment.standardOutput.contains("after "))
        #expect(fromEnvironment.standardOutput.contains("before "))
        let home = directory.file("home")
        _ = try CommandRunner.run(["toggle", "0"], environment: ["HOME": home, "XDG_DATA_HOME": ""])
        #expect(FileManager.default.fileExists(atPath: home + "/.local/share/gridstore/gridstore.sqlite"))
    }

    @Test("a large grid's change is drawn around the changed tile; show draws it all", arguments: Backend.all)
    func largeGrid(backend: Backend) throws {
        let database = try backend.database(in: directory)
        _ = try gridstore(at: database, "init", "--items", "600")
        let toggled = try gridstore(at: database, "toggle", "300").standardOutput
        let lines = toggled.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[1].hasPrefix("⋮ rows 0 to "))
        #expect(toggled.contains("│    300    │") || toggled.contains(" 300 "))
        #expect(lines.dropLast().last?.hasSuffix("not shown; 'gridstore show --rows A..B' draws others") == true)
        #expect(lines.count < 70)
        let shown = try gridstore(at: database, "show").standardOutput
        #expect(!shown.contains("not shown"))
        #expect(shown.split(separator: "\n").count > 250)
    }

    @Test("--version and help")
    func versionAndHelp() throws {
        #expect(try CommandRunner.run(["--version"]).standardOutput == "gridstore 0.1.0\n")
        let help = try CommandRunner.run(["--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.hasPrefix("OVERVIEW: Keep a tile grid's state in SQLite and pack its tiles after every\nchange.\n"))
        for command in ["init", "toggle", "set", "get", "show", "type", "columns", "direction", "items", "insert", "delete",
                        "move", "swap", "sections", "reset", "grids", "drop", "export", "import", "import-defaults", "copy", "check", "migrate"] {
            let result = try CommandRunner.run(["help", command])
            #expect(result.status == 0, "\(command)")
            #expect(result.standardOutput.contains("USAGE: gridstore \(command)"), "\(command)")
            #expect(try CommandRunner.run([command, "--help"]) == result, "\(command)")
            #expect(help.standardOutput.contains("\n  \(command) "), "\(command)")
        }
    }

    /// Every item's size in section 0, from export.
    private func sizes(_ database: String) throws -> [String] {
        let document = try JSONSerialization.jsonObject(with: Data(try gridstore(at: database, "export").standardOutput.utf8)) as! [String: Any]
        let items = (document["sections"] as! [[String: Any]])[0]["items"] as! [[String: Any]]
        return items.map { $0["size"] as! String }
    }
}
