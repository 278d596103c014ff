import GridLayout
import GridStore

/// `gridstore toggle <index> [--section S]`.
struct ToggleCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "toggle",
        abstract: "Cycle a tile's size small → middle → big → small, re-pack, and show the grid.",
        arguments: [SharedArguments.index],
        options: [SharedOptions.section])

    let path: GridIndexPath

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        path = try arguments.indexPath(0, name: "index", for: Self.spec)
    }

    func run(in context: CommandContext) throws {
        try context.edit(focus: path) { try $0.toggle(at: path) }
    }
}

/// `gridstore set <index> <small|middle|big> [--section S]`.
struct SetCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "set",
        abstract: "Set a tile's size, re-pack, and show the grid.",
        arguments: [SharedArguments.index,
                    .init(name: "size", help: "small, middle or big.")],
        options: [SharedOptions.section])

    let path: GridIndexPath
    let size: TileSize

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        path = try arguments.indexPath(0, name: "index", for: Self.spec)
        size = try arguments.size(1, for: Self.spec)
    }

    func run(in context: CommandContext) throws {
        try context.edit(focus: path) { try $0.setSize(size, at: path) }
    }
}

/// `gridstore get <index> [--section S]`.
struct GetCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "get",
        abstract: "Print a tile's size: small, middle or big.",
        arguments: [SharedArguments.index],
        options: [SharedOptions.section])

    let path: GridIndexPath

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        path = try arguments.indexPath(0, name: "index", for: Self.spec)
    }

    func run(in context: CommandContext) throws {
        let snapshot = try context.openExistingGrid().snapshot()
        if snapshot.kind == .honeycomb { throw GridError.notTiles(operation: "have sizes", grid: snapshot.name) }
        context.console.write(try snapshot.size(at: path).rawValue + "\n")
    }
}

/// `gridstore reset`.
struct ResetCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "reset",
        abstract: "Return every tile to the grid's default size, and show the grid.")

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {}

    func run(in context: CommandContext) throws {
        try context.edit { try $0.resetSizes() }
    }
}
