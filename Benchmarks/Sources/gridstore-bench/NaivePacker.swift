import GridLayout

/// The iOS original's way to find room: try candidate positions in reading order and test
/// each against every tile placed so far, with no occupancy map. The baseline the packer
/// is measured against.
enum NaivePacker {
    /// Searches from the first row that still has a free cell: O(n²) for n tiles, because
    /// every test scans all placed tiles.
    static func pack(_ spans: [TileSpan], columns: Int) -> [CellRect] {
        var placed: [CellRect] = []
        placed.reserveCapacity(spans.count)
        var firstOpenRow = 0
        for span in spans {
            while isFull(row: firstOpenRow, columns: columns, placed: placed) { firstOpenRow += 1 }
            placed.append(firstFit(span, columns: columns, from: firstOpenRow, placed: placed))
        }
        return placed
    }

    /// Searches from the top row for every tile, as the simplest reading of the original
    /// does: O(n³), since ever more rows are tested against ever more tiles.
    static func packFromTop(_ spans: [TileSpan], columns: Int) -> [CellRect] {
        var placed: [CellRect] = []
        placed.reserveCapacity(spans.count)
        for span in spans {
            placed.append(firstFit(span, columns: columns, from: 0, placed: placed))
        }
        return placed
    }

    private static func firstFit(_ span: TileSpan, columns: Int, from row: Int, placed: [CellRect]) -> CellRect {
        var y = row
        while true {
            for x in 0...(columns - span.width) {
                let candidate = CellRect(x: x, y: y, width: span.width, height: span.height)
                if !placed.contains(where: { $0.intersects(candidate) }) { return candidate }
            }
            y += 1
        }
    }

    private static func isFull(row: Int, columns: Int, placed: [CellRect]) -> Bool {
        (0..<columns).allSatisfy { x in
            let cell = CellRect(x: x, y: row, width: 1, height: 1)
            return placed.contains { $0.intersects(cell) }
        }
    }
}
