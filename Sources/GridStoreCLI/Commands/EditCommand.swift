import GridLayout
import GridStore

/// `gridstore edit`: the full-screen editor.
struct EditCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "edit",
        abstract: "Edit the grid in the terminal: move the focus, toggle, move, swap, insert and delete tiles.",
        discussion: """
            Every key that changes the grid commits one change at once, which other processes see; their changes show
            here within a quarter of a second. Keys: arrows or h j k l move the focus to the nearest tile in that
            direction; space or enter toggles its size; m picks it up (arrows move it through the order, enter drops it,
            escape puts it back); s then another tile and enter swaps their sizes; i inserts a tile after the focus, x
            deletes it; t switches less and more; u and U undo and redo; tab goes to the next section; ? shows the
            keys; q quits. A click toggles a tile and a drag moves it, where the terminal reports the mouse.
            NO_COLOR turns the size colors off; the focus is always shown in inverse video and brackets. Needs a
            terminal on standard input and output.
            """,
        options: [])

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {}

    func run(in context: CommandContext) throws {
        guard RawTerminal.isInteractive else {
            throw CommandLineError.unusable("edit needs a terminal on standard input and output; in scripts use toggle, "
                                            + "move, swap, insert and delete")
        }
        let model = try EditorModel(grid: context.existingGrid())
        let status = try EditorLoop(model: model, useColor: context.console.environment["NO_COLOR"].map { $0.isEmpty } ?? true).run()
        // Changes that waited for the database and could not be saved before the end are said.
        if model.unsavedChangeCount > 0 {
            throw CommandLineError.failure("\(model.unsavedChangeCount) change(s) made in the editor were not saved: "
                                           + "the database could not be reached (\(model.outage ?? "no answer"))")
        }
        if status != 0 { throw CommandLineError.interrupted(status: status) }
    }
}

/// Runs an ``EditorModel`` on the terminal until `q` or a signal, and always restores the terminal.
struct EditorLoop {
    let model: EditorModel
    let useColor: Bool

    /// - Returns: 0 after `q`; 128 plus the signal's number after SIGINT, SIGTERM or SIGHUP.
    func run() throws -> Int32 {
        let terminal: RawTerminal
        do {
            terminal = try RawTerminal()
        } catch {
            throw CommandLineError.failure("cannot switch the terminal to raw mode: \(error)")
        }
        defer { terminal.restore() }
        var size = terminal.size
        func draw() {
            var bytes = model.render(columns: size.columns, lines: size.lines).encoded(useColor: useColor)
            terminal.write(bytes: &bytes)
        }
        terminal.write("\u{1B}[2J")
        draw()
        var lastCheck = ContinuousClock.now
        while true {
            if let signal = terminal.stopSignal {
                // One last try to save what waits.
                _ = try? model.commitPending()
                return 128 + signal
            }
            // Ctrl-Z: the shell gets the terminal back until fg; a continue from elsewhere sets it up again.
            var suspended = false
            if terminal.takeSuspend() {
                terminal.suspend()
                suspended = true
            }
            if terminal.takeContinue() {
                if !suspended { terminal.reenter() }
                suspended = true
            }
            if suspended || terminal.takeResize() {
                size = terminal.size
                terminal.write("\u{1B}[2J")
                draw()
            }
            let bytes = terminal.read(waitingAtMost: 100)
            var changed = false
            for key in EditorKey.decode(bytes) {
                guard model.handle(key) else {
                    try model.commitPending()
                    return 0
                }
                changed = true
            }
            // The change shows first; then it is committed, and drawn again if the store differs.
            if changed {
                draw()
                changed = try model.commitPending()
            }
            // Another process's change shows within a poll interval.
            let now = ContinuousClock.now
            if now - lastCheck >= .milliseconds(100) {
                lastCheck = now
                if try model.refresh() { changed = true }
            }
            if changed { draw() }
        }
    }
}
