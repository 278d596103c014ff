import GridLayout
import GridStore

/// `gridstore items <count> [--section S]`.
struct ItemsCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "items",
        abstract: "Set a section's item count, re-pack, and show the grid.",
        discussion: "New items get the default size; removed items take their sizes with them.",
        arguments: [.init(name: "count", help: "The number of items, 0 to \(GridLimits.maximumItems).")],
        options: [SharedOptions.section] + ChangeOutput.options)

    let count: Int
    let section: Int
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        count = try ValueParser.integer(arguments.positionals[0], name: "<count>", in: 0...GridLimits.maximumItems, command: Self.spec)
        section = try arguments.section(for: Self.spec)
        output = try ChangeOutput(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        try context.edit(focus: GridIndexPath(item: max(0, count - 1), section: section), output: output) {
            try $0.setItemCount(count, inSection: section)
        }
    }
}

/// `gridstore insert <index> [--size S] [--section S]`.
struct InsertCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "insert",
        abstract: "Insert an item; later items and their sizes move up by one.",
        arguments: [.init(name: "index", help: "Where the new item goes, from 0 to the item count (to append).")],
        options: [size, SharedOptions.section] + ChangeOutput.options)

    /// `--size S`.
    static let size = CommandSpec.Option(name: "size", valueName: "S", help: "The new item's size (default: the grid's default size).")

    let path: GridIndexPath
    let size: TileSize?
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        path = try arguments.indexPath(0, name: "index", for: Self.spec)
        output = try ChangeOutput(arguments, command: Self.spec)
        size = try arguments.value(Self.size).map { text throws(CommandLineError) in
            try ValueParser.size(text, name: "--size", command: Self.spec)
        }
    }

    func run(in context: CommandContext) throws {
        try context.edit(focus: path, output: output) { try $0.insertItem(at: path, size: size) }
    }
}

/// `gridstore delete <index> [--section S]`.
struct DeleteCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "delete",
        abstract: "Delete an item; later items and their sizes move down by one.",
        arguments: [SharedArguments.index],
        options: [SharedOptions.section] + ChangeOutput.options)

    let path: GridIndexPath
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        path = try arguments.indexPath(0, name: "index", for: Self.spec)
        output = try ChangeOutput(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        try context.edit(focus: path, output: output) { try $0.deleteItem(at: path) }
    }
}

/// `gridstore move <from> <to> [--section S]`.
struct MoveCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "move",
        abstract: "Move an item with its size, as drag and drop does, re-pack, and show the grid.",
        arguments: [.init(name: "from", help: "The item's index now."),
                    .init(name: "to", help: "Its index after the move.")],
        options: [SharedOptions.section] + ChangeOutput.options)

    let source: GridIndexPath
    let destination: GridIndexPath
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        output = try ChangeOutput(arguments, command: Self.spec)
        let section = try arguments.section(for: Self.spec)
        source = GridIndexPath(item: try arguments.index(0, name: "from", for: Self.spec), section: section)
        destination = GridIndexPath(item: try arguments.index(1, name: "to", for: Self.spec), section: section)
    }

    func run(in context: CommandContext) throws {
        try context.edit(focus: destination, output: output) { try $0.moveItem(from: source, to: destination) }
    }
}

/// `gridstore swap <a> <b> [--section S]`.
struct SwapCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "swap",
        abstract: "Exchange two items' sizes, re-pack, and show the grid.",
        arguments: [.init(name: "a", help: "One item's index."), .init(name: "b", help: "The other item's index.")],
        options: [SharedOptions.section] + ChangeOutput.options)

    let first: GridIndexPath
    let second: GridIndexPath
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        output = try ChangeOutput(arguments, command: Self.spec)
        let section = try arguments.section(for: Self.spec)
        first = GridIndexPath(item: try arguments.index(0, name: "a", for: Self.spec), section: section)
        second = GridIndexPath(item: try arguments.index(1, name: "b", for: Self.spec), section: section)
    }

    func run(in context: CommandContext) throws {
        try context.edit(focus: first, output: output) { try $0.swapItems(first, second) }
    }
}
