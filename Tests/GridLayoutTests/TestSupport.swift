import GridLayout
import SeededRandom

/// The obvious packer: a set of taken cells, and a scan from the top (dense) or from the
/// previous tile (sparse) for every tile. Slow, simple, and the reference the fast one
/// is checked against.
enum ReferencePacker {
    static func pack(_ spans: [TileSpan], columns: Int, dense: Bool = true) -> [CellRect] {
        // A cell is its number in reading order: row y, column x is y * columns + x.
        var taken = Set<Int>()
        func isFree(x: Int, y: Int, _ span: TileSpan) -> Bool {
            for dy in 0..<span.height { for dx in 0..<span.width where taken.contains((y + dy) * columns + x + dx) { return false } }
            return true
        }
        var result: [CellRect] = []
        var cursor = (x: 0, y: 0)
        for span in spans {
            var (x, y) = dense ? (0, 0) : cursor
            while x + span.width > columns || !isFree(x: x, y: y, span) {
                x += 1
                if x + span.width > columns { x = 0; y += 1 }
            }
            for dy in 0..<span.height { for dx in 0..<span.width { taken.insert((y + dy) * columns + x + dx) } }
            result.append(CellRect(x: x, y: y, width: span.width, height: span.height))
            cursor = (x, y)
        }
        return result
    }
}

/// Random sizes from weights for small, middle and big.
func randomSizes(_ count: Int, weights: [Double] = [1, 1, 1], using generator: inout SeededGenerator) -> [TileSize] {
    let total = weights.reduce(0, +)
    return (0..<count).map { _ in
        var pick = Double.random(in: 0..<total, using: &generator)
        for (size, weight) in zip(TileSize.allCases, weights) {
            if pick < weight { return size }
            pick -= weight
        }
        return .big
    }
}

/// One cell, hashed without the allocation an array key costs.
private struct CellPoint: Hashable {
    var x: Int
    var y: Int
}

extension RandomAccessCollection where Element == CellRect {
    /// Every cell covered twice, if any: a packing must never overlap tiles.
    var overlappingCells: [[Int]] {
        var seen = Set<CellPoint>()
        var doubled: [[Int]] = []
        for rect in self {
            for x in rect.x..<(rect.x + rect.width) {
                for y in rect.y..<(rect.y + rect.height) where !seen.insert(CellPoint(x: x, y: y)).inserted {
                    doubled.append([x, y])
                }
            }
        }
        return doubled
    }
}
