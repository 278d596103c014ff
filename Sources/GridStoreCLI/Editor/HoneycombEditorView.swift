import GridLayout
import GridStore

/// Draws a honeycomb as the character map `show` draws, scrolled so that the focused item
/// shows, with its label in brackets and inverse video.
struct HoneycombEditorView {
    /// Each item's line and first column on the whole map.
    let positions: [(line: Int, column: Int)]
    let slot: Int
    let area: Range<Int>
    let width: Int

    init(_ layout: HoneycombLayout, configuration: HoneycombConfiguration, area: Range<Int>, width: Int) {
        let count = layout.itemCount
        slot = String(max(0, count - 1)).count + 2
        let columnWidth = configuration.orientation == .pointyTop ? (slot + 1) / 2 : slot
        let doubled = layout.cells().map { cell in
            configuration.orientation == .pointyTop ? (cell.r, 2 * cell.q + cell.r) : (2 * cell.r + cell.q, cell.q)
        }
        let firstLine = doubled.map(\.0).min() ?? 0, firstColumn = doubled.map(\.1).min() ?? 0
        positions = doubled.map { (line: $0.0 - firstLine, column: ($0.1 - firstColumn) * columnWidth) }
        self.area = area
        self.width = width
    }

    /// The window's top line and left column so that `focus` shows, moving `origin` as little as possible.
    func scrolled(_ origin: (line: Int, column: Int), toShow focus: Int?) -> (line: Int, column: Int) {
        var origin = origin
        guard let focus, focus >= 0, focus < positions.count else { return origin }
        let position = positions[focus]
        if position.line < origin.line { origin.line = position.line }
        if position.line >= origin.line + area.count { origin.line = position.line - area.count + 1 }
        if position.column < origin.column { origin.column = max(0, position.column - 2) }
        if position.column + slot > origin.column + width { origin.column = position.column + slot - width + 2 }
        return origin
    }

    func draw(into screen: inout EditorScreen, origin: (line: Int, column: Int), focus: Int?) {
        for (item, position) in positions.enumerated() {
            let line = area.lowerBound + position.line - origin.line
            guard area.contains(line) else { continue }
            var label = String(item)
            if item == focus { label = "[\(label)]" }
            let column = position.column - origin.column + (slot - label.count) / 2
            screen.put(label, line: line, column: column)
            if item == focus { screen.invert(line: line, columns: column..<(column + label.count)) }
        }
    }

    /// The item whose label is nearest screen `column` on `line` (from 0), within its slot.
    func item(atColumn column: Int, line: Int, origin: (line: Int, column: Int)) -> Int? {
        let mapLine = line - area.lowerBound + origin.line, mapColumn = column + origin.column
        return positions.enumerated().filter { $0.element.line == mapLine }
            .min { abs($0.element.column + slot / 2 - mapColumn) < abs($1.element.column + slot / 2 - mapColumn) }
            .flatMap { abs($0.element.column + slot / 2 - mapColumn) <= slot ? $0.offset : nil }
    }

    /// Centers of items, in map characters (a line is about two columns tall), for spatial focus movement.
    var centers: [(x: Double, y: Double)] {
        positions.map { (Double($0.column) + Double(slot) / 2, Double($0.line) * 2) }
    }
}
