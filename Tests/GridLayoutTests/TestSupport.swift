import GridLayout
import SeededRandom

/// The obvious packer: a set of taken cells, and a scan from the top (dense) or from the
/// previous tile (sparse) for every tile. Slow, simple, and the reference the fast one
/// is checked against.
enum ReferencePacker {
    static func pack(_ spans: [TileSpan], columns: Int, dense: Bool = true) -> [CellRect] {
        var taken = Set<[Int]>()
        var result: [CellRect] = []
        var cursor = (x: 0, y: 0)
        for span in spans {
            var (x, y) = dense ? (0, 0) : cursor
            while true {
                if x + span.width <= columns,
                   (0..<span.width).allSatisfy({ dx in (0..<span.height).allSatisfy { dy in !taken.contains([x + dx, y + dy]) } }) {
                    break
                }
                x += 1
                if x + span.width > columns { x = 0; y += 1 }
            }
            for dx in 0..<span.width { for dy in 0..<span.height { taken.insert([x + dx, y + dy]) } }
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

extension RandomAccessCollection where Element == CellRect {
    /// Every cell covered twice, if any: a packing must never overlap tiles.
    var overlappingCells: [[Int]] {
        var seen = Set<[Int]>()
        var doubled: [[Int]] = []
        for rect in self {
            for x in rect.x..<(rect.x + rect.width) {
                for y in rect.y..<(rect.y + rect.height) where !seen.insert([x, y]).inserted {
                    doubled.append([x, y])
                }
            }
        }
        return doubled
    }
}
