import GridLayout
import GridStore

/// Draws a honeycomb as a character map: each item's index where its cell is, rows offset
/// by half a cell as in the honeycomb.
///
/// ```
///       9     8     7
///   10     2     1    18
///      3     0     6    17
///   ...
/// ```
struct HoneycombTextRenderer {
    /// A honeycomb with more items is summarised in one line instead (a command that changes
    /// a grid sets this; `show` does not).
    var maximumItems: Int?

    /// The widest a line may be, in characters: the terminal's width.
    var maximumWidth = 80

    /// Items listed with their scale in this viewport, when set.
    var viewport: (rect: LayoutRect, scaling: EdgeScaling)?

    func render(_ snapshot: GridSnapshot) -> String {
        guard let layout = snapshot.honeycombLayout, let configuration = snapshot.honeycomb else { return "" }
        guard maximumWidth >= TerminalWidth.minimum else { return TerminalWidth.tooNarrow(maximumWidth) + "\n" }
        let count = layout.itemCount
        var text = GridHeadline.text(of: snapshot, width: maximumWidth) + "\n"
        if count == 0 { return text + "(no items)\n" }
        if let maximumItems, count > maximumItems {
            return text + note("(\(count) items are too many to draw here; 'gridstore show' draws them all)")
        }
        let cells = layout.cells()
        let slot = String(count - 1).count + 2
        // Doubled coordinates: a cell's column and line on the map.
        let positions: [(line: Int, column: Int)] = cells.map { cell in
            configuration.orientation == .pointyTop ? (cell.r, 2 * cell.q + cell.r) : (2 * cell.r + cell.q, cell.q)
        }
        let lines = positions.map(\.line), columns = positions.map(\.column)
        let firstLine = lines.min()!, firstColumn = columns.min()!
        let columnWidth = configuration.orientation == .pointyTop ? (slot + 1) / 2 : slot
        var map = [[Character]](repeating: [], count: lines.max()! - firstLine + 1)
        for (item, position) in positions.enumerated() {
            let line = position.line - firstLine
            let start = (position.column - firstColumn) * columnWidth
            let label = Array(String(item))
            let labelStart = start + (slot - label.count) / 2
            if map[line].count < labelStart + label.count {
                map[line].append(contentsOf: repeatElement(" ", count: labelStart + label.count - map[line].count))
            }
            for (offset, character) in label.enumerated() { map[line][labelStart + offset] = character }
        }
        // A map wider than the terminal is cut to its middle, around the center item.
        let mapWidth = map.map(\.count).max() ?? 0
        let cut = max(0, (mapWidth - maximumWidth + 1) / 2)
        for line in map {
            text += String(line.dropFirst(cut).prefix(maximumWidth)) + "\n"
        }
        if cut > 0 {
            text += note("(the middle \(maximumWidth) of \(mapWidth) columns; show --format svg draws all)")
        }
        if let viewport {
            let visible = layout.items(in: viewport.rect)
            text += note("viewport \(PrintedNumber.rect(viewport.rect)): \(visible.count) item\(visible.count == 1 ? "" : "s") visible")
            for item in visible {
                text += "  \(item)  scale \(PrintedNumber.text(layout.scale(ofItem: item, in: viewport.rect, scaling: viewport.scaling), decimals: 3))\n"
            }
        }
        return text
    }

    /// `text` wrapped to ``maximumWidth``, ending with a newline.
    private func note(_ text: String) -> String {
        HelpFormatter.wrap(text, width: maximumWidth).joined(separator: "\n") + "\n"
    }
}
