import GridLayout
import GridStore

/// Draws a honeycomb as SVG hexagons labelled with their index; with a viewport, each cell
/// is drawn at its scale and the viewport is outlined.
struct HoneycombSVGRenderer {
    /// The viewport and how cells shrink near its edges, if any.
    var viewport: (rect: LayoutRect, scaling: EdgeScaling)?

    func render(_ snapshot: GridSnapshot) -> String {
        guard let layout = snapshot.honeycombLayout, let configuration = snapshot.honeycomb else { return "" }
        let margin = 8.0
        let size = layout.contentSize
        let width = size.width + 2 * margin, height = size.height + 2 * margin
        let fontSize = max(8, min(24, (configuration.elementWidth * 0.34).rounded()))
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(number(width))" height="\(number(height))" \
            viewBox="0 0 \(number(width)) \(number(height))" font-family="Helvetica, Arial, sans-serif">
            <title>\(SVGText.escaped(snapshot.name)): honeycomb of \(layout.itemCount) items, revision \(snapshot.revision)</title>
            <rect width="100%" height="100%" fill="#f7f7f5"/>
            <g transform="translate(\(number(margin)) \(number(margin)))">

            """
        let frames = layout.frames()
        let cells = layout.cells()
        let circumradius = configuration.elementWidth / 3.0.squareRoot()
        for item in 0..<layout.itemCount {
            let center = layout.center(of: cells[item])
            let scale = viewport.map { layout.scale(ofItem: item, in: $0.rect, scaling: $0.scaling) } ?? 1
            let radius = circumradius * scale
            let directions = configuration.orientation == .pointyTop ? Self.pointyCorners : Self.flatCorners
            let corners = directions.map { "\(number(center.x + radius * $0.x)),\(number(center.y + radius * $0.y))" }
            let visible = viewport.map { $0.rect.intersects(frames[item]) } ?? true
            svg += "<g class=\"cell\"><polygon points=\"\(corners.joined(separator: " "))\" fill=\"#3b82c4\" "
                + "fill-opacity=\"\(visible ? "1" : "0.35")\"/>"
            svg += "<text x=\"\(number(center.x))\" y=\"\(number(center.y))\" font-size=\"\(number(fontSize * scale))\" fill=\"#fff\" "
                + "text-anchor=\"middle\" dominant-baseline=\"central\">\(item)</text></g>\n"
        }
        if let viewport {
            let rect = viewport.rect
            svg += "<rect class=\"viewport\" x=\"\(number(rect.minX))\" y=\"\(number(rect.minY))\" width=\"\(number(rect.size.width))\" "
                + "height=\"\(number(rect.size.height))\" fill=\"none\" stroke=\"#d9772b\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n"
        }
        return svg + "</g>\n</svg>\n"
    }

    private func number(_ value: Double) -> String {
        PrintedNumber.text(value)
    }

    /// Unit vectors to a hexagon's corners: at 30° + 60°k for pointy-top cells, at 60°k for
    /// flat-top ones (exact values, so no trigonometry is needed).
    private static let half = 3.0.squareRoot() / 2
    private static let flatCorners: [LayoutPoint] = [
        .init(x: 1, y: 0), .init(x: 0.5, y: half), .init(x: -0.5, y: half),
        .init(x: -1, y: 0), .init(x: -0.5, y: -half), .init(x: 0.5, y: -half),
    ]
    private static let pointyCorners: [LayoutPoint] = flatCorners.map { LayoutPoint(x: -$0.y, y: $0.x) }
}
