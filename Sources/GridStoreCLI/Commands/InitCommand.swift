import GridLayout
import GridStore

/// `gridstore init [--type less|more | --columns N] [--items N] [--sections N] [--direction D] [--default-size S] [--force]`.
struct InitCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "init",
        abstract: "Create a grid (type more, 12 small items in one section unless told otherwise).",
        discussion: "A grid is also created with these defaults the first time any command uses it.",
        options: [
            .init(name: "type", valueName: "less|more", help: "less (4 columns) or more (6 columns; the default)."),
            .init(name: "columns", valueName: "N", help: "A custom column count, 4 to 64, instead of --type."),
            .init(name: "items", valueName: "N", help: "Items in each section (default: 12)."),
            .init(name: "sections", valueName: "N", help: "Number of sections (default: 1)."),
            .init(name: "direction", valueName: "vertical|horizontal", help: "The scroll direction (default: vertical)."),
            .init(name: "default-size", valueName: "S", help: "The size of new items: small, middle or big (default: small)."),
            .init(name: "force", help: "Replace the grid if it exists."),
        ])

    let options: GridOptions
    let force: Bool

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let spec = Self.spec
        if arguments.value("type") != nil && arguments.value("columns") != nil {
            throw .usage("give --type or --columns, not both", command: spec)
        }
        var columns = LayoutType.more.columns
        if let type = arguments.value("type") {
            columns = try ValueParser.choice(type, name: "--type", choices: LayoutType.allCases.map { ($0.rawValue, $0) },
                                             command: spec).columns
        }
        if let text = arguments.value("columns") {
            columns = try ValueParser.integer(text, name: "--columns", in: CommandLimits.columns, command: spec)
        }
        let items = try arguments.value("items").map { text throws(CommandLineError) in
            try ValueParser.integer(text, name: "--items", in: 0...GridLimits.maximumItems, command: spec)
        } ?? 12
        let sections = try arguments.value("sections").map { text throws(CommandLineError) in
            try ValueParser.integer(text, name: "--sections", in: 0...GridLimits.maximumSections, command: spec)
        } ?? 1
        guard items * sections <= GridLimits.maximumItems else {
            throw .usage("\(sections) sections of \(items) items exceed the limit of \(GridLimits.maximumItems) items", command: spec)
        }
        let direction = try arguments.value("direction").map { text throws(CommandLineError) in
            try ValueParser.choice(text, name: "--direction", choices: ScrollDirection.allCases.map { ($0.rawValue, $0) }, command: spec)
        } ?? .vertical
        let defaultSize = try arguments.value("default-size").map { text throws(CommandLineError) in
            try ValueParser.size(text, name: "--default-size", command: spec)
        } ?? .small
        options = GridOptions(columns: columns, direction: direction, defaultSize: defaultSize,
                              sectionItemCounts: Array(repeating: items, count: sections))
        force = arguments.flag("force")
    }

    func run(in context: CommandContext) throws {
        let grid = try Grid.create(named: context.gridName, in: context.openDatabase(), content: GridContent(options),
                                   replacing: force)
        context.printChanged(try grid.snapshot())
    }
}
