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
            .init(name: "viewport", valueName: "x,y,w,h",
                  help: "Honeycomb: a viewport in points; each visible item's scale is shown (in SVG, drawn)."),
            .init(name: "edge-distance", valueName: "D",
                  help: "Honeycomb: how far inside the viewport cells reach full size (default: 70)."),
            .init(name: "minimum-scale", valueName: "M",
                  help: "Honeycomb: the scale at and beyond the viewport's edges, 0 to 1 (default: 0.4)."),
        ])

    let format: Format
    let width: Int
    let spacing: Int
    let viewport: (rect: LayoutRect, scaling: EdgeScaling)?

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let spec = Self.spec
        format = try arguments.choice("format", default: Format.text, for: spec)
        width = try arguments.integer("width", in: 16...100_000, default: 360, for: spec)
        spacing = try arguments.integer("spacing", in: 0...1_000, default: 4, for: spec)
        guard let text = arguments.value("viewport") else {
            if let given = ["edge-distance", "minimum-scale"].first(where: { arguments.value($0) != nil }) {
                throw .usage("--\(given) goes with --viewport", command: spec)
            }
            viewport = nil
            return
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4 else {
            throw .usage("--viewport is four numbers x,y,w,h (such as 0,0,390,844), not '\(ValueParser.abbreviated(text))'", command: spec)
        }
        var values: [Double] = []
        for (part, name) in zip(parts, ["x", "y", "w", "h"]) {
            let range: ClosedRange<Double> = name == "w" || name == "h" ? 0...1e9 : -1e9...1e9
            values.append(try ValueParser.number(String(part), name: "--viewport's \(name)", in: range, command: spec))
        }
        let edgeDistance = try arguments.number("edge-distance", in: 0.001...1e9, default: 70, for: spec)
        let minimumScale = try arguments.number("minimum-scale", in: 0...1, default: 0.4, for: spec)
        do {
            viewport = (LayoutRect(x: values[0], y: values[1], width: values[2], height: values[3]),
                        try EdgeScaling(edgeDistance: edgeDistance, minimumScaleFactor: minimumScale))
        } catch {
            throw .usage(error.description, command: spec)
        }
    }

    func run(in context: CommandContext) throws {
        let snapshot = try context.openExistingGrid().snapshot()
        if snapshot.kind == .honeycomb {
            switch format {
            case .text: context.console.write(HoneycombTextRenderer(viewport: viewport).render(snapshot))
            case .json: context.console.write(GridDocument.encode(snapshot, viewport: viewport))
            case .svg: context.console.write(HoneycombSVGRenderer(viewport: viewport).render(snapshot))
            }
            return
        }
        if viewport != nil {
            throw CommandLineError.usage("--viewport applies to honeycomb grids; '\(CommandLineOutput.printable(snapshot.name))' "
                                         + "is a grid of tiles", command: Self.spec)
        }
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
