import GridLayout
import GridStore

/// `gridstore type [less|more|toggle]`.
struct TypeCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "type",
        abstract: "Print the grid's type, or set it: less (4 columns), more (6 columns), or toggle between them.",
        arguments: [.init(name: "type", help: "less, more or toggle; omit to print the current type.", isOptional: true)],
        options: ChangeOutput.options)

    enum Change { case set(LayoutType), toggle }
    let change: Change?
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        change = try arguments.positional(0).map { text throws(CommandLineError) in
            try ValueParser.choice(text, name: "<type>",
                                   choices: [("less", Change.set(.less)), ("more", .set(.more)), ("toggle", .toggle)],
                                   command: Self.spec)
        }
        output = try ChangeOutput(arguments, command: Self.spec)
        if change == nil && output == .quiet {
            throw .usage("--quiet goes with a change: give less, more or toggle", command: Self.spec)
        }
    }

    func run(in context: CommandContext) throws {
        switch change {
        case nil:
            let snapshot = try context.existingSnapshot()
            let type = snapshot.kind == .honeycomb ? "honeycomb" : snapshot.type?.rawValue ?? "custom"
            if output == .json {
                context.console.write(JSONOutput.text(GridType(grid: snapshot.name, type: type,
                                                               columns: snapshot.kind == .honeycomb ? nil : snapshot.columns)))
            } else {
                context.console.write((type == "custom" ? "custom (\(snapshot.columns) columns)" : type) + "\n")
            }
        case .set(let type):
            try context.edit(output: output) { try $0.setType(type) }
        case .toggle:
            try context.edit(output: output) { try $0.toggleType() }
        }
    }
}

/// What `type --format json` prints: a honeycomb has no `"columns"`.
private struct GridType: Encodable {
    let grid: String
    let type: String
    let columns: Int?

    private enum CodingKeys: String, CodingKey { case grid, type, columns }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(grid, forKey: .grid)
        try container.encode(type, forKey: .type)
        if let columns { try container.encode(columns, forKey: .columns) }
    }
}

/// `gridstore columns <N>`.
struct ColumnsCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "columns",
        abstract: "Set a custom column count (4 is type less, 6 is type more), re-pack, and show the grid.",
        arguments: [.init(name: "count", help: "The number of columns, 4 to 64.")],
        options: ChangeOutput.options)

    let columns: Int
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        columns = try ValueParser.integer(arguments.positionals[0], name: "<count>", in: CommandLimits.columns, command: Self.spec)
        output = try ChangeOutput(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        try context.edit(output: output) { try $0.setColumns(columns) }
    }
}

/// `gridstore direction <vertical|horizontal>`.
struct DirectionCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "direction",
        abstract: "Set the scroll direction, re-pack, and show the grid.",
        discussion: "A horizontal grid is the vertical packing transposed: its columns become rows.",
        arguments: [.init(name: "direction", help: "vertical or horizontal.")],
        options: ChangeOutput.options)

    let direction: ScrollDirection
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        direction = try ValueParser.choice(arguments.positionals[0], name: "<direction>",
                                           choices: ScrollDirection.allCases.map { ($0.rawValue, $0) }, command: Self.spec)
        output = try ChangeOutput(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        try context.edit(output: output) { try $0.setDirection(direction) }
    }
}
