import GridLayout
import GridStore

/// Draws a grid as SVG: a title (the grid's name, layout and revision) and a legend of the
/// sizes' colours above the tiles; tiles as rounded rectangles colored by size and labelled
/// with their index where the label can be read; each section under a caption and separated
/// from the next by a rule.
struct SVGGridRenderer {
    /// The grid's length across its scroll axis in pixels: its width when vertical, its height when horizontal.
    var crossAxisLength: Double = 360
    /// The gap between cells, in pixels.
    var spacing: Double = 4

    static let captionHeight = 22.0
    static let margin = 8.0
    /// The title and legend band above the tiles.
    static let headerHeight = 56.0
    /// The narrowest drawing, so the title and legend have room.
    static let minimumWidth = 320.0
    /// The smallest label drawn: smaller ones cannot be read, so they are left out.
    static let smallestFontSize = 8.0

    /// The length across the scroll axis when none is given: 360 pixels, or 28 a column
    /// when there are more than 12, so that the labels stay legible.
    static func defaultCrossAxisLength(columns: Int) -> Double {
        max(360, Double(columns) * 28 + 2 * margin)
    }

    /// Fill colors by size: blue, green and orange, as the terminal colors the labels.
    static func fill(_ size: TileSize) -> String {
        switch size {
        case .small: "#3b82c4"
        case .middle: "#2f9e6a"
        case .big: "#d9772b"
        }
    }

    /// The SVG document.
    ///
    /// - Throws: ``LayoutConfigurationError`` when the length leaves no room for the columns.
    func render(_ snapshot: GridSnapshot) throws(LayoutConfigurationError) -> String {
        // Room for each section's caption above its tiles, in both directions.
        let insets = EdgeInsets(top: Self.captionHeight + Self.margin, left: Self.margin, bottom: Self.margin, right: Self.margin)
        let frames = try GridFrames(
            grid: snapshot.layout, metrics: FrameMetrics(crossAxisLength: crossAxisLength, spacing: spacing, sectionInsets: insets))
        let width = max(Self.minimumWidth, frames.contentSize.width)
        let height = frames.contentSize.height + Self.headerHeight
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(number(width))" height="\(number(height))" \
            viewBox="0 0 \(number(width)) \(number(height))" font-family="Helvetica, Arial, sans-serif">
            <title>\(SVGText.escaped(snapshot.name)): \(Self.layoutDescription(snapshot)), revision \(snapshot.revision)</title>
            <rect width="100%" height="100%" fill="#f7f7f5"/>

            """
        svg += header(snapshot)
        svg += "<g transform=\"translate(0 \(number(Self.headerHeight)))\">\n"
        for sectionIndex in snapshot.layout.sections.indices {
            svg += drawSection(sectionIndex, of: snapshot, frames: frames)
        }
        return svg + "</g>\n</svg>\n"
    }

    /// `more, 6 columns, vertical`; a horizontal grid's columns are rows on the screen.
    static func layoutDescription(_ snapshot: GridSnapshot) -> String {
        let unit = snapshot.direction == .vertical ? "columns" : "rows"
        return "\(snapshot.type?.rawValue ?? "custom"), \(snapshot.columns) \(unit), \(snapshot.direction.rawValue)"
    }

    /// The visible title and the legend.
    private func header(_ snapshot: GridSnapshot) -> String {
        var svg = "<g class=\"header\"><text x=\"\(number(Self.margin))\" y=\"20\" font-size=\"15\" font-weight=\"bold\" "
            + "fill=\"#333\">\(SVGText.escaped(snapshot.name)) · \(Self.layoutDescription(snapshot)) · revision \(snapshot.revision)</text>\n"
        var x = Self.margin
        for size in TileSize.allCases {
            svg += "<g class=\"legend \(size.rawValue)\"><rect x=\"\(number(x))\" y=\"32\" width=\"14\" height=\"14\" rx=\"3\" "
                + "fill=\"\(Self.fill(size))\"/><text x=\"\(number(x + 19))\" y=\"44\" font-size=\"12\" fill=\"#555\">"
                + "\(size.rawValue) \(Self.spanText(size, snapshot))</text></g>\n"
            x += 92
        }
        return svg + "</g>\n"
    }

    /// `1×1`, `2×2`, `4×2` as the size's tiles appear on the screen (transposed when horizontal).
    private static func spanText(_ size: TileSize, _ snapshot: GridSnapshot) -> String {
        let span = snapshot.layout.configuration.spans[size]
        return snapshot.direction == .vertical ? "\(span.width)×\(span.height)" : "\(span.height)×\(span.width)"
    }

    private func drawSection<Strategy>(_ sectionIndex: Int, of snapshot: GridSnapshot, frames: GridFrames<Strategy>) -> String {
        let section = snapshot.layout.sections[sectionIndex]
        let area = frames.sectionFrames[sectionIndex]
        var svg = ""
        if sectionIndex > 0 {
            svg += snapshot.direction == .vertical
                ? "<line x1=\"0\" y1=\"\(number(area.minY))\" x2=\"\(number(area.maxX))\" y2=\"\(number(area.minY))\" stroke=\"#9a9a9a\" stroke-dasharray=\"4 3\"/>\n"
                : "<line x1=\"\(number(area.minX))\" y1=\"0\" x2=\"\(number(area.minX))\" y2=\"\(number(area.maxY))\" stroke=\"#9a9a9a\" stroke-dasharray=\"4 3\"/>\n"
        }
        svg += "<g class=\"section\" data-section=\"\(sectionIndex)\">\n"
        svg += "<text x=\"\(number(area.minX + Self.margin))\" y=\"\(number(area.minY + Self.captionHeight - 6))\" "
            + "font-size=\"13\" fill=\"#555\">Section \(sectionIndex) · \(section.count) item\(section.count == 1 ? "" : "s")</text>\n"
        let cell = frames.cellLength
        let fontSize = max(Self.smallestFontSize, min(22, (cell * 0.42).rounded()))
        let radius = max(1, min(10, (cell * 0.14).rounded()))
        for item in 0..<section.count {
            let frame = frames.frame(at: GridIndexPath(item: item, section: sectionIndex))
            let tileSize = section.sizes[item]
            svg += "<g class=\"tile \(tileSize.rawValue)\"><rect x=\"\(number(frame.minX))\" y=\"\(number(frame.minY))\" "
                + "width=\"\(number(frame.size.width))\" height=\"\(number(frame.size.height))\" rx=\"\(number(radius))\" "
                + "fill=\"\(Self.fill(tileSize))\"/>"
            // A label is drawn only where it can be read: its digits fit the tile's width and height.
            let labelWidth = Double(String(item).count) * fontSize * 0.6
            if labelWidth <= frame.size.width - 2 && fontSize <= frame.size.height - 2 {
                svg += "<text x=\"\(number(frame.center.x))\" y=\"\(number(frame.center.y))\" font-size=\"\(number(fontSize))\" "
                    + "fill=\"#fff\" text-anchor=\"middle\" dominant-baseline=\"central\">\(item)</text>"
            }
            svg += "</g>\n"
        }
        return svg + "</g>\n"
    }

    private func number(_ value: Double) -> String {
        PrintedNumber.text(value)
    }
}
