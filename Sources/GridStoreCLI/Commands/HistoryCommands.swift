import GridLayout
import GridStore

extension ParsedArguments {
    /// The optional `<count>` of `undo` and `redo`: how many changes, 1 by default.
    func changeCount(for command: CommandSpec) throws(CommandLineError) -> Int {
        guard let text = positional(0) else { return 1 }
        return try ValueParser.integer(text, name: "<count>", in: 1...GridLimits.maximumItems, command: command)
    }
}

extension CommandContext {
    /// The grid named by `--grid`, which must exist (in a database that exists).
    func existingGrid() throws -> Grid {
        try Grid(named: gridName, in: openExistingDatabase(), creatingWith: nil)
    }
}

/// `gridstore undo [N]`.
struct UndoCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "undo",
        abstract: "Take back the last change (or N), as one new revision, and show the grid.",
        discussion: """
            A second undo goes one change further back; 'gridstore redo' re-applies what was undone, until another
            change is made. Changes made by any process are undone alike: the history is the grid's.
            """,
        arguments: [.init(name: "count", help: "How many changes to take back (default: 1).", isOptional: true)],
        options: ChangeOutput.options)

    let count: Int
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        count = try arguments.changeCount(for: Self.spec)
        output = try ChangeOutput(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        let grid = try context.existingGrid()
        do {
            context.printCommitted(try grid.undo(count), output: output)
        } catch {
            // A sync is where undo stops: say so, and what takes the grid further back.
            guard case .nothingToUndo = error, let merge = try grid.syncStoppingUndo() else { throw error }
            let gridstore = "gridstore\(context.databaseOption) --grid \(ShellWord.quoted(grid.name))"
            throw CommandLineError.usage("\(error): the sync at revision \(merge.revision) (\(merge.operation)) stops undo, which "
                                         + "never takes back a sync nor a change made before the grid first synced; '\(gridstore) revert "
                                         + "--to N' makes the grid as it was at revision N again, as a new change that syncs "
                                         + "('\(gridstore) history' lists the revisions)",
                                         command: Self.spec)
        }
    }
}

/// `gridstore redo [N]`.
struct RedoCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "redo",
        abstract: "Re-apply the last change undone (or N), as one new revision, and show the grid.",
        discussion: "What can be redone is what was undone since the last change; a new change ends it.",
        arguments: [.init(name: "count", help: "How many changes to re-apply (default: 1).", isOptional: true)],
        options: ChangeOutput.options)

    let count: Int
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        count = try arguments.changeCount(for: Self.spec)
        output = try ChangeOutput(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        context.printCommitted(try context.existingGrid().redo(count), output: output)
    }
}

/// `gridstore revert --to REV`.
struct RevertCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "revert",
        abstract: "Make the state the grid had at a revision current, as one new revision, and show the grid.",
        discussion: "The revert is a change like any other: 'gridstore undo' takes it back.",
        options: [to] + ChangeOutput.options)

    /// `--to REV`.
    static let to = CommandSpec.Option(name: "to", valueName: "REV", help: "The revision whose state to restore.")

    let revision: Int
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        guard let text = arguments.value(Self.to) else {
            throw .usage("missing --to REV: the revision whose state to restore ('gridstore history' lists them)", command: Self.spec)
        }
        revision = try ValueParser.integer(text, name: "--to", in: 0...Int.max - 1, command: Self.spec)
        output = try ChangeOutput(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        context.printCommitted(try context.existingGrid().revert(to: revision), output: output)
    }
}

/// `gridstore history [--limit N] [--format text|json]` or `gridstore history --keep N`.
struct HistoryCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "history",
        abstract: "List the grid's changes, newest first, or set how many it keeps.",
        discussion: """
            Each change is recorded with its revision, time (UTC), the operation as given, and who made it. A grid keeps
            its newest 1000 changes unless --keep says otherwise (0 keeps none); older ones are deleted by the change
            that makes them too old, and cannot be undone or shown with 'show --at'. With --format json:
            {"grid":"default","keep":1000,"entries":[{"revision":7,"madeAt":"…","kind":"change","operation":"toggle 3",
            "actor":"ada (pid 4121)","targets":[]}]}, where kind is change, undo, redo or revert, and targets are the
            revisions an undo or redo acted on.
            """,
        options: [limit, keep, ValueFormat.option, QuietOption.option])

    /// `--limit N`.
    static let limit = CommandSpec.Option(name: "limit", valueName: "N", help: "List at most N changes (default: 20).")
    /// `--keep N`.
    static let keep = CommandSpec.Option(name: "keep", valueName: "N",
                                         help: "Keep the newest N changes from now on (0 to 1000000), deleting older ones.")

    enum Action: Equatable { case list(limit: Int, format: ValueFormat), keep(Int, quiet: Bool) }
    let action: Action

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let format = try ValueFormat(arguments, command: Self.spec)
        let quiet = arguments.flag(QuietOption.option)
        if let text = arguments.value(Self.keep) {
            if arguments.value(Self.limit) != nil || arguments.value(ValueFormat.option) != nil {
                throw .usage("--keep sets how many changes are kept; give --limit and --format without it", command: Self.spec)
            }
            action = .keep(try ValueParser.integer(text, name: "--keep", in: 0...1_000_000, command: Self.spec), quiet: quiet)
        } else {
            if quiet { throw .usage("--quiet goes with --keep", command: Self.spec) }
            action = .list(limit: try arguments.integer(Self.limit, in: 1...1_000_000, default: 20, for: Self.spec), format: format)
        }
    }

    func run(in context: CommandContext) throws {
        let grid = try context.existingGrid()
        switch action {
        case .keep(let keep, let quiet):
            try grid.setHistoryRetention(keep)
            context.noteCommitted("grid '\(grid.name)' keeps its newest \(keep) change(s)")
            if !quiet {
                context.console.write("grid '\(CommandLineOutput.printable(grid.name))' keeps its newest \(keep) change(s)\n")
            }
        case .list(let limit, let format):
            let entries = try grid.history(limit: limit)
            let keep = try grid.historyRetention()
            context.console.write(format == .json ? Self.json(entries, grid: grid.name, keep: keep)
                                  : Self.text(entries, grid: grid.name, keep: keep, width: context.terminalWidth))
        }
    }

    /// One line per entry: revision, time, operation (with what an undo or redo acted on) and who.
    static func text(_ entries: [GridHistoryEntry], grid: String, keep: Int, width: Int) -> String {
        guard !entries.isEmpty else {
            return keep == 0 ? "grid '\(CommandLineOutput.printable(grid))' keeps no history ('gridstore history --keep N')\n"
                : "no changes recorded for grid '\(CommandLineOutput.printable(grid))'\n"
        }
        let revisionWidth = max(8, String(entries[0].revision).count)
        var text = String(repeating: " ", count: revisionWidth - 8) + "revision  made at (UTC)            operation\n"
        for entry in entries {
            var operation = CommandLineOutput.printable(entry.operation)
            if !entry.targets.isEmpty {
                let verb = entry.kind == .undo ? "took back" : "re-applied"
                operation += " (\(verb) \(entry.targets.map(String.init).joined(separator: ", ")))"
            }
            let time = entry.madeAt.replacing("T", with: " ").replacing("Z", with: "")
            let line = String(repeating: " ", count: revisionWidth - String(entry.revision).count) + "\(entry.revision)  "
                + time + String(repeating: " ", count: max(0, 23 - time.count)) + "  " + operation
                + "  · " + CommandLineOutput.printable(entry.actor)
            text += DisplayWidth.truncated(line, fitting: max(2, width)) + "\n"
        }
        return text
    }

    /// `{"grid":…,"keep":…,"entries":[…]}`.
    static func json(_ entries: [GridHistoryEntry], grid: String, keep: Int) -> String {
        JSONOutput.text(History(grid: grid, keep: keep, entries: entries.map { entry in
            History.Entry(revision: entry.revision, madeAt: entry.madeAt, kind: entry.kind.rawValue, operation: entry.operation,
                          actor: entry.actor, targets: entry.targets)
        }), layout: .listsOnLines)
    }

    /// What `history --format json` prints.
    private struct History: Encodable {
        struct Entry: Encodable {
            let revision: Int
            let madeAt: String
            let kind: String
            let operation: String
            let actor: String
            let targets: [Int]
        }
        let grid: String
        let keep: Int
        let entries: [Entry]
    }
}
