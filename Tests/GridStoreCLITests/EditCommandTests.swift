import Foundation
import GridLayout
import GridStore
import GridStoreSQLite
import GridStoreAudit
import GridStoreCLI
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `gridstore edit`, driven through a pseudo-terminal as a person would drive it.
@Suite("gridstore edit")
struct EditCommandTests {
    let directory = TemporaryDirectory()
    var database: String { directory.file("edit.sqlite") }

    func start(_ grid: String = "default", environment: [String: String] = [:]) throws -> PseudoTerminal {
        let terminal = try PseudoTerminal(["--db", database, "--grid", grid, "edit"], environment: environment)
        #expect(terminal.waitFor { $0.contains("revision") }, "the editor did not draw: \(terminal.text)")
        return terminal
    }

    func stored(_ grid: String = "default") throws -> GridSnapshot {
        try Grid(named: grid, in: GridDatabase(path: database), creatingWith: nil).snapshot()
    }

    @Test("space toggles the focused tile, arrows and h j k l move the focus, every key is a committed change; q restores the terminal")
    func toggleAndQuit() throws {
        _ = try CommandRunner.run(["--db", database, "init", "--type", "less", "--items", "8", "-q"])
        let terminal = try start()
        terminal.send(" ")
        #expect(terminal.waitFor { $0.contains("revision 1") })
        #expect(try stored().size(at: GridIndexPath(item: 0)) == .middle)
        terminal.send("\u{1B}[C")   // right: the nearest tile to the right
        terminal.send("l ")
        #expect(terminal.waitFor { $0.contains("revision 2") })
        #expect(try stored().explicitSizesByPath.count == 2)
        terminal.send("q")
        #expect(terminal.exitStatus() == 0)
        #expect(terminal.text.contains("\u{1B}[?1049h") && terminal.text.hasSuffix("\u{1B}[?25h\u{1B}[?1049l"))
        let history = try Grid(named: "default", in: GridDatabase(path: database)).history()
        #expect(history.first?.operation.hasSuffix("(edit)") == true)
    }

    @Test("m picks a tile up, the arrows carry it, enter drops it as one move; escape puts it back")
    func moveAndCancel() throws {
        _ = try CommandRunner.run(["--db", database, "init", "--items", "6", "-q"])
        _ = try CommandRunner.run(["--db", database, "set", "0", "big", "-q"])
        let terminal = try start()
        terminal.send("m\u{1B}[C\u{1B}[C")
        #expect(terminal.waitFor { $0.contains("carrying a tile") })
        terminal.send("\u{1B}")
        #expect(terminal.waitFor { $0.contains("put back") })
        #expect(try stored().revision == 1)
        terminal.send("m\u{1B}[C\u{1B}[C\r")
        #expect(terminal.waitFor { $0.contains("revision 2") })
        #expect(try stored().size(at: GridIndexPath(item: 2)) == .big)
        #expect(try Grid(named: "default", in: GridDatabase(path: database)).history(limit: 1).first?.operation == "move 0 2 (edit)")
        terminal.send("u")
        #expect(terminal.waitFor { $0.contains("undid revision 2, 'move 0 2 (edit)'; now revision 3") })
        #expect(try stored().size(at: GridIndexPath(item: 0)) == .big)
        terminal.send("q")
        #expect(terminal.exitStatus() == 0)
    }

    @Test("another process's change shows, and the focus stays on the item it changed")
    func outsideChanges() throws {
        _ = try CommandRunner.run(["--db", database, "init", "--items", "12", "-q"])
        let terminal = try start()
        terminal.send("lll")
        #expect(terminal.waitFor { $0.contains("item 3: small") })
        let started = Date()
        #expect(try CommandRunner.run(["--db", database, "set", "3", "big", "-q"]).status == 0)
        #expect(terminal.waitFor { $0.contains("revision 1 · item 3: big") })
        print("edit: another process's change showed after \(Int(Date().timeIntervalSince(started) * 1000)) ms (including that process)")
        terminal.send("q")
        #expect(terminal.exitStatus() == 0)
    }

    @Test("a click toggles a tile and i, x insert and delete; NO_COLOR keeps inverse video and drops colors")
    func mouseInsertDelete() throws {
        _ = try CommandRunner.run(["--db", database, "init", "--items", "6", "-q"])
        let terminal = try start(environment: ["NO_COLOR": "1"])
        // Tile 1 of 6 columns on 80: cells 11 wide, 3 lines; its middle is at column 17, line 3.
        terminal.send("\u{1B}[<0;17;3M\u{1B}[<0;17;3m")
        #expect(terminal.waitFor { $0.contains("revision 1") })
        #expect(try stored().size(at: GridIndexPath(item: 1)) == .middle)
        terminal.send("i")
        #expect(terminal.waitFor { $0.contains("revision 2") })
        #expect(try stored().itemCounts == [7])
        terminal.send("x")
        #expect(terminal.waitFor { $0.contains("revision 3") })
        #expect(try stored().itemCounts == [6])
        terminal.send("q")
        #expect(terminal.exitStatus() == 0)
        #expect(terminal.text.contains("\u{1B}[0;7m"))
        #expect(!terminal.text.contains("\u{1B}[0;34m") && !terminal.text.contains("\u{1B}[0;32m"))
    }

    @Test("a drag carries a tile through the order and the release drops it as one move")
    func drag() throws {
        _ = try CommandRunner.run(["--db", database, "init", "--items", "6", "-q"])
        _ = try CommandRunner.run(["--db", database, "set", "0", "big", "-q"])
        let terminal = try start()
        // Tile 0 (big, 4 cells across) covers columns 2 to 44 of lines 2 to 7; tile 1 is beside it, at column 50.
        terminal.send("\u{1B}[<0;10;3M\u{1B}[<32;50;3M")
        #expect(terminal.waitFor { $0.contains("carrying a tile") })
        terminal.send("\u{1B}[<0;50;3m")
        #expect(terminal.waitFor { $0.contains("revision 2") })
        #expect(try Grid(named: "default", in: GridDatabase(path: database)).history(limit: 1).first?.operation.hasPrefix("move 0 ") == true)
        terminal.send("q")
        #expect(terminal.exitStatus() == 0)
    }

    @Test("SIGTERM and SIGHUP end the editor with the terminal restored", arguments: [SIGTERM, SIGHUP])
    func signals(signal: Int32) throws {
        _ = try CommandRunner.run(["--db", database, "init", "-q"])
        let terminal = try start()
        kill(terminal.process.pid, signal)
        #expect(terminal.exitStatus() == 128 + signal)
        #expect(terminal.text.hasSuffix("\u{1B}[?25h\u{1B}[?1049l"))
    }

    @Test("a honeycomb is edited with the same keys; sizes are refused with a message, items inserted")
    func honeycomb() throws {
        _ = try CommandRunner.run(["--db", database, "--grid", "hive", "init", "--layout", "honeycomb", "--items", "7", "-q"])
        let terminal = try start("hive")
        terminal.send("l")
        #expect(terminal.waitFor { $0.contains("item 1") })
        terminal.send(" ")
        #expect(terminal.waitFor { $0.contains("is a honeycomb") })
        terminal.send("i")
        #expect(terminal.waitFor { $0.contains("revision 1") })
        #expect(try stored("hive").itemCounts == [8])
        terminal.send("q")
        #expect(terminal.exitStatus() == 0)
    }

    @Test("the bottom hints and the ? overlay fit every width in whole words")
    func hintsFit() throws {
        _ = try CommandRunner.run(["--db", database, "init", "--items", "6", "-q"])
        let model = try EditorModel(grid: Grid(named: "default", in: GridDatabase(path: database), creatingWith: nil))
        let words = Set(EditorModel.help.joined(separator: " ").split(separator: " ").map(String.init))
        // The whole hint, as a wide terminal shows it: every word a narrower one shows is one of these.
        let hintWords = Set(model.render(columns: 400, lines: 24).plainLines.last!.split(separator: " ").map(String.init))
        for width in 20...200 {
            let bar = model.render(columns: width, lines: 24).plainLines.last!.trimmingCharacters(in: .whitespaces)
            let parts = bar.components(separatedBy: " · ")
            #expect(parts.last == "? help" || parts.last == "q quit", "at \(width): \(bar)")
            for word in bar.split(separator: " ") where word != "·" {
                #expect(hintWords.contains(String(word)), "at \(width): '\(word)' is cut in \(bar)")
            }
        }
        _ = model.handle(.character("?"))
        for width in [40, 80, 120] {
            let lines = model.render(columns: width, lines: 40).plainLines.dropFirst().dropLast()
            for word in lines.joined(separator: " ").split(separator: " ") {
                #expect(words.contains(String(word)), "at \(width): '\(word)' is cut")
            }
        }
    }

    /// The process's state letter in `/proc/<pid>/stat`: `T` while it is stopped.
    func state(of process: ChildProcess) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(close, offsetBy: 2)]
    }

    @Test("Ctrl-Z gives the shell its terminal back and stops; fg takes it again in raw mode and redraws")
    func jobControl() throws {
        _ = try CommandRunner.run(["--db", database, "init", "--items", "6", "-q"])
        let terminal = try start()
        terminal.clear()
        kill(terminal.process.pid, SIGTSTP)
        #expect(terminal.waitFor { $0.contains("\u{1B}[?25h\u{1B}[?1049l") }, "the terminal was not given back: \(terminal.text)")
        #expect(terminal.waitFor(seconds: 2) { _ in self.state(of: terminal.process) == "T" })
        terminal.clear()
        kill(terminal.process.pid, SIGCONT)
        #expect(terminal.waitFor { $0.contains("\u{1B}[?1049h") && $0.contains("revision 0") }, "no redraw: \(terminal.text)")
        // Raw again: a key acts at once, without Enter, and is not echoed.
        terminal.send(" ")
        #expect(terminal.waitFor { $0.contains("revision 1") })
        // Stopped from elsewhere (SIGSTOP cannot be caught) and continued: set up again and redrawn.
        kill(terminal.process.pid, SIGSTOP)
        #expect(terminal.waitFor(seconds: 2) { _ in self.state(of: terminal.process) == "T" })
        terminal.clear()
        kill(terminal.process.pid, SIGCONT)
        #expect(terminal.waitFor { $0.contains("\u{1B}[?1049h") && $0.contains("revision 1") })
        terminal.send("q")
        #expect(terminal.exitStatus() == 0)
    }

    @Test("without a terminal, edit refuses in one line with exit 64 and changes nothing")
    func noTerminal() throws {
        _ = try CommandRunner.run(["--db", database, "init", "-q"])
        let result = try CommandRunner.run(["--db", database, "edit"])
        #expect(result.status == 64)
        #expect(result.standardError == "Error: edit needs a terminal on standard input and output; in scripts use toggle, move, swap, insert and delete\n")
    }
}

/// The README's picture of the editor is what the editor draws.
@Suite("gridstore edit in docs/cli.md")
struct EditorREADMETests {
    @Test("docs/cli.md's capture of the editor is what it draws for the same keys")
    func readmeCapture() throws {
        let directory = TemporaryDirectory()
        let database = try GridDatabase(path: directory.file("readme.sqlite"))
        let grid = try Grid(named: "default", in: database, creatingWith: GridOptions(type: .more, sectionItemCounts: [15]))
        try grid.toggle(at: GridIndexPath(item: 4))
        try grid.toggle(at: GridIndexPath(item: 4))
        let model = try EditorModel(grid: grid)
        for key in EditorKey.decode(Array("ll ".utf8)) { _ = model.handle(key) }
        try model.commitPending()
        let drawn = model.render(columns: 80, lines: 14).plainLines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
        let readme = try String(contentsOf: repositoryRootURL.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let marker = "```text\n default · more (6 columns) · revision"
        let start = try #require(readme.range(of: marker))
        let lines = String(readme[readme.index(start.lowerBound, offsetBy: 8)...])
            .components(separatedBy: "\n```")[0].components(separatedBy: "\n")
        #expect(drawn == lines)
    }
}
