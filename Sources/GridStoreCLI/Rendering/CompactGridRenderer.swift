import GridLayout
import GridStore

/// Draws a section with one character per cell, for grids whose columns do not fit the
/// terminal two characters each: `s`, `m` or `b` by the tile's size (in capitals for odd
/// items, so neighbouring tiles of one size stay apart), `·` for a hole, and the tile's index
/// over its first cells where it fits.
///
/// ```
/// 0m1b2bbb
/// mmBBbbbb
/// ```
struct CompactGridRenderer {
    /// The widest a line may be: a horizontal grid is drawn in bands that fit; a line of a
    /// vertical grid with more columns than this is cut.
    var maximumWidth = 80

    /// The line that explains the drawing.
    static let legend = "one character a cell: s small, m middle, b big (odd items in capitals), · a hole"

    /// Draws `rows` (in packing orientation) of `section`.
    func draw(_ section: TileGridSection<DensePacking>, rows: Range<Int>, direction: ScrollDirection,
              into output: inout [UInt8]) {
        for line in HelpFormatter.wrap(Self.legend, width: maximumWidth) { output.append(contentsOf: Array((line + "\n").utf8)) }
        let bands = direction == .horizontal
            ? TextGridRenderer.bands(of: section, rows: rows, fitting: max(1, maximumWidth)) : [rows]
        for band in bands {
            if band != rows {
                let label = "columns \(band.lowerBound) to \(band.upperBound - 1):"
                for line in HelpFormatter.wrap(label, width: maximumWidth) { output.append(contentsOf: Array((line + "\n").utf8)) }
            }
            drawBand(section, rows: band, direction: direction, into: &output)
        }
    }

    private func drawBand(_ section: TileGridSection<DensePacking>, rows: Range<Int>, direction: ScrollDirection,
                          into output: inout [UInt8]) {
        let across = section.packer.columns
        let (width, height) = direction == .vertical ? (across, rows.count) : (rows.count, across)
        var canvas = [[Character]](repeating: [Character](repeating: "·", count: width), count: height)
        for (item, rect) in TextGridRenderer.shownTiles(of: section, rows: rows, direction: direction) {
            let letter = Self.letter(section.sizes[item], odd: item % 2 == 1)
            for y in rect.y..<(rect.y + rect.height) {
                for x in rect.x..<(rect.x + rect.width) { canvas[y][x] = letter }
            }
            let label = Array(String(item))
            if label.count <= rect.width {
                for (offset, digit) in label.enumerated() { canvas[rect.y][rect.x + offset] = digit }
            }
        }
        for line in canvas {
            output.append(contentsOf: Array((String(line.prefix(max(1, maximumWidth))) + "\n").utf8))
        }
    }

    static func letter(_ size: TileSize, odd: Bool) -> Character {
        let letter: Character = switch size {
        case .small: "s"
        case .middle: "m"
        case .big: "b"
        }
        return odd ? Character(letter.uppercased()) : letter
    }
}
