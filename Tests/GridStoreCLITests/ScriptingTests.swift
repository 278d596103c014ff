import Foundation
import GridStore
import GridStoreSQLite
import GridStoreAudit
import Testing

/// What scripts rely on: `--format json` everywhere a grid or values are printed, `--quiet`,
/// pixel frames, options that do not apply refused, and text that fits the terminal.
@Suite("gridstore for scripts and terminals")
struct ScriptingTests {
    let directory = TemporaryDirectory()
    var database: String { directory.file("g.sqlite") }

    func gridstore(_ arguments: String..., environment: [String: String] = [:]) throws -> CommandResult {
        try CommandRunner.run(["--db", database] + arguments, environment: environment)
    }

    /// Parses JSON output, failing the test when it is not JSON.
    func json(_ result: CommandResult) throws -> [String: Any] {
        #expect(result.status == 0, "\(result.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    @Test("every changing command prints the grid's JSON document with --format json, and nothing with --quiet")
    func changingCommands() throws {
        #expect(try json(gridstore("init", "--type", "less", "--items", "5", "--format", "json"))["revision"] as? Int == 0)
        let commands: [[String]] = [
            ["toggle", "1"], ["set", "2", "big"], ["insert", "0"], ["delete", "0"], ["move", "0", "3"], ["swap", "0", "1"],
            ["items", "6"], ["type", "more"], ["columns", "8"], ["direction", "horizontal"], ["sections", "add", "--items", "2"],
            ["sections", "remove", "1"], ["reset"],
        ]
        var revision = 0
        for command in commands {
            let document = try json(CommandRunner.run(["--db", database] + command + ["--format", "json"]))
            revision += 1
            #expect(document["revision"] as? Int == revision, "\(command)")
            #expect(document["sections"] is [Any], "\(command)")
            let quiet = try CommandRunner.run(["--db", database] + command + ["-q"])
            #expect(quiet.status == 0, "\(command)")
            #expect(quiet.standardOutput.isEmpty && quiet.standardError.isEmpty, "\(command)")
            revision = try json(gridstore("show", "--format", "json"))["revision"] as! Int
        }
        let both = try gridstore("toggle", "1", "--quiet", "--format", "json")
        #expect(both.status == 64)
        #expect(both.standardError.hasPrefix("Error: give --quiet or --format, not both\n"))
    }

    @Test("read commands print JSON with stable keys")
    func readCommands() throws {
        _ = try gridstore("init", "--type", "less", "--items", "3", "-q")
        _ = try gridstore("toggle", "1", "-q")
        #expect(try gridstore("get", "1", "--format", "json").standardOutput
                == #"{"grid":"default","section":0,"index":1,"size":"middle","explicit":true}"# + "\n")
        #expect(try gridstore("get", "0", "--format", "json").standardOutput
                == #"{"grid":"default","section":0,"index":0,"size":"small","explicit":false}"# + "\n")
        #expect(try gridstore("sections", "--format", "json").standardOutput
                == #"{"grid":"default","sections":[{"section":0,"items":3,"extent":2}]}"# + "\n")
        #expect(try gridstore("type", "--format", "json").standardOutput == #"{"grid":"default","type":"less","columns":4}"# + "\n")
        let grids = try json(gridstore("grids", "--format", "json"))["grids"] as? [[String: Any]]
        #expect(grids?.first?["name"] as? String == "default")
        #expect(grids?.first?["items"] as? Int == 3)
        #expect(grids?.first?["revision"] as? Int == 1)
        let status = try json(gridstore("migrate", "--status", "--format", "json"))
        #expect(status["exists"] as? Bool == true)
        #expect((status["applied"] as? [[String: Any]])?.map { $0["state"] as? String }
                == Array(repeating: "ok", count: MigrationSet.gridStore.migrations.count))
        #expect((status["pending"] as? [Any])?.isEmpty == true)
        #expect(try gridstore("migrate", "--format", "json").status == 64)
        let check = try gridstore("check", "--quiet")
        #expect(check.status == 0 && check.standardOutput.isEmpty)
        #expect(try gridstore("drop", "default", "--quiet").standardOutput.isEmpty)
    }

    @Test("show --format json --width adds pixel frames as GridFrames computes them")
    func frames() throws {
        _ = try gridstore("init", "--type", "less", "--items", "3", "-q")
        _ = try gridstore("toggle", "1", "-q")
        let document = try json(gridstore("show", "--format", "json", "--width", "320", "--spacing", "8", "--insets", "4,0,4,0"))
        #expect((document["metrics"] as? [String: Any])?["cell"] as? Double == 74)
        #expect(document["contentSize"] as? [String: Double] == ["width": 320, "height": 164])
        let items = try #require(((document["sections"] as? [[String: Any]])?.first?["items"]) as? [[String: Any]])
        #expect(items[1]["frame"] as? [String: Double] == ["x": 82, "y": 4, "width": 156, "height": 156])
        #expect(try json(gridstore("show", "--format", "json"))["metrics"] == nil)
    }

    @Test("an option that does not apply to the chosen format is a usage error", arguments: [
        (["show", "--width", "300"], "Error: --width applies to --format json or svg, not text"),
        (["show", "--format", "svg", "--insets", "1,1,1,1"], "Error: --insets applies to --format json, not svg"),
        (["show", "--format", "json", "--rows", "0..3"], "Error: --rows applies to --format text, not json"),
        (["show", "--format", "json", "--spacing", "3"], "Error: --spacing goes with --width, which asks for pixel frames"),
        (["show", "--rows", "5..2"], "Error: --rows 5..2 ends before it starts"),
        (["show", "--rows", "five"], "Error: --rows is A..B or A.. (such as 10..20), not 'five'"),
        (["sections", "--quiet"], "Error: --quiet goes with add or remove"),
        (["type", "-q"], "Error: --quiet goes with a change: give less, more or toggle"),
    ])
    func refusedOptions(arguments: [String], message: String) throws {
        _ = try gridstore("init", "-q")
        let result = try CommandRunner.run(["--db", database] + arguments)
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix(message + "\n"), "\(result.standardError)")
    }

    /// The widest line of `text`, in characters.
    func widest(_ text: String) -> Int {
        text.split(separator: "\n").map(\.count).max() ?? 0
    }

    @Test("text never exceeds the terminal's width: narrower cells, bands, compact drawing, wrapped headers",
          arguments: [40, 60, 80, 120])
    func width(columns: Int) throws {
        let environment = ["COLUMNS": String(columns)]
        _ = try gridstore("--grid", "wide", "init", "--direction", "horizontal", "--items", "300", "-q")
        _ = try gridstore("--grid", "many", "init", "--columns", "64", "--items", "200", "-q")
        _ = try gridstore("--grid", "hive", "init", "--layout", "honeycomb", "--items", "400", "-q")
        _ = try gridstore("--grid", "plain", "init", "-q")
        for grid in ["wide", "many", "hive", "plain"] {
            let shown = try gridstore("--grid", grid, "show", environment: environment)
            #expect(shown.status == 0)
            #expect(widest(shown.standardOutput) <= columns, "\(grid) at \(columns): \(widest(shown.standardOutput))")
            let toggled = try gridstore("--grid", grid, "insert", "0", environment: environment)
            #expect(widest(toggled.standardOutput) <= columns, "\(grid) at \(columns)")
        }
        let compact = try gridstore("--grid", "many", "show", environment: environment).standardOutput
        #expect(compact.contains("one character a cell"))
    }

    @Test("a horizontal grid too long for the terminal is drawn in bands that cut no tile")
    func bands() throws {
        _ = try gridstore("init", "--direction", "horizontal", "--items", "40", "-q")
        _ = try gridstore("set", "7", "big", "-q")
        let lines = try gridstore("show").standardOutput.split(separator: "\n").map(String.init)
        let captions = lines.filter { $0.hasPrefix("columns ") }
        #expect(captions.count >= 2)
        #expect(captions.first == "columns 0 to 5:")
        // Every index appears exactly once across the bands.
        let labels = lines.flatMap { $0.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) } }
        #expect(Set(labels.filter { $0 < 40 }).count == 40)
    }

    @Test("show --rows and --section draw only what they name")
    func rowsAndSections() throws {
        _ = try gridstore("init", "--items", "60", "--sections", "2", "-q")
        let rows = try gridstore("show", "--rows", "2..3", "--section", "1").standardOutput
        #expect(rows.contains("⋮ rows 0 to 1 not shown"))
        #expect(rows.contains("│    12     │"))
        #expect(!rows.contains("│     0     │"))
        #expect(rows.contains("⋮ rows 4 to 9 not shown"))
        #expect(!rows.contains("section 0 ·"))
        #expect(try gridstore("show", "--section", "2").status == 64)
        let tail = try gridstore("show", "--rows", "9..", "--section", "0").standardOutput
        #expect(tail.contains("│    59     │"))
        #expect(!tail.contains("not shown; "))
    }

    @Test("a long drawing goes through $PAGER on a terminal, never when piped")
    func pager() throws {
        _ = try gridstore("init", "--items", "120", "-q")
        let marker = directory.file("paged")
        let pager = "cat > '\(marker)'"
        let piped = try gridstore("show", environment: ["PAGER": pager])
        #expect(piped.standardOutput.contains("│    119    │"))
        #expect(!FileManager.default.fileExists(atPath: marker))
        // On a terminal (`script` gives the command one), 10 lines tall.
        let onTerminal = try CommandRunner.shell("""
            PAGER="cat > '\(marker)'" script -qec "stty rows 10 cols 80; $GRIDSTORE --db '\(database)' show" /dev/null > /dev/null
            """)
        #expect(onTerminal.status == 0, "\(onTerminal.standardError)")
        let paged = (try? String(contentsOfFile: marker, encoding: .utf8)) ?? ""
        #expect(paged.contains("│    119    │"))
        try? FileManager.default.removeItem(atPath: marker)
        _ = try CommandRunner.shell("""
            PAGER="cat > '\(marker)'" script -qec "stty rows 10 cols 80; $GRIDSTORE --db '\(database)' show --no-pager" /dev/null > /dev/null
            """)
        #expect(!FileManager.default.fileExists(atPath: marker))
        // The pager sees the whole environment, not only the variables gridstore reads.
        _ = try CommandRunner.shell("""
            PAGER_SEES=yes PAGER="env > '\(marker)'" script -qec "stty rows 10 cols 80; $GRIDSTORE --db '\(database)' show" /dev/null > /dev/null
            """)
        let environment = (try? String(contentsOfFile: marker, encoding: .utf8)) ?? ""
        #expect(environment.contains("PAGER_SEES=yes"))
        #expect(environment.contains("\nPATH=") || environment.hasPrefix("PATH="))
        #expect(environment.contains("LESS=FRX"))
    }

    @Test("an import that takes over a second shows its progress on a terminal's standard error, and clears it")
    func progress() throws {
        _ = try gridstore("--grid", "big", "init", "--items", "400000", "-q")
        let document = directory.file("big.json")
        #expect(try CommandRunner.shell("$GRIDSTORE --db '\(database)' --grid big export > '\(document)'").status == 0)
        let onTerminal = try CommandRunner.shell("""
            script -qec "stty rows 10 cols 400; $GRIDSTORE --db '\(database)' --grid copy import '\(document)'" /dev/null
            """)
        #expect(onTerminal.standardOutput.contains("importing \(document): "))
        #expect(onTerminal.standardOutput.contains("\r\u{1B}[Kimported 400000 item(s)"))
        let piped = try gridstore("--grid", "copy2", "import", document)
        #expect(piped.standardError.isEmpty)
        // On a narrow terminal the line is cut to its width, so it never wraps and is cleared whole.
        let narrow = try CommandRunner.shell("""
            script -qec "stty rows 10 cols 40; $GRIDSTORE --db '\(database)' --grid copy3 import '\(document)'" /dev/null
            """)
        let lines = narrow.standardOutput.components(separatedBy: "\r\u{1B}[K").filter { $0.hasPrefix("importing ") }
        #expect(!lines.isEmpty && lines.allSatisfy { $0.count <= 37 && $0.hasSuffix("…") }, "\(lines)")
    }

    @Test("labels are colored by size on a terminal, as the SVG colors the tiles, and not with NO_COLOR")
    func colors() throws {
        _ = try gridstore("init", "--items", "3", "-q")
        _ = try gridstore("set", "1", "middle", "-q")
        _ = try gridstore("set", "2", "big", "-q")
        let colored = try CommandRunner.shell("env -u NO_COLOR TERM=xterm script -qec \"$GRIDSTORE --db '\(database)' show\" /dev/null")
        #expect(colored.standardOutput.contains("\u{1B}[1;34m0\u{1B}[0m"))
        #expect(colored.standardOutput.contains("\u{1B}[1;32m1\u{1B}[0m"))
        #expect(colored.standardOutput.contains("\u{1B}[1;33m2\u{1B}[0m"))
        let plain = try CommandRunner.shell("NO_COLOR=1 script -qec \"$GRIDSTORE --db '\(database)' show\" /dev/null")
        #expect(!plain.standardOutput.contains("\u{1B}["))
    }
}
