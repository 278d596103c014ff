import GridLayout
import GridStore

/// `gridstore init [--type less|more | --columns N] [--items N] [--sections N] [--direction D] [--default-size S] [--force]`,
/// or `gridstore init --layout honeycomb [--element-width W] [--spacing S] [--orientation O] [--center C]
/// [--ring-order R] [--scaling C] [--items N] [--force]`.
struct InitCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "init",
        abstract: "Create a grid (type more, 12 small items in one section unless told otherwise).",
        discussion: """
            A grid is also created with these defaults the first time a command changes it. With
            --layout honeycomb the items sit on hexagonal rings around a center item instead; they
            have no sizes, and --type, --columns, --sections, --direction and --default-size do not apply.
            """,
        options: [Option.layout, Option.type, Option.columns, Option.items, Option.sections, Option.direction,
                  Option.defaultSize, Option.elementWidth, Option.spacing, Option.orientation, Option.center,
                  Option.ringOrder, Option.scaling, Option.force]
            + ChangeOutput.options)

    /// The options of `init`.
    enum Option {
        static let layout = CommandSpec.Option(name: "layout", valueName: "tiles|honeycomb", help: "tiles (the default) or honeycomb.")
        static let type = CommandSpec.Option(name: "type", valueName: "less|more", help: "less (4 columns) or more (6 columns; the default).")
        static let columns = CommandSpec.Option(name: "columns", valueName: "N", help: "A custom column count, 4 to 64, instead of --type.")
        static let items = CommandSpec.Option(name: "items", valueName: "N", help: "Items in each section (default: 12; a honeycomb's: 19).")
        static let sections = CommandSpec.Option(name: "sections", valueName: "N", help: "Number of sections (default: 1).")
        static let direction = CommandSpec.Option(name: "direction", valueName: "vertical|horizontal",
                                                  help: "The scroll direction (default: vertical).")
        static let defaultSize = CommandSpec.Option(name: "default-size", valueName: "S",
                                                    help: "The size of new items: small, middle or big (default: small).")
        static let elementWidth = CommandSpec.Option(name: "element-width", valueName: "W",
                                                     help: "Honeycomb: a cell's width across its flat sides (default: 60).")
        static let spacing = CommandSpec.Option(name: "spacing", valueName: "S",
                                                help: "Honeycomb: the gap between neighbouring cells (default: 6).")
        static let orientation = CommandSpec.Option(name: "orientation", valueName: "pointy-top|flat-top",
                                                    help: "Honeycomb: cells in rows (pointy-top, the default) or in columns (flat-top).")
        static let center = CommandSpec.Option(name: "center", valueName: "first|last", help: "Honeycomb: the item in the center (default: first).")
        static let ringOrder = CommandSpec.Option(
            name: "ring-order", valueName: "standard|original",
            help: "Honeycomb: where each ring starts: right of the center (standard, the default) or one side further "
                + "round, as the original iOS layout (original).")
        static let scaling = CommandSpec.Option(
            name: "scaling", valueName: "linear|smooth|original",
            help: "Honeycomb: how cells shrink near a viewport's edges in 'show --viewport' (default: linear).")
        static let force = CommandSpec.Option(name: "force", help: "Replace the grid if it exists.")
    }

    let options: GridOptions
    let force: Bool
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let spec = Self.spec
        output = try ChangeOutput(arguments, command: spec)
        let layout = try arguments.choice(Option.layout, default: GridKind.tiles, for: spec)
        let honeycombOptions = [Option.elementWidth, Option.spacing, Option.orientation, Option.center, Option.ringOrder,
                                Option.scaling]
        let tileOptions = [Option.type, Option.columns, Option.sections, Option.direction, Option.defaultSize]
        for (options, layoutName) in [(honeycombOptions, "honeycomb"), (tileOptions, "tiles")]
        where (layoutName == "honeycomb") != (layout == .honeycomb) {
            if let given = options.first(where: { arguments.value($0) != nil }) {
                throw .usage("--\(given.name) applies only to a grid with --layout \(layoutName)", command: spec)
            }
        }
        force = arguments.flag(Option.force)
        if layout == .honeycomb {
            options = try Self.honeycombOptions(arguments)
            return
        }
        if arguments.value(Option.type) != nil && arguments.value(Option.columns) != nil {
            throw .usage("give --type or --columns, not both", command: spec)
        }
        let type = try arguments.choice(Option.type, default: LayoutType.more, for: spec)
        let columns = try arguments.integer(Option.columns, in: CommandLimits.columns, default: type.columns, for: spec)
        let items = try arguments.integer(Option.items, in: 0...GridLimits.maximumItems, default: 12, for: spec)
        let sections = try arguments.integer(Option.sections, in: 0...GridLimits.maximumSections, default: 1, for: spec)
        guard items * sections <= GridLimits.maximumItems else {
            throw .usage("\(sections) sections of \(items) items exceed the limit of \(GridLimits.maximumItems) items", command: spec)
        }
        let direction = try arguments.choice(Option.direction, default: ScrollDirection.vertical, for: spec)
        let defaultSize = try arguments.choice(Option.defaultSize, default: TileSize.small, for: spec)
        options = GridOptions(columns: columns, direction: direction, defaultSize: defaultSize,
                              sectionItemCounts: Array(repeating: items, count: sections))
    }

    private static func honeycombOptions(_ arguments: ParsedArguments) throws(CommandLineError) -> GridOptions {
        let spec = Self.spec
        let items = try arguments.integer(Option.items, in: 0...GridLimits.maximumItems, default: 19, for: spec)
        let longest = HoneycombConfiguration.maximumLength
        let width = try arguments.number(Option.elementWidth, in: 0...longest, aboveLowerBound: true, default: 60, for: spec)
        let spacing = try arguments.number(Option.spacing, in: 0...longest, default: 6, for: spec)
        let orientation = try arguments.choice(Option.orientation, default: HoneycombConfiguration.Orientation.pointyTop, for: spec)
        let center = try arguments.choice(Option.center, default: HoneycombConfiguration.CenterItem.first, for: spec)
        let ringOrder = try arguments.choice(Option.ringOrder, default: HoneycombConfiguration.RingOrder.standard, for: spec)
        let scaling = try arguments.choice(Option.scaling, default: EdgeScaling.Curve.linear, for: spec)
        do {
            let configuration = try HoneycombConfiguration(elementWidth: width, itemSpacing: spacing,
                                                           orientation: orientation, centerItem: center,
                                                           ringOrder: ringOrder, scalingCurve: scaling)
            return GridOptions(honeycomb: configuration, itemCount: items)
        } catch {
            throw .usage(error.description, command: spec)
        }
    }

    func run(in context: CommandContext) throws {
        try options.validate()
        let grid = try Grid.create(named: context.gridName, in: context.openDatabase(), content: GridContent(options),
                                   replacing: force)
        context.printCommitted(try grid.snapshot(), output: output)
    }
}
