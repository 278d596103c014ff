import GridLayout
import GridStore

/// `gridstore show [--format text|json|svg] [--width PX] [--spacing PX]`.
struct ShowCommand: GridStoreCommand {
    enum Format: String, CaseIterable {
        case text, json, svg
    }

    static let spec = CommandSpec(
        name: "show",
        abstract: "Show the packed grid as text, JSON or SVG.",
        discussion: """
            JSON gives every item's size and cell rectangle (x, y, w, h); for a horizontal grid x runs
            along the scroll axis. SVG draws the tiles at --width pixels across the scroll axis.
            """,
        options: [
            .init(name: "format", valueName: "text|json|svg", help: "The output format (default: text)."),
            .init(name: "width", valueName: "PX", help: "SVG: pixels across the scroll axis (default: 360)."),
            .init(name: "spacing", valueName: "PX", help: "SVG: pixels between cells (default: 4)."),
        ])

    let format: Format
    let width: Int
    let spacing: Int

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let spec = Self.spec
        format = try arguments.value("format").map { text throws(CommandLineError) in
            try ValueParser.choice(text, name: "--format", choices: Format.allCases.map { ($0.rawValue, $0) }, command: spec)
        } ?? .text
        width = try arguments.value("width").map { text throws(CommandLineError) in
            try ValueParser.integer(text, name: "--width", in: 16...100_000, command: spec)
        } ?? 360
        spacing = try arguments.value("spacing").map { text throws(CommandLineError) in
            try ValueParser.integer(text, name: "--spacing", in: 0...1_000, command: spec)
        } ?? 4
    }

    func run(in context: CommandContext) throws {
        let snapshot = try context.openGrid().snapshot()
        switch format {
        case .text:
            context.console.write(bytes: TextGridRenderer(useColor: context.usesColor).renderBytes(snapshot))
        case .json:
            context.console.write(GridDocument.encode(snapshot))
        case .svg:
            do {
                context.console.write(try SVGGridRenderer(crossAxisLength: Double(width), spacing: Double(spacing)).render(snapshot))
            } catch {
                throw CommandLineError.usage("--width \(width) with --spacing \(spacing) leaves no room for \(snapshot.columns) columns; "
                                             + "give a larger --width or a smaller --spacing", command: Self.spec)
            }
        }
    }
}
