import GridLayout
import GridStore

/// `gridstore toggle <index> [--section S]` or `gridstore toggle --key KEY`.
struct ToggleCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "toggle",
        abstract: "Cycle a tile's size small → middle → big → small, re-pack, and show the grid.",
        arguments: [SharedArguments.keyableIndex],
        options: [SharedOptions.section, SharedOptions.key] + ChangeOutput.options)

    let item: ItemReference
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        item = try arguments.item(0, name: "index", for: Self.spec)
        output = try ChangeOutput(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        try context.edit(focusing: item, output: output) { try $0.toggle(at: item.resolve(in: $0.snapshot)) }
    }
}

/// `gridstore set <index> <small|middle|big> [--section S]` or `gridstore set --key KEY <size>`.
struct SetCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "set",
        abstract: "Set a tile's size, re-pack, and show the grid.",
        arguments: [SharedArguments.keyableIndex,
                    .init(name: "size", help: "small, middle or big.")],
        options: [SharedOptions.section, SharedOptions.key] + ChangeOutput.options)

    let item: ItemReference
    let size: TileSize
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        do {
            item = try arguments.item(0, name: "index", for: Self.spec)
        } catch let error {
            // `set big 1`: the size and the index swapped.
            let given = arguments.positionals
            if given.count == 2, TileSize(rawValue: given[0].lowercased()) != nil, Int(given[1]) != nil {
                throw .usage("\(error.message); did you mean 'set \(given[1]) \(given[0].lowercased())'?", command: Self.spec)
            }
            throw error
        }
        size = try arguments.size(1 - arguments.positionsTakenByKey, for: Self.spec)
        output = try ChangeOutput(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        try context.edit(focusing: item, output: output) { try $0.setSize(size, at: item.resolve(in: $0.snapshot)) }
    }
}

/// `gridstore get <index> [--section S]` or `gridstore get --key KEY`.
struct GetCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "get",
        abstract: "Print a tile's size: small, middle or big.",
        discussion: """
            With --format json: {"grid":"default","section":0,"index":3,"key":"mail","size":"middle","explicit":true},
            where key is there when the item has one, and explicit says whether the size was set or is the
            grid's default size.
            """,
        arguments: [SharedArguments.keyableIndex],
        options: [SharedOptions.section, SharedOptions.key, ValueFormat.option])

    let item: ItemReference
    let format: ValueFormat

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        item = try arguments.item(0, name: "index", for: Self.spec)
        format = try ValueFormat(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        // One item's rows, read without reading or packing the rest of the grid.
        let grid = try Grid(named: context.gridName, in: context.openExistingDatabase())
        let found: GridItem
        switch item {
        case .path(let path): found = try grid.item(at: path)
        case .key(let key): found = try grid.item(forKey: key)
        }
        let path = found.indexPath, size = found.size
        guard format == .json else {
            context.console.write(size.rawValue + "\n")
            return
        }
        context.console.write(JSONOutput.text(ItemSize(grid: grid.name, section: path.section, index: path.item, key: found.key,
                                                       size: size.rawValue, explicit: found.hasOwnSize)))
    }
}

/// What `get --format json` prints: an item without a key has no `"key"`.
private struct ItemSize: Encodable {
    let grid: String
    let section: Int
    let index: Int
    let key: String?
    let size: String
    /// Whether the item has a size of its own, not the grid's default.
    let explicit: Bool

    private enum CodingKeys: String, CodingKey { case grid, section, index, key, size, explicit }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(grid, forKey: .grid)
        try container.encode(section, forKey: .section)
        try container.encode(index, forKey: .index)
        if let key { try container.encode(key, forKey: .key) }
        try container.encode(size, forKey: .size)
        try container.encode(explicit, forKey: .explicit)
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
