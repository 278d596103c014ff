import GridLayout
import GridStore

/// Draws a grid as SVG: tiles as rounded rectangles colored by size and labelled with their
/// index, each section under a caption and separated from the next by a rule.
struct SVGGridRenderer {
    /// The grid's length across its scroll axis in pixels: its width when vertical, its height when horizontal.
    var crossAxisLength: Double = 360
    /// The gap between cells, in pixels.
    var spacing: Double = 4

    static let captionHeight = 22.0
    static let margin = 8.0

    /// Fill colors by size.
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
        let vertical = snapshot.direction == .vertical
        // Room for each section's caption above its tiles, in both directions.
        let insets = EdgeInsets(top: Self.captionHeight + Self.margin, left: Self.margin, bottom: Self.margin, right: Self.margin)
        let frames = try GridFrames(
            grid: snapshot.layout, metrics: FrameMetrics(crossAxisLength: crossAxisLength, spacing: spacing, sectionInsets: insets))
        let size = frames.contentSize
        let cell = frames.cellLength
        let fontSize = max(8, min(22, (cell * 0.42).rounded()))
        let radius = max(2, min(10, (cell * 0.14).rounded()))

        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(number(size.width))" height="\(number(size.height))" \
            viewBox="0 0 \(number(size.width)) \(number(size.height))" font-family="Helvetica, Arial, sans-serif">
            <title>\(SVGText.escaped(snapshot.name)): \(snapshot.type?.rawValue ?? "custom"), \(snapshot.columns) columns, \
            \(snapshot.direction.rawValue), revision \(snapshot.revision)</title>
            <rect width="100%" height="100%" fill="#f7f7f5"/>

            """
        for (sectionIndex, section) in snapshot.layout.sections.enumerated() {
            let area = frames.sectionFrames[sectionIndex]
            if sectionIndex > 0 {
                svg += vertical
                    ? "<line x1=\"0\" y1=\"\(number(area.minY))\" x2=\"\(number(area.maxX))\" y2=\"\(number(area.minY))\" stroke=\"#9a9a9a\" stroke-dasharray=\"4 3\"/>\n"
                    : "<line x1=\"\(number(area.minX))\" y1=\"0\" x2=\"\(number(area.minX))\" y2=\"\(number(area.maxY))\" stroke=\"#9a9a9a\" stroke-dasharray=\"4 3\"/>\n"
            }
            svg += "<g class=\"section\" data-section=\"\(sectionIndex)\">\n"
            svg += "<text x=\"\(number(area.minX + Self.margin))\" y=\"\(number(area.minY + Self.captionHeight - 6))\" "
                + "font-size=\"13\" fill=\"#555\">Section \(sectionIndex) · \(section.count) item\(section.count == 1 ? "" : "s")</text>\n"
            for item in 0..<section.count {
                let frame = frames.frame(at: GridIndexPath(item: item, section: sectionIndex))
                let tileSize = section.sizes[item]
                svg += "<g class=\"tile \(tileSize.rawValue)\"><rect x=\"\(number(frame.minX))\" y=\"\(number(frame.minY))\" "
                    + "width=\"\(number(frame.size.width))\" height=\"\(number(frame.size.height))\" rx=\"\(number(radius))\" "
                    + "fill=\"\(Self.fill(tileSize))\"/>"
                svg += "<text x=\"\(number(frame.center.x))\" y=\"\(number(frame.center.y))\" font-size=\"\(number(fontSize))\" "
                    + "fill=\"#fff\" text-anchor=\"middle\" dominant-baseline=\"central\">\(item)</text></g>\n"
            }
            svg += "</g>\n"
        }
        return svg + "</svg>\n"
    }

    private func number(_ value: Double) -> String {
        NumberText.number(value)
    }
}
