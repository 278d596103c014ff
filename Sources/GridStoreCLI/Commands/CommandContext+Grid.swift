import GridLayout
import GridStore
import GridStorePostgreSQL

/// Arguments several commands share.
enum SharedArguments {
    static let index = CommandSpec.Argument(name: "index", help: "The item's index in its section, from 0.")
}

/// Options several commands share.
enum SharedOptions {
    static let section = CommandSpec.Option(name: "section", valueName: "S", help: "The section, from 0 (default: 0).")
}

extension CommandContext {
    /// The grid named by `--grid`; a missing one is created as `init` would, at its first
    /// use and in the same transaction, so a refused command leaves no grid behind.
    func openGrid() throws -> Grid {
        try Grid(named: gridName, in: openDatabase(), creatingWith: GridOptions())
    }

    /// The state of the grid named by `--grid`, for a command that only reads: neither the
    /// database file nor the grid is created when missing.
    ///
    /// - Throws: ``GridError/gridNotFound(_:)`` when there is no such grid.
    func existingSnapshot() throws -> GridSnapshot {
        // One read: the grid is looked up and loaded in the same transaction.
        try Grid(named: gridName, in: openExistingDatabase(), creatingWith: GridOptions()).storedSnapshot()
    }

    /// The most rows of a section a command that changes the grid draws; `show` draws all.
    static let changedGridRows = 16

    /// The most items of a honeycomb a command that changes it draws (11 rings); `show` draws all.
    static let changedHoneycombItems = 397

    /// Applies `body` to the grid as one change and prints the re-packed grid as `output` says:
    /// as text, whole when it is small, else the rows around `focus` (the item the command
    /// changed); as its JSON document; or not at all.
    func edit(focus: GridIndexPath? = nil, output: ChangeOutput, _ body: (inout GridEditor) throws -> Void) throws {
        printChanged(try update(body), focus: focus, output: output)
    }

    /// Applies `body` as ``edit(focus:output:_:)`` does, centring a partial drawing on the item
    /// `item` names after the change.
    func edit(focusing item: ItemReference, output: ChangeOutput, _ body: (inout GridEditor) throws -> Void) throws {
        let snapshot = try update(body)
        printChanged(snapshot, focus: item.find(in: snapshot), output: output)
    }

    /// Applies `body` to the grid as one change, creating the grid, and the database file, when
    /// missing. The file is made by the change's commit, so a refused command leaves no file behind.
    func update(_ body: (inout GridEditor) throws -> Void) throws -> GridSnapshot {
        let snapshot = try openGrid().update(operation: operation, body)
        noteCommitted(snapshot)
        return snapshot
    }

    /// Records that the command committed a change that left its grid as `snapshot`.
    func noteCommitted(_ snapshot: GridSnapshot) {
        noteCommitted("grid '\(snapshot.name)' is at revision \(snapshot.revision)")
    }

    /// Records what the command committed, for the message when its output then fails.
    func noteCommitted(_ what: String) {
        console.committedChange = what
    }

    /// Records that the command committed `snapshot`, then prints it as ``printChanged(_:focus:output:)`` does.
    func printCommitted(_ snapshot: GridSnapshot, output: ChangeOutput) {
        noteCommitted(snapshot)
        printChanged(snapshot, output: output)
    }

    /// Prints a grid a command just changed, as ``edit(focus:output:_:)`` does.
    func printChanged(_ snapshot: GridSnapshot, focus: GridIndexPath? = nil, output: ChangeOutput) {
        switch output {
        case .quiet:
            return
        case .json:
            console.write(GridDocument.encode(snapshot))
        case .text where snapshot.kind == .honeycomb:
            console.write(HoneycombTextRenderer(maximumItems: Self.changedHoneycombItems, maximumWidth: terminalWidth).render(snapshot))
        case .text:
            let renderer = TextGridRenderer(useColor: usesColor, maximumRows: Self.changedGridRows, focus: focus,
                                            maximumWidth: terminalWidth)
            console.write(bytes: renderer.renderBytes(snapshot))
        }
    }

    /// How wide text output may be (see ``TerminalWidth``).
    var terminalWidth: Int { TerminalWidth.current(environment: console.environment) }

    /// Whether output may be colored: standard output is a terminal and `NO_COLOR` is not set.
    var usesColor: Bool {
        guard console.environment["NO_COLOR"].map({ $0.isEmpty }) ?? true else { return false }
        guard console.environment["TERM"] != "dumb" else { return false }
        return Platform.isTerminal(.standardOutput)
    }
}

extension ParsedArguments {
    /// `--section S`, or 0.
    func section(for command: CommandSpec) throws(CommandLineError) -> Int {
        guard let text = value(SharedOptions.section) else { return 0 }
        return try ValueParser.integer(text, name: "--section", in: 0...Int.max, command: command)
    }

    /// The positional argument at `position` as an index (a whole number from 0), named `name` in errors.
    func index(_ position: Int, name: String, for command: CommandSpec) throws(CommandLineError) -> Int {
        try ValueParser.integer(positionals[position], name: "<\(name)>", in: 0...Int.max, command: command)
    }

    /// The item the positional argument at `position` names, in the section `--section` names.
    func indexPath(_ position: Int, name: String, for command: CommandSpec) throws(CommandLineError) -> GridIndexPath {
        GridIndexPath(item: try index(position, name: name, for: command), section: try section(for: command))
    }

    /// The value of `option` as a whole number in `range`, or `fallback` when it is not given.
    func integer(_ option: CommandSpec.Option, in range: ClosedRange<Int>, default fallback: Int,
                 for command: CommandSpec) throws(CommandLineError) -> Int {
        guard let text = value(option) else { return fallback }
        return try ValueParser.integer(text, name: "--\(option.name)", in: range, command: command)
    }

    /// The value of `option` as a decimal number in `range`, or `fallback` when it is not given.
    func number(_ option: CommandSpec.Option, in range: ClosedRange<Double>, aboveLowerBound: Bool = false,
                default fallback: Double, for command: CommandSpec) throws(CommandLineError) -> Double {
        guard let text = value(option) else { return fallback }
        return try ValueParser.number(text, name: "--\(option.name)", in: range, aboveLowerBound: aboveLowerBound, command: command)
    }

    /// The value of `option` as one of the raw values of `T`, or `fallback` when it is not given.
    func choice<T: RawRepresentable & CaseIterable>(_ option: CommandSpec.Option, default fallback: T,
                                                    for command: CommandSpec) throws(CommandLineError) -> T
        where T.RawValue == String {
        guard let text = value(option) else { return fallback }
        return try ValueParser.choice(text, name: "--\(option.name)", choices: T.allCases.map { ($0.rawValue, $0) },
                                      command: command)
    }

    /// The positional argument at `position` as a tile size.
    func size(_ position: Int, for command: CommandSpec) throws(CommandLineError) -> TileSize {
        try ValueParser.size(positionals[position], name: "<size>", command: command)
    }
}

extension ValueParser {
    /// `small`, `middle` or `big`.
    static func size(_ text: String, name: String, command: CommandSpec) throws(CommandLineError) -> TileSize {
        try choice(text, name: name, choices: TileSize.allCases.map { ($0.rawValue, $0) }, command: command)
    }
}
