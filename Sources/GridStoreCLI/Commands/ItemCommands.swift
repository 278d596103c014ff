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

/// `gridstore insert <index> [--size S] [--key KEY] [--section S]`.
struct InsertCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "insert",
        abstract: "Insert an item; later items and their sizes move up by one.",
        arguments: [.init(name: "index", help: "Where the new item goes, from 0 to the item count (to append).")],
        options: [size, key, SharedOptions.section] + ChangeOutput.options)

    /// `--size S`.
    static let size = CommandSpec.Option(name: "size", valueName: "S", help: "The new item's size (default: the grid's default size).")
    /// `--key KEY`: here the new item's key, not an item to find.
    static let key = CommandSpec.Option(name: "key", valueName: "KEY", help: "The new item's key (default: none).")

    let path: GridIndexPath
    let size: TileSize?
    let key: String?
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        path = try arguments.indexPath(0, name: "index", for: Self.spec)
        output = try ChangeOutput(arguments, command: Self.spec)
        size = try arguments.value(Self.size).map { text throws(CommandLineError) in
            try ValueParser.size(text, name: "--size", command: Self.spec)
        }
        key = arguments.value(Self.key)
    }

    func run(in context: CommandContext) throws {
        try context.edit(focus: path, output: output) { try $0.insertItem(at: path, size: size, key: key) }
    }
}

/// `gridstore delete <index> [--section S]` or `gridstore delete --key KEY`.
struct DeleteCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "delete",
        abstract: "Delete an item; later items and their sizes move down by one.",
        arguments: [SharedArguments.keyableIndex],
        options: [SharedOptions.section, SharedOptions.key] + ChangeOutput.options)

    let item: ItemReference
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        item = try arguments.item(0, name: "index", for: Self.spec)
        output = try ChangeOutput(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        var deleted: GridIndexPath?
        let snapshot = try context.update { editor in
            let path = try item.resolve(in: editor.snapshot)
            try editor.deleteItem(at: path)
            deleted = path
        }
        context.printChanged(snapshot, focus: deleted, output: output)
    }
}

/// `gridstore move <from> <to> [--section S]` or `gridstore move --key KEY <to>`.
struct MoveCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "move",
        abstract: "Move an item with its size, as drag and drop does, re-pack, and show the grid.",
        discussion: "With --key the item moves to <to> in its own section.",
        arguments: [.init(name: "from", help: "The item's index now.", replacedBy: SharedOptions.key.name),
                    .init(name: "to", help: "Its index after the move.")],
        options: [SharedOptions.section, SharedOptions.key] + ChangeOutput.options)

    let source: ItemReference
    let destination: Int
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        output = try ChangeOutput(arguments, command: Self.spec)
        source = try arguments.item(0, name: "from", for: Self.spec)
        destination = try arguments.index(1 - arguments.positionsTakenByKey, name: "to", for: Self.spec)
    }

    func run(in context: CommandContext) throws {
        var moved: GridIndexPath?
        let snapshot = try context.update { editor in
            let from = try source.resolve(in: editor.snapshot)
            let to = GridIndexPath(item: destination, section: from.section)
            try editor.moveItem(from: from, to: to)
            moved = to
        }
        context.printChanged(snapshot, focus: moved, output: output)
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
