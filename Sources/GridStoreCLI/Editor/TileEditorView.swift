import GridLayout
import GridStore

/// Draws the part of a section of tiles that fits the screen's lines `area`, scrolled so that
/// the focused tile shows, with the focused tile in inverse video and its label in brackets.
struct TileEditorView {
    let section: TileGridSection<DensePacking>
    let direction: ScrollDirection
    let area: Range<Int>
    let width: Int

    /// Cell size in characters: as wide as the labels need, narrowed to the screen.
    var metrics: (width: Int, height: Int) {
        let columns = section.packer.columns
        let label = String(max(0, section.count - 1)).count + 2
        let across = direction == .vertical ? columns : max(1, section.extent)
        let fitting = max(3, (width - 1) / max(1, across))
        let room = direction == .vertical ? fitting : 9
        let cell = min(max(label + 1, min(11, room)), max(3, room))
        return (cell, cell >= 8 ? 3 : 2)
    }

    /// How many packing rows (along the scroll axis) fit.
    var visibleRows: Int {
        let (cellWidth, cellHeight) = metrics
        return direction == .vertical ? max(1, (area.count - 1) / cellHeight) : max(1, (width - 1) / cellWidth)
    }

    /// The first row to show so that `focus` is visible, moving `top` as little as possible.
    func scrolled(top: Int, toShow focus: Int?) -> Int {
        let rows = visibleRows
        var top = min(max(0, top), max(0, section.extent - rows))
        if let focus, focus >= 0, focus < section.count {
            let rect = section[focus]
            if rect.y < top { top = rect.y }
            if rect.y + rect.height > top + rows { top = max(0, min(rect.y, rect.y + rect.height - rows)) }
        }
        return top
    }

    /// Draws rows from `top` into `screen`.
    func draw(into screen: inout EditorScreen, top: Int, focus: Int?) {
        let (cellWidth, cellHeight) = metrics
        let rows = top..<(top + visibleRows)
        let across = section.packer.columns
        let (drawWidth, drawHeight) = direction == .vertical ? (across, rows.count) : (rows.count, across)
        var owner = [Int32](repeating: -1, count: drawWidth * drawHeight)
        var shown: [(item: Int, rect: CellRect)] = []
        for (item, packed) in section.packer.enumerated() where packed.y < rows.upperBound && packed.y + packed.height > rows.lowerBound {
            let lower = max(packed.y, rows.lowerBound), upper = min(packed.y + packed.height, rows.upperBound)
            let clipped = CellRect(x: packed.x, y: lower - rows.lowerBound, width: packed.width, height: upper - lower)
            let rect = direction == .vertical ? clipped : clipped.transposed
            shown.append((item, rect))
            for y in rect.y..<(rect.y + rect.height) {
                for x in rect.x..<(rect.x + rect.width) { owner[y * drawWidth + x] = Int32(item) }
            }
        }
        func at(_ x: Int, _ y: Int) -> Int32 {
            x >= 0 && x < drawWidth && y >= 0 && y < drawHeight ? owner[y * drawWidth + x] : -1
        }
        let firstLine = area.lowerBound
        for y in 0...drawHeight {
            for x in 0...drawWidth {
                // The corner at the top left of cell (x, y), then the edges to its right and below it.
                var mask = 0
                if at(x - 1, y - 1) != at(x, y - 1) { mask |= 1 }
                if at(x - 1, y) != at(x, y) { mask |= 2 }
                if at(x - 1, y - 1) != at(x - 1, y) { mask |= 4 }
                if at(x, y - 1) != at(x, y) { mask |= 8 }
                let line = firstLine + y * cellHeight, column = x * cellWidth
                guard line < area.upperBound else { continue }
                screen.put(String(Self.box[mask]), line: line, column: column)
                if x < drawWidth, mask & 8 != 0 {
                    screen.put(String(repeating: "─", count: cellWidth - 1), line: line, column: column + 1)
                }
                if y < drawHeight, mask & 2 != 0 {
                    for offset in 1..<cellHeight where line + offset < area.upperBound {
                        screen.put("│", line: line + offset, column: column)
                    }
                }
            }
        }
        for (item, rect) in shown {
            let interiorWidth = rect.width * cellWidth - 1, interiorHeight = rect.height * cellHeight - 1
            let left = rect.x * cellWidth + 1, topLine = firstLine + rect.y * cellHeight + 1
            let isFocus = item == focus
            var label = String(item)
            if isFocus && label.count + 2 <= interiorWidth { label = "[\(label)]" }
            let middle = topLine + (interiorHeight - 1) / 2
            if label.count <= interiorWidth, middle < area.upperBound {
                screen.put(label, line: middle, column: left + (interiorWidth - label.count) / 2,
                           attribute: EditorScreen.Attribute(size: section.sizes[item]))
            }
            if isFocus {
                for line in topLine..<min(topLine + interiorHeight, area.upperBound) {
                    screen.invert(line: line, columns: left..<(left + interiorWidth))
                }
            }
        }
    }

    /// The item drawn at screen `column` and `line` (from 0), if any.
    func item(atColumn column: Int, line: Int, top: Int) -> Int? {
        let (cellWidth, cellHeight) = metrics
        guard area.contains(line), column >= 0 else { return nil }
        let x = column / cellWidth, y = (line - area.lowerBound) / cellHeight
        let cell = direction == .vertical ? (x: x, y: top + y) : (x: y, y: top + x)
        return section.packer.enumerated().first { _, rect in
            rect.x <= cell.x && cell.x < rect.x + rect.width && rect.y <= cell.y && cell.y < rect.y + rect.height
        }?.offset
    }

    /// Box-drawing characters by which arms they have: up 1, down 2, left 4, right 8.
    static let box: [Character] = [" ", "╵", "╷", "│", "╴", "┘", "┐", "┤", "╶", "└", "┌", "├", "─", "┴", "┬", "┼"]
}
