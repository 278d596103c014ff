import GridLayout
import GridStore

/// `gridstore grids`.
struct GridsCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "grids",
        abstract: "List the grids in the database.",
        discussion: """
            With --format json: {"grids":[{"name":"default","layout":"tiles","type":"more","columns":6,
            "direction":"vertical","sections":1,"items":12,"revision":0,"updated":"2026-11-30T08:11:23.531Z"}]};
            a honeycomb's type, columns and direction are null. On a terminal, text fits its width: the update
            time, then the direction, sections, columns, revision, items and type are left out as it narrows,
            and names are cut last; piped, the table is whole.
            """,
        options: [ValueFormat.option, names],
        usesGrid: false)

    /// `--names`: one name a line, for scripts and shell completion.
    static let names = CommandSpec.Option(name: "names", help: "Print only the grids' names, one a line.")

    let format: ValueFormat
    let namesOnly: Bool

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        format = try ValueFormat(arguments, command: Self.spec)
        namesOnly = arguments.flag(Self.names)
        if namesOnly && arguments.value(ValueFormat.option) != nil {
            throw .usage("give --names or --format, not both", command: Self.spec)
        }
    }

    func run(in context: CommandContext) throws {
        let summaries = try Grid.list(in: context.openExistingDatabase())
        if namesOnly {
            for summary in summaries { context.console.write(CommandLineOutput.printable(summary.name) + "\n") }
            return
        }
        if format == .json {
            let grids = summaries.map { summary in
                let tiles = summary.kind == .tiles
                return GridList.Grid(name: summary.name, layout: summary.kind.rawValue,
                                     type: tiles ? summary.type?.rawValue ?? "custom" : nil, columns: tiles ? summary.columns : nil,
                                     direction: tiles ? summary.direction.rawValue : nil, sections: summary.sectionCount,
                                     items: summary.itemCount, revision: summary.revision, updated: summary.updatedAt)
            }
            context.console.write(JSONOutput.text(GridList(grids: grids), layout: .listsOnLines))
            return
        }
        guard !summaries.isEmpty else {
            context.console.write("no grids yet; 'gridstore init' creates one\n")
            return
        }
        let rows = [["NAME", "TYPE", "COLUMNS", "DIRECTION", "SECTIONS", "ITEMS", "REVISION", "UPDATED"]]
            + summaries.map { summary in
                let tiles = summary.kind == .tiles
                return [CommandLineOutput.printable(summary.name), tiles ? summary.type?.rawValue ?? "custom" : "honeycomb",
                        tiles ? String(summary.columns) : "-", tiles ? summary.direction.rawValue : "-",
                        String(summary.sectionCount), String(summary.itemCount),
                        String(summary.revision), CommandLineOutput.printable(summary.updatedAt)]
            }
        // On a terminal (or with $COLUMNS), narrower than the table: the time goes first, then the
        // direction, sections, columns, revision, items and type; names are cut last. A pipe gets it whole.
        let fits = context.console.environment["COLUMNS"] != nil || Platform.isTerminal(.standardOutput)
        context.console.write(CommandLineOutput.table(rows, rightAligned: [2, 4, 5, 6], width: fits ? context.terminalWidth : nil,
                                                      dropping: [7, 3, 4, 2, 6, 5, 1]))
    }
}

/// `gridstore drop <name>`, or `gridstore --grid <name> drop`.
struct DropCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "drop",
        abstract: "Delete a grid with its sections, sizes and placements.",
        discussion: """
            The grid is named as the argument or with --grid, as every other command names it (both: the same name).
            A grid that took part in sync is dropped on its peers too: a sync drops it on each peer whose grid holds no
            change this one did not know, and brings it back only from a peer that changed it since (docs/sync.md).
            --keep-on-peers drops it here alone: the next sync brings it back from a peer that has it.
            """,
        arguments: [.init(name: "name", help: "The grid's name (or --grid).", isOptional: true)],
        options: [keepOnPeers, QuietOption.option])

    /// `--keep-on-peers`.
    static let keepOnPeers = CommandSpec.Option(name: "keep-on-peers",
                                                help: "Drop the grid here alone; the next sync brings it back from a peer.")

    let name: String
    let quiet: Bool

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let given = arguments.positionals.first, global = arguments.global.gridName
        switch (given, global) {
        case (let name?, nil), (nil, let name?): self.name = name
        case (let name?, let other?) where name == other: self.name = name
        case (let name?, let other?):
            throw .usage("drop names two grids, '\(CommandLineOutput.printable(name))' and --grid "
                         + "'\(CommandLineOutput.printable(other))'; give one", command: Self.spec)
        case (nil, nil): throw .usage("missing <name> (or --grid): the grid to delete", command: Self.spec)
        }
        quiet = arguments.flag(QuietOption.option)
        keepingOnPeers = arguments.flag(Self.keepOnPeers)
    }

    let keepingOnPeers: Bool

    func run(in context: CommandContext) throws {
        let database = try context.openExistingDatabase()
        // A server's database without gridstore's tables has no grid to drop, and keeps no tables.
        if try !Grid.exists(named: name, in: database) { throw GridError.gridNotFound(GridLimits.canonical(name)) }
        let synced = try Grid.drop(named: name, in: database, keepingOnPeers: keepingOnPeers)
        context.noteCommitted("grid '\(name)' is dropped")
        guard !quiet else { return }
        let peers = !synced ? "" : keepingOnPeers ? " here alone; the next sync brings it back from a peer that has it"
            : "; the next sync drops it on its peers too"
        context.console.write("dropped grid '\(CommandLineOutput.printable(name))'\(peers)\n")
    }
}

/// What `grids --format json` prints; a honeycomb's `"type"`, `"columns"` and `"direction"` are `null`.
private struct GridList: Encodable {
    struct Grid: Encodable {
        let name: String
        let layout: String
        let type: String?
        let columns: Int?
        let direction: String?
        let sections: Int
        let items: Int
        let revision: Int
        let updated: String
    }
    let grids: [Grid]
}
