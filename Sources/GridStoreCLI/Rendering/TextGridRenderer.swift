import GridLayout
import GridStore

/// Draws a grid with box-drawing characters, each tile labelled with its index.
///
/// Cells are 11 characters wide and 2 lines tall for up to 6 columns, so a 6-column grid
/// fits 80 columns (73 characters); with more columns, or a narrower terminal, they narrow
/// down, and labels that no longer fit are left out. No line is wider than ``maximumWidth``:
/// a horizontal grid too long for it is drawn in bands, one under the other, and a grid whose
/// columns do not fit even two characters each is drawn compactly, one character per cell
/// (see ``CompactGridRenderer``). Holes are left blank. Labels are colored by size when
/// `useColor` is set (the command sets it for a terminal, unless `NO_COLOR` is set).
///
/// ```
/// ┌───────────┬───────────┬───────────────────────┐
/// │     0     │     1     │           2           │
/// │           │           │                       │
/// ├───────────┴───────────┤                       │
/// ```
struct TextGridRenderer {
    /// Whether to color the labels with ANSI escapes.
    var useColor = false

    /// When set, a section with more rows than this is drawn only in part: the rows around
    /// ``focus`` (or its first rows), with a line saying what was left out.
    var maximumRows: Int?

    /// The item the partial drawing is centred on: the one a command changed.
    var focus: GridIndexPath?

    /// The widest a line may be, in characters: the terminal's width.
    var maximumWidth = 80

    /// When set, only these rows (cells along the scroll axis) are drawn, widened so that no
    /// tile is cut.
    var rows: ClosedRange<Int>?

    /// When set, only this section is drawn.
    var section: Int?

    /// The drawing as UTF-8 bytes, ready to write out.
    func renderBytes(_ snapshot: GridSnapshot) -> [UInt8] {
        guard maximumWidth >= TerminalWidth.minimum else { return Array((TerminalWidth.tooNarrow(maximumWidth) + "\n").utf8) }
        var output: [UInt8] = []
        append(GridHeadline.text(of: snapshot, width: maximumWidth) + "\n", to: &output)
        let sections = snapshot.layout.sections
        if sections.isEmpty { append("(no sections)\n", to: &output) }
        let largestIndex = max(1, sections.map { $0.count }.max() ?? 1) - 1
        let metrics = CellMetrics(columns: snapshot.columns, largestLabel: decimalLength(largestIndex), maximumWidth: maximumWidth)
        for (index, section) in sections.enumerated() where self.section == nil || self.section == index {
            if sections.count > 1 {
                appendWrapped("section \(index) · \(section.count) item\(section.count == 1 ? "" : "s")", to: &output)
            }
            if section.isEmpty {
                append("(no items)\n", to: &output)
                continue
            }
            let rows = shownRows(of: section, index: index)
            let unit = snapshot.direction == .vertical ? "rows" : "columns"
            if rows.lowerBound > 0 {
                appendWrapped("⋮ \(unit) 0 to \(rows.lowerBound - 1) not shown", to: &output)
            }
            if let metrics {
                for band in bands(of: section, rows: rows, direction: snapshot.direction, metrics: metrics) {
                    if band != rows { appendWrapped("\(unit) \(band.lowerBound) to \(band.upperBound - 1):", to: &output) }
                    draw(section, rows: band, direction: snapshot.direction, metrics: metrics, into: &output)
                }
            } else {
                CompactGridRenderer(maximumWidth: maximumWidth)
                    .draw(section, rows: rows, direction: snapshot.direction, into: &output)
            }
            appendKeys(of: snapshot, section: index, rows: rows, to: &output)
            if rows.upperBound < section.extent {
                appendWrapped("⋮ \(unit) \(rows.upperBound) to \(section.extent - 1) not shown; 'gridstore show --rows A..B' draws others",
                              to: &output)
            }
        }
        return output
    }

    /// `keys: 0 mail · 2 news`, wrapped to the width: the keys of the items drawn, when the section has any.
    private func appendKeys(of snapshot: GridSnapshot, section: Int, rows: Range<Int>, to output: inout [UInt8]) {
        guard let keys = try? snapshot.keys(inSection: section), keys.contains(where: { $0 != nil }) else { return }
        let tiles = snapshot.layout.sections[section].packer
        var entries: [String] = []
        for (item, key) in keys.enumerated() {
            guard let key, rows.contains(tiles[item].y) else { continue }
            entries.append("\(item) \(key)")
        }
        guard !entries.isEmpty else { return }
        appendWrapped("keys: " + entries.joined(separator: " · "), to: &output)
    }

    /// The rows (in packing orientation) to draw: ``rows``, else all, or at most
    /// ``maximumRows`` around the focus; widened so that no tile is cut.
    private func shownRows(of section: TileGridSection<DensePacking>, index: Int) -> Range<Int> {
        let extent = section.extent
        if let rows {
            let lower = min(rows.lowerBound, extent), upper = min(rows.upperBound + 1, extent)
            return Self.widened(lower..<max(lower, upper), in: section)
        }
        guard let maximumRows, extent > maximumRows else { return 0..<extent }
        var focusRow = 0
        if let focus, focus.section == index, focus.item >= 0, focus.item < section.count {
            focusRow = section.packer[focus.item].y
        }
        let start = max(0, min(focusRow - maximumRows / 4, extent - maximumRows))
        return Self.widened(start..<(start + maximumRows), in: section)
    }

    /// `rows`, widened until every tile that overlaps them lies wholly within them.
    static func widened(_ rows: Range<Int>, in section: TileGridSection<DensePacking>) -> Range<Int> {
        var rows = rows
        var widened = !rows.isEmpty
        while widened {
            widened = false
            for rect in section.packer where rect.y < rows.upperBound && rect.y + rect.height > rows.lowerBound
                && (rect.y < rows.lowerBound || rect.y + rect.height > rows.upperBound) {
                rows = min(rows.lowerBound, rect.y)..<max(rows.upperBound, rect.y + rect.height)
                widened = true
            }
        }
        return rows
    }

    /// `rows` split into bands that each fit ``maximumWidth`` and cut no tile: one band for a
    /// vertical grid, whose rows run down the screen; as many as needed for a horizontal one.
    private func bands(of section: TileGridSection<DensePacking>, rows: Range<Int>, direction: ScrollDirection,
                       metrics: CellMetrics) -> [Range<Int>] {
        guard direction == .horizontal else { return [rows] }
        return Self.bands(of: section, rows: rows, fitting: max(1, (maximumWidth - 1) / metrics.width))
    }

    /// `rows` split into bands of at most `fitting` rows (fewer where a tile would be cut).
    static func bands(of section: TileGridSection<DensePacking>, rows: Range<Int>, fitting: Int) -> [Range<Int>] {
        // A row boundary no tile crosses.
        var crossed = [Bool](repeating: false, count: section.extent + 1)
        for rect in section.packer where rect.height > 1 {
            for row in (rect.y + 1)..<(rect.y + rect.height) { crossed[row] = true }
        }
        var result: [Range<Int>] = []
        var start = rows.lowerBound
        while start < rows.upperBound {
            var end = min(rows.upperBound, start + fitting)
            while end < rows.upperBound && end > start + 1 && crossed[end] { end -= 1 }
            result.append(start..<end)
            start = end
        }
        return result
    }

    /// How many characters and lines one cell takes, its boundary included.
    struct CellMetrics {
        var width: Int
        var height: Int

        /// Cells as wide as the label of the largest index needs, up to 12 characters, narrowed
        /// to fit `maximumWidth`; `nil` when even two characters a cell do not fit.
        init?(columns: Int, largestLabel: Int, maximumWidth: Int) {
            let fitting = (maximumWidth - 1) / max(1, columns)
            width = min(max(largestLabel + 2, min(12, 79 / max(1, columns))), fitting)
            guard width >= 2 else { return nil }
            height = width >= 8 ? 3 : 2
        }
    }

    /// Where a tile's label goes: its line and first column on the section's canvas.
    struct Label: LabelPlacement {
        var line: Int
        var column: Int
        var item: Int
        var length: Int
        var size: TileSize
    }

    /// Draws the tiles of `section` within `rows` (in packing orientation: rows along the scroll axis).
    private func draw(_ section: TileGridSection<DensePacking>, rows: Range<Int>, direction: ScrollDirection,
                      metrics: CellMetrics, into output: inout [UInt8]) {
        // The drawn part's size in cells, in the orientation it is drawn.
        let across = section.packer.columns
        let (width, height) = direction == .vertical ? (across, rows.count) : (rows.count, across)
        let shown = Self.shownTiles(of: section, rows: rows, direction: direction)
        let boundaries = Boundaries(width: width, height: height, tiles: shown)
        let labels = LineLabels(shown, sizes: section.sizes, metrics: metrics, canvasHeight: height * metrics.height + 1,
                                length: decimalLength)
        writeLines(boundaries, labels: labels, metrics: metrics, into: &output)
    }

    /// Each tile that overlaps `rows`, cut to them, relative to the first row and in the
    /// drawing's orientation. A band of a horizontal grid may cut a tile when no row
    /// boundary within the width is free of tiles; each band then draws its part.
    static func shownTiles(of section: TileGridSection<DensePacking>, rows: Range<Int>,
                           direction: ScrollDirection) -> [(item: Int, rect: CellRect)] {
        var shown: [(item: Int, rect: CellRect)] = []
        for (item, packed) in section.packer.enumerated() where packed.y < rows.upperBound && packed.y + packed.height > rows.lowerBound {
            let lower = max(packed.y, rows.lowerBound), upper = min(packed.y + packed.height, rows.upperBound)
            let cut = CellRect(x: packed.x, y: lower - rows.lowerBound, width: packed.width, height: upper - lower)
            shown.append((item, direction == .vertical ? cut : cut.transposed))
        }
        return shown
    }

    /// Where lines are drawn: between two different tiles, and between a tile and empty space.
    struct Boundaries {
        let width: Int
        let height: Int
        /// `vertical[y * (width + 1) + x]`: a line between cells (x - 1, y) and (x, y).
        private(set) var vertical: [Bool]
        /// `horizontal[y * width + x]`: a line between cells (x, y - 1) and (x, y).
        private(set) var horizontal: [Bool]

        init(width: Int, height: Int, tiles: [(item: Int, rect: CellRect)]) {
            self.width = width
            self.height = height
            var owner = [Int32](repeating: -1, count: width * height)
            for (item, rect) in tiles {
                for y in rect.y..<(rect.y + rect.height) {
                    for x in rect.x..<(rect.x + rect.width) { owner[y * width + x] = Int32(item) }
                }
            }
            vertical = [Bool](repeating: false, count: (width + 1) * height)
            for y in 0..<height {
                var left: Int32 = -1
                for x in 0...width {
                    let right = x < width ? owner[y * width + x] : -1
                    vertical[y * (width + 1) + x] = left != right
                    left = right
                }
            }
            horizontal = [Bool](repeating: false, count: width * (height + 1))
            for y in 0...height {
                for x in 0..<width {
                    let above = y > 0 ? owner[(y - 1) * width + x] : -1
                    let below = y < height ? owner[y * width + x] : -1
                    horizontal[y * width + x] = above != below
                }
            }
        }

        /// The junction at the corner of cell (x, y): which of its four arms are drawn.
        func junction(x: Int, y: Int) -> UInt8 {
            var mask: UInt8 = 0
            if y > 0 && vertical[(y - 1) * (width + 1) + x] { mask |= Glyph.up }
            if y < height && vertical[y * (width + 1) + x] { mask |= Glyph.down }
            if x > 0 && horizontal[y * width + x - 1] { mask |= Glyph.left }
            if x < width && horizontal[y * width + x] { mask |= Glyph.right }
            return mask
        }
    }

    /// The labels, grouped by the line they are on, left to right within a line.
    struct LineLabels {
        /// `labels[lineStarts[l]..<lineStarts[l + 1]]` are on line `l`.
        private(set) var labels: [Label] = []
        private(set) var lineStarts: [Int]
        /// The most labels on one line.
        private(set) var widestLine = 0

        init(_ tiles: [(item: Int, rect: CellRect)], sizes: [TileSize], metrics: CellMetrics, canvasHeight: Int,
             length: (Int) -> Int) {
            lineStarts = [Int](repeating: 0, count: canvasHeight + 1)
            var placed: [Label] = []
            placed.reserveCapacity(tiles.count)
            for (item, rect) in tiles {
                let interiorWidth = rect.width * metrics.width - 1
                // A label that does not fit its tile is left out rather than cut.
                guard length(item) <= interiorWidth else { continue }
                let interiorHeight = rect.height * metrics.height - 1
                let line = rect.y * metrics.height + 1 + (interiorHeight - 1) / 2
                let column = rect.x * metrics.width + 1 + max(0, (interiorWidth - length(item)) / 2)
                placed.append(Label(line: line, column: column, item: item, length: length(item), size: sizes[item]))
                lineStarts[line + 1] += 1
            }
            for line in 0..<canvasHeight {
                widestLine = max(widestLine, lineStarts[line + 1])
                lineStarts[line + 1] += lineStarts[line]
            }
            labels = placed
            var next = lineStarts
            for label in placed {
                labels[next[label.line]] = label
                next[label.line] += 1
            }
            for line in 0..<canvasHeight where lineStarts[line + 1] - lineStarts[line] > 1 {
                labels[lineStarts[line]..<lineStarts[line + 1]].sort { $0.column < $1.column }
            }
        }

        func on(line: Int) -> ArraySlice<Label> { labels[lineStarts[line]..<lineStarts[line + 1]] }
    }

    /// Writes every line of the canvas: boundaries, then the labels over them, as UTF-8.
    private func writeLines(_ boundaries: Boundaries, labels: LineLabels, metrics: CellMetrics, into output: inout [UInt8]) {
        let width = boundaries.width
        let canvasWidth = width * metrics.width + 1, canvasHeight = boundaries.height * metrics.height + 1
        var line = [UInt8](repeating: Glyph.space, count: canvasWidth)
        // Room for every code as a 3-byte glyph and every label's color escapes.
        var encoded = [UInt8](repeating: 0, count: canvasWidth * 3 + labels.widestLine * Glyph.colorBytes)
        // Grown geometrically: reserving just what this section needs would copy the whole
        // drawing once per section, quadratic in the number of sections.
        let needed = output.count + canvasHeight * (canvasWidth * 3 + 1)
        if needed > output.capacity { output.reserveCapacity(max(needed, output.capacity * 2)) }
        for lineIndex in 0..<canvasHeight {
            let gy = lineIndex / metrics.height
            let isBoundary = lineIndex % metrics.height == 0
            for gx in 0...width {
                let column = gx * metrics.width
                let fill: UInt8
                if isBoundary {
                    let mask = boundaries.junction(x: gx, y: gy)
                    line[column] = mask == 0 ? Glyph.space : Glyph.box | mask
                    fill = gx < width && boundaries.horizontal[gy * width + gx] ? Glyph.horizontalLine : Glyph.space
                } else {
                    line[column] = boundaries.vertical[gy * (width + 1) + gx] ? Glyph.verticalLine : Glyph.space
                    fill = Glyph.space
                }
                if gx < width {
                    for offset in 1..<metrics.width { line[column + offset] = fill }
                }
            }
            let lineLabels = labels.on(line: lineIndex)
            for label in lineLabels { writeDecimal(label.item, length: label.length, into: &line, at: label.column) }
            var end = canvasWidth
            while end > 0 && line[end - 1] == Glyph.space { end -= 1 }
            let written = encoded.withUnsafeMutableBufferPointer { bytes in
                line.withUnsafeBufferPointer { codes in
                    Glyph.encode(codes[0..<end], labels: useColor ? lineLabels : [][...], into: bytes)
                }
            }
            output.append(contentsOf: encoded[0..<written])
            output.append(UInt8(ascii: "\n"))
        }
    }

    func decimalLength(_ value: Int) -> Int {
        var length = 1
        var remaining = value
        while remaining >= 10 {
            remaining /= 10
            length += 1
        }
        return length
    }

    /// Writes the last `length` decimal digits of `value` at `position`.
    private func writeDecimal(_ value: Int, length: Int, into line: inout [UInt8], at position: Int) {
        var remaining = value
        for offset in stride(from: length - 1, through: 0, by: -1) {
            line[position + offset] = UInt8(remaining % 10) + UInt8(ascii: "0")
            remaining /= 10
        }
    }

    private func append(_ text: String, to output: inout [UInt8]) {
        output.append(contentsOf: text.utf8)
    }

    /// `text` wrapped to the width, continuation lines indented by two, and a newline.
    private func appendWrapped(_ text: String, to output: inout [UInt8]) {
        append(HelpFormatter.wrap(text, width: maximumWidth - 2).joined(separator: "\n  ") + "\n", to: &output)
    }
}

/// A label's position and length on a line, and the size that colors it.
protocol LabelPlacement {
    var column: Int { get }
    var length: Int { get }
    var size: TileSize { get }
}

/// The canvas's codes: ASCII bytes stand for themselves; `box | mask` is a line junction.
private enum Glyph {
    static let space = UInt8(ascii: " ")
    static let box: UInt8 = 0x80
    static let up: UInt8 = 1
    static let down: UInt8 = 2
    static let left: UInt8 = 4
    static let right: UInt8 = 8
    static let horizontalLine = box | left | right
    static let verticalLine = box | up | down

    /// The UTF-8 of the box-drawing character for each mask of up, down, left and right,
    /// three bytes each (the empty mask is a space padded with two zero bytes, never used).
    private static let junctions: [UInt8] = [
        " ", "│", "│", "│", "─", "┘", "┐", "┤", "─", "└", "┌", "├", "─", "┴", "┬", "┼",
    ].flatMap { glyph -> [UInt8] in
        let bytes = Array(glyph.utf8)
        return bytes + [UInt8](repeating: 0, count: 3 - bytes.count)
    }

    /// Writes the UTF-8 of `codes` into `bytes`, wrapping each label in its size's color.
    ///
    /// - Returns: The number of bytes written.
    static func encode(_ codes: Slice<UnsafeBufferPointer<UInt8>>, labels: ArraySlice<some LabelPlacement>,
                       into bytes: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var count = 0
        var nextLabel = labels.startIndex
        var column = codes.startIndex
        while column < codes.endIndex {
            if nextLabel < labels.endIndex, labels[nextLabel].column == column {
                let label = labels[nextLabel]
                for byte in color(label.size) { bytes[count] = byte; count += 1 }
                for offset in 0..<label.length { bytes[count] = codes[column + offset]; count += 1 }
                for byte in reset { bytes[count] = byte; count += 1 }
                column += label.length
                nextLabel += 1
                continue
            }
            let code = codes[column]
            if code & box != 0 {
                let start = Int(code & 0x0F) * 3
                bytes[count] = junctions[start]
                bytes[count + 1] = junctions[start + 1]
                bytes[count + 2] = junctions[start + 2]
                count += 3
            } else {
                bytes[count] = code
                count += 1
            }
            column += 1
        }
        return count
    }

    static let reset = Array("\u{1B}[0m".utf8)

    /// The most bytes a label's color escapes take.
    static let colorBytes = 16

    static func color(_ size: TileSize) -> [UInt8] {
        switch size {
        // Blue, green and yellow (orange on most palettes), as the SVG colors the tiles.
        case .small: Array("\u{1B}[1;34m".utf8)
        case .middle: Array("\u{1B}[1;32m".utf8)
        case .big: Array("\u{1B}[1;33m".utf8)
        }
    }
}
