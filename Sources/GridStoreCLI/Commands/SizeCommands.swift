import GridLayout
import GridStore

/// `gridstore toggle <index> [--section S]`.
struct ToggleCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "toggle",
        abstract: "Cycle a tile's size small → middle → big → small, re-pack, and show the grid.",
        arguments: [SharedArguments.index],
        options: [SharedOptions.section] + ChangeOutput.options)

    let path: GridIndexPath
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        path = try arguments.indexPath(0, name: "index", for: Self.spec)
        output = try ChangeOutput(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        try context.edit(focus: path, output: output) { try $0.toggle(at: path) }
    }
}

/// `gridstore set <index> <small|middle|big> [--section S]`.
struct SetCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "set",
        abstract: "Set a tile's size, re-pack, and show the grid.",
        arguments: [SharedArguments.index,
                    .init(name: "size", help: "small, middle or big.")],
        options: [SharedOptions.section] + ChangeOutput.options)

    let path: GridIndexPath
    let size: TileSize
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        path = try arguments.indexPath(0, name: "index", for: Self.spec)
        size = try arguments.size(1, for: Self.spec)
        output = try ChangeOutput(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        try context.edit(focus: path, output: output) { try $0.setSize(size, at: path) }
    }
}

/// `gridstore get <index> [--section S]`.
struct GetCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "get",
        abstract: "Print a tile's size: small, middle or big.",
        discussion: """
            With --format json: {"grid":"default","section":0,"index":3,"size":"middle","explicit":true}, where
            explicit says whether the size was set or is the grid's default size.
            """,
        arguments: [SharedArguments.index],
        options: [SharedOptions.section, ValueFormat.option])

    let path: GridIndexPath
    let format: ValueFormat

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        path = try arguments.indexPath(0, name: "index", for: Self.spec)
        format = try ValueFormat(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        let snapshot = try context.existingSnapshot()
        if snapshot.kind == .honeycomb { throw GridError.notTiles(operation: "have sizes", grid: snapshot.name) }
        let size = try snapshot.size(at: path)
        guard format == .json else {
            context.console.write(size.rawValue + "\n")
            return
        }
        let explicit = try snapshot.explicitSize(at: path) != nil
        context.console.write("{\"grid\":\(JSONText.quoted(snapshot.name)),\"section\":\(path.section),\"index\":\(path.item),"
                              + "\"size\":\"\(size.rawValue)\",\"explicit\":\(explicit)}\n")
    }
}

/// `gridstore reset`.
struct ResetCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "reset",
        abstract: "Return every tile to the grid's default size, and show the grid.",
        options: ChangeOutput.options)

    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        output = try ChangeOutput(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        try context.edit(output: output) { try $0.resetSizes() }
    }
}
