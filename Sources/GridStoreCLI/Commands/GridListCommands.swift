import GridLayout
import GridStore

/// `gridstore grids`.
struct GridsCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "grids",
        abstract: "List the grids in the database.",
        discussion: """
            With --format json: {"grids":[{"name":"default","type":"more","columns":6,"direction":"vertical",
            "sections":1,"items":12,"revision":0,"updated":"2026-11-30T08:11:23.531Z"}]}.
            """,
        options: [ValueFormat.option, names],
        usesGrid: false)

    /// `--names`: one name a line, for scripts and shell completion.
    static let names = CommandSpec.Option(name: "names", help: "Print only the grids' names, one a line.")

    let format: ValueFormat
    let namesOnly: Bool

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        format = try ValueFormat(arguments, command: Self.spec)
        namesOnly = arguments.flag(Self.names)
        if namesOnly && arguments.value(ValueFormat.option) != nil {
            throw .usage("give --names or --format, not both", command: Self.spec)
        }
    }

    func run(in context: CommandContext) throws {
        let summaries = try Grid.list(in: context.openExistingDatabase())
        if namesOnly {
            for summary in summaries { context.console.write(CommandLineOutput.printable(summary.name) + "\n") }
            return
        }
        if format == .json {
            let grids = summaries.map { summary in
                "{\"name\":\(JSONText.quoted(summary.name)),\"type\":\"\(summary.type?.rawValue ?? "custom")\","
                    + "\"columns\":\(summary.columns),\"direction\":\"\(summary.direction.rawValue)\","
                    + "\"sections\":\(summary.sectionCount),\"items\":\(summary.itemCount),\"revision\":\(summary.revision),"
                    + "\"updated\":\(JSONText.quoted(summary.updatedAt))}"
            }
            context.console.write("{\"grids\":[" + grids.joined(separator: ",\n ") + "]}\n")
            return
        }
        guard !summaries.isEmpty else {
            context.console.write("no grids yet; 'gridstore init' creates one\n")
            return
        }
        let rows = [["NAME", "TYPE", "COLUMNS", "DIRECTION", "SECTIONS", "ITEMS", "REVISION", "UPDATED"]]
            + summaries.map { summary in
                [CommandLineOutput.printable(summary.name), summary.type?.rawValue ?? "custom", String(summary.columns),
                 summary.direction.rawValue, String(summary.sectionCount), String(summary.itemCount),
                 String(summary.revision), CommandLineOutput.printable(summary.updatedAt)]
            }
        context.console.write(CommandLineOutput.table(rows, rightAligned: [2, 4, 5, 6]))
    }
}

/// `gridstore drop <name>`.
struct DropCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "drop",
        abstract: "Delete a grid with its sections, sizes and placements.",
        arguments: [.init(name: "name", help: "The grid's name.")],
        options: [QuietOption.option],
        usesGrid: false)

    let name: String
    let quiet: Bool

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        name = arguments.positionals[0]
        quiet = arguments.flag(QuietOption.option)
    }

    func run(in context: CommandContext) throws {
        try Grid.drop(named: name, in: context.openExistingDatabase())
        if !quiet { context.console.write("dropped grid '\(CommandLineOutput.printable(name))'\n") }
    }
}
