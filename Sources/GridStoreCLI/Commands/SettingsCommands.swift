import GridLayout
import GridStore

/// `gridstore type [less|more|toggle]`.
struct TypeCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "type",
        abstract: "Print the grid's type, or set it: less (4 columns), more (6 columns), or toggle between them.",
        arguments: [.init(name: "type", help: "less, more or toggle; omit to print the current type.", isOptional: true)])

    enum Change { case set(LayoutType), toggle }
    let change: Change?

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        change = try arguments.positional(0).map { text throws(CommandLineError) in
            try ValueParser.choice(text, name: "<type>",
                                   choices: [("less", Change.set(.less)), ("more", .set(.more)), ("toggle", .toggle)],
                                   command: Self.spec)
        }
    }

    func run(in context: CommandContext) throws {
        switch change {
        case nil:
            let snapshot = try context.openExistingGrid().snapshot()
            if snapshot.kind == .honeycomb {
                context.console.write("honeycomb\n")
                return
            }
            context.console.write((snapshot.type?.rawValue ?? "custom (\(snapshot.columns) columns)") + "\n")
        case .set(let type):
            try context.edit { try $0.setType(type) }
        case .toggle:
            try context.edit { try $0.toggleType() }
        }
    }
}

/// `gridstore columns <N>`.
struct ColumnsCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "columns",
        abstract: "Set a custom column count (4 is type less, 6 is type more), re-pack, and show the grid.",
        arguments: [.init(name: "count", help: "The number of columns, 4 to 64.")])

    let columns: Int

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        columns = try ValueParser.integer(arguments.positionals[0], name: "<count>", in: CommandLimits.columns, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        try context.edit { try $0.setColumns(columns) }
    }
}

/// `gridstore direction <vertical|horizontal>`.
struct DirectionCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "direction",
        abstract: "Set the scroll direction, re-pack, and show the grid.",
        discussion: "A horizontal grid is the vertical packing transposed: its columns become rows.",
        arguments: [.init(name: "direction", help: "vertical or horizontal.")])

    let direction: ScrollDirection

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        direction = try ValueParser.choice(arguments.positionals[0], name: "<direction>",
                                           choices: ScrollDirection.allCases.map { ($0.rawValue, $0) }, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        try context.edit { try $0.setDirection(direction) }
    }
}
