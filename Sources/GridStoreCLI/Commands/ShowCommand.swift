import GridLayout
import GridStore

/// `gridstore show [--format text|json|svg] [--width PX] [--spacing PX] [--insets T,L,B,R]
/// [--rows A..B] [--section S] [--no-pager]`.
struct ShowCommand: GridStoreCommand {
    enum Format: String, CaseIterable {
        case text, json, svg
    }

    static let format = CommandSpec.Option(name: "format", valueName: "text|json|svg", help: "The output format (default: text).")
    static let width = CommandSpec.Option(
        name: "width", valueName: "PX",
        help: "SVG: pixels across the scroll axis (default: 360, or 28 a column past 12). JSON: adds each item's pixel frame "
            + "for a container this wide.")
    static let spacing = CommandSpec.Option(name: "spacing", valueName: "PX",
                                            help: "SVG and JSON with --width: pixels between cells (SVG default: 4; JSON: 0).")
    static let insets = CommandSpec.Option(name: "insets", valueName: "T,L,B,R",
                                           help: "JSON with --width: each section's insets in pixels (default: 0,0,0,0).")
    static let rows = CommandSpec.Option(
        name: "rows", valueName: "A..B",
        help: "Text: draw only rows A to B (columns, when horizontal), widened so no tile is cut; A.. draws from A on.")
    static let section = CommandSpec.Option(name: "section", valueName: "S", help: "Text: draw only section S.")
    static let noPager = CommandSpec.Option(name: "no-pager", help: "Text: never page a long drawing through $PAGER.")
    static let viewport = CommandSpec.Option(
        name: "viewport", valueName: "x,y,w,h", help: "Honeycomb: a viewport in points; each visible item's scale is shown (in SVG, drawn).")
    static let edgeDistance = CommandSpec.Option(
        name: "edge-distance", valueName: "D", help: "Honeycomb: how far inside the viewport cells reach full size (default: 70).")
    static let minimumScale = CommandSpec.Option(
        name: "minimum-scale", valueName: "M", help: "Honeycomb: the scale at and beyond the viewport's edges, 0 to 1 (default: 0.4).")
    static let at = CommandSpec.Option(
        name: "at", valueName: "REV", help: "Show the grid as it was at revision REV ('gridstore history' lists them).")
    static let scaling = CommandSpec.Option(
        name: "scaling", valueName: "linear|smooth|original",
        help: "Honeycomb: the curve from the edge to full size (default: the grid's, set by init --scaling).")

    static let spec = CommandSpec(
        name: "show",
        abstract: "Show the packed grid as text, JSON or SVG.",
        discussion: """
            Text fits the terminal's width ($COLUMNS, else the terminal's, else 80); on a terminal a drawing
            taller than the screen goes through $PAGER (default: less -R). JSON gives every item's size and cell
            rectangle (x, y, w, h; for a horizontal grid x runs along the scroll axis), and with --width each
            item's pixel frame as the library's GridFrames computes it. SVG draws the tiles at --width pixels
            across the scroll axis. An option that does not apply to the chosen format is refused.
            """,
        options: [format, width, spacing, insets, rows, section, noPager, viewport, edgeDistance, minimumScale, scaling, at])

    let format: Format
    let metrics: FrameMetrics?
    let rowRange: ClosedRange<Int>?
    let sectionFilter: Int?
    let usesPager: Bool
    let widthGiven: Bool
    let viewportOption: (rect: LayoutRect, scaling: EdgeScaling)?
    /// `--scaling`, which replaces the grid's own curve for this drawing.
    let scalingCurve: EdgeScaling.Curve?
    /// `--at`: the revision to show instead of the current one.
    let revision: Int?

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let spec = Self.spec
        format = try arguments.choice(Self.format, default: Format.text, for: spec)
        try Self.refuseOptions(notApplyingTo: format, arguments)
        metrics = try Self.frameMetrics(arguments, format: format)
        rowRange = try arguments.value(Self.rows).map { text throws(CommandLineError) in try Self.rowRange(text) }
        sectionFilter = try arguments.value(Self.section).map { text throws(CommandLineError) in
            try ValueParser.integer(text, name: "--section", in: 0...Int.max, command: spec)
        }
        usesPager = !arguments.flag(Self.noPager)
        widthGiven = arguments.value(Self.width) != nil
        viewportOption = try Self.viewport(arguments)
        revision = try arguments.value(Self.at).map { text throws(CommandLineError) in
            try ValueParser.integer(text, name: "--at", in: 0...Int.max - 1, command: spec)
        }
        scalingCurve = try arguments.value(Self.scaling).map { text throws(CommandLineError) in
            try ValueParser.choice(text, name: "--scaling", choices: EdgeScaling.Curve.allCases.map { ($0.rawValue, $0) },
                                   command: spec)
        }
    }

    /// Refuses the options that `format` does not use.
    private static func refuseOptions(notApplyingTo format: Format, _ arguments: ParsedArguments) throws(CommandLineError) {
        let applying: [Format: [CommandSpec.Option]] = [
            .text: [rows, section, noPager], .json: [width, spacing, insets], .svg: [width, spacing],
        ]
        for option in [width, spacing, insets, rows, section, noPager]
        where !(applying[format] ?? []).contains(option) && (arguments.value(option) != nil || arguments.flag(option)) {
            let formats = Format.allCases.filter { (applying[$0] ?? []).contains(option) }.map(\.rawValue)
            throw .usage("--\(option.name) applies to --format \(formats.joined(separator: " or ")), not \(format.rawValue)",
                         command: spec)
        }
        if format == .json, arguments.value(width) == nil,
           let given = [spacing, insets].first(where: { arguments.value($0) != nil }) {
            throw .usage("--\(given.name) goes with --width, which asks for pixel frames", command: spec)
        }
    }

    /// The pixel measurements for SVG, or for JSON with `--width`.
    private static func frameMetrics(_ arguments: ParsedArguments, format: Format) throws(CommandLineError) -> FrameMetrics? {
        guard format == .svg || arguments.value(width) != nil else { return nil }
        let length = try arguments.integer(width, in: 16...100_000, default: 360, for: spec)
        let gap = try arguments.integer(spacing, in: 0...1_000, default: format == .svg ? 4 : 0, for: spec)
        var edges = EdgeInsets()
        if let text = arguments.value(insets) {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 4 else {
                throw .usage("--insets is four numbers T,L,B,R (such as 8,16,8,16), not '\(ValueParser.abbreviated(text))'", command: spec)
            }
            var values: [Double] = []
            for (part, name) in zip(parts, ["top", "left", "bottom", "right"]) {
                values.append(try ValueParser.number(String(part), name: "--insets' \(name)", in: 0...100_000, command: spec))
            }
            edges = EdgeInsets(top: values[0], left: values[1], bottom: values[2], right: values[3])
        }
        do {
            return try FrameMetrics(crossAxisLength: Double(length), spacing: Double(gap), sectionInsets: edges)
        } catch {
            throw .usage(error.description, command: spec)
        }
    }

    /// `A..B` (both included) or `A..`.
    static func rowRange(_ text: String) throws(CommandLineError) -> ClosedRange<Int> {
        let parts = text.split(separator: "..", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else {
            throw .usage("--rows is A..B or A.. (such as 10..20), not '\(ValueParser.abbreviated(text))'", command: spec)
        }
        let lower = try ValueParser.integer(parts[0], name: "--rows' start", in: 0...Int.max - 1, command: spec)
        let upper = try parts[1].isEmpty
            ? Int.max - 1 : ValueParser.integer(parts[1], name: "--rows' end", in: 0...Int.max - 1, command: spec)
        guard lower <= upper else {
            throw .usage("--rows \(ValueParser.abbreviated(text)) ends before it starts", command: spec)
        }
        return lower...upper
    }

    /// `--viewport` with its scaling, for a honeycomb.
    private static func viewport(_ arguments: ParsedArguments) throws(CommandLineError) -> (rect: LayoutRect, scaling: EdgeScaling)? {
        guard let text = arguments.value(viewport) else {
            if let given = [edgeDistance, minimumScale, scaling].first(where: { arguments.value($0) != nil }) {
                throw .usage("--\(given.name) goes with --viewport", command: spec)
            }
            return nil
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
        let distance = try arguments.number(edgeDistance, in: 0.001...1e9, default: 70, for: spec)
        let scale = try arguments.number(minimumScale, in: 0...1, default: 0.4, for: spec)
        do {
            return (LayoutRect(x: values[0], y: values[1], width: values[2], height: values[3]),
                    try EdgeScaling(edgeDistance: distance, minimumScaleFactor: scale))
        } catch {
            throw .usage(error.description, command: spec)
        }
    }

    func run(in context: CommandContext) throws {
        let snapshot = try revision.map { try context.existingGrid().snapshot(at: $0) } ?? context.existingSnapshot()
        if snapshot.kind == .honeycomb {
            try showHoneycomb(snapshot, in: context)
            return
        }
        let name = CommandLineOutput.printable(snapshot.name)
        if viewportOption != nil {
            throw CommandLineError.usage("--viewport applies to honeycomb grids; '\(name)' is a grid of tiles", command: Self.spec)
        }
        if let sectionFilter, sectionFilter >= snapshot.layout.sections.count {
            throw GridError.sectionOutOfRange(sectionFilter, sectionCount: snapshot.layout.sections.count)
        }
        switch format {
        case .text:
            let renderer = TextGridRenderer(useColor: context.usesColor, maximumWidth: context.terminalWidth,
                                            rows: rowRange, section: sectionFilter)
            context.console.write(bytes: renderer.renderBytes(snapshot))
            if usesPager { context.console.pagesLongOutput = true }
        case .json:
            context.console.write(try framed(snapshot) { () throws(LayoutConfigurationError) in
                try metrics.map { metrics throws(LayoutConfigurationError) in try GridDocument.encode(snapshot, frames: metrics) }
                    ?? GridDocument.encode(snapshot)
            })
        case .svg:
            let length = widthGiven ? metrics?.crossAxisLength ?? 360 : SVGGridRenderer.defaultCrossAxisLength(columns: snapshot.columns)
            let renderer = SVGGridRenderer(crossAxisLength: length, spacing: metrics?.spacing ?? 4)
            context.console.write(try framed(snapshot) { () throws(LayoutConfigurationError) in try renderer.render(snapshot) })
        }
    }

    /// Runs `body`, turning pixel measurements that leave no room for the columns into a usage error.
    private func framed(_ snapshot: GridSnapshot, _ body: () throws(LayoutConfigurationError) -> String) throws(CommandLineError)
        -> String {
        do {
            return try body()
        } catch {
            let width = PrintedNumber.text(metrics?.crossAxisLength ?? 0), spacing = PrintedNumber.text(metrics?.spacing ?? 0)
            let insets = metrics?.sectionInsets == EdgeInsets() ? "" : " and the insets"
            throw .usage("--width \(width) with --spacing \(spacing)\(insets) leaves no room for \(snapshot.columns) columns; "
                         + "give a larger --width or a smaller --spacing", command: Self.spec)
        }
    }

    private func showHoneycomb(_ snapshot: GridSnapshot, in context: CommandContext) throws {
        if widthGiven {
            throw CommandLineError.usage("--width applies to grids of tiles; a honeycomb's frames come from its element width",
                                         command: Self.spec)
        }
        if rowRange != nil || sectionFilter != nil {
            throw CommandLineError.usage("--rows and --section apply to grids of tiles, not to a honeycomb", command: Self.spec)
        }
        // The grid's own curve, unless --scaling names another for this drawing.
        let viewportOption = try viewportOption.map { viewport in
            (rect: viewport.rect, scaling: try EdgeScaling(
                edgeDistance: viewport.scaling.edgeDistance, minimumScaleFactor: viewport.scaling.minimumScaleFactor,
                curve: scalingCurve ?? snapshot.honeycomb?.scalingCurve ?? .linear))
        }
        switch format {
        case .text:
            let renderer = HoneycombTextRenderer(maximumWidth: context.terminalWidth, viewport: viewportOption)
            context.console.write(renderer.render(snapshot))
            if usesPager { context.console.pagesLongOutput = true }
        case .json:
            context.console.write(viewportOption.map { GridDocument.encode(snapshot, visibleIn: $0.rect, scaling: $0.scaling) }
                                  ?? GridDocument.encode(snapshot))
        case .svg: context.console.write(HoneycombSVGRenderer(viewport: viewportOption).render(snapshot))
        }
    }
}
