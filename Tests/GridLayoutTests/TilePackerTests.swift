import GridLayout
import SeededRandom
import Testing

@Suite("TilePacker")
struct TilePackerTests {
    let small = TileSpan(width: 1, height: 1)
    let middle = TileSpan(width: 2, height: 2)
    let big = TileSpan(width: 4, height: 2)

    @Test("zero items: nothing placed, no rows")
    func empty() {
        let packer = TilePacker(columns: 6)
        #expect(packer.isEmpty)
        #expect(packer.extent == 0)
        let grid = TileGrid(configuration: GridConfiguration(type: .more), sections: [[]])
        #expect(grid.sections[0].extent == 0)
    }

    @Test("one item sits in the top-left corner")
    func single() {
        for span in [small, middle, big] {
            var packer = TilePacker(columns: 6)
            packer.append(span)
            #expect(Array(packer) == [CellRect(x: 0, y: 0, width: span.width, height: span.height)])
            #expect(packer.extent == span.height)
        }
    }

    @Test("a big tile fills a 4-column grid's row pair; the next tiles go below it")
    func bigInFourColumns() {
        var packer = TilePacker(columns: 4)
        packer.append(contentsOf: [small, big, small, middle, middle])
        #expect(Array(packer) == [
            CellRect(x: 0, y: 0, width: 1, height: 1),
            CellRect(x: 0, y: 1, width: 4, height: 2),
            CellRect(x: 1, y: 0, width: 1, height: 1),
            CellRect(x: 0, y: 3, width: 2, height: 2),
            CellRect(x: 2, y: 3, width: 2, height: 2),
        ])
        #expect(packer.extent == 5)
    }

    @Test("dense packing fills holes that sparse packing leaves")
    func denseFillsHoles() {
        let spans = [big, big, small]
        var dense = TilePacker(columns: 6)
        dense.append(contentsOf: spans)
        var sparse = TilePacker(columns: 6, strategy: .sparse)
        sparse.append(contentsOf: spans)
        // The second big tile does not fit beside the first, leaving a 2x2 hole; dense fills it.
        #expect(dense.map(\.description) == ["(0, 0, 4x2)", "(0, 2, 4x2)", "(4, 0, 1x1)"])
        #expect(sparse.map(\.description) == ["(0, 0, 4x2)", "(0, 2, 4x2)", "(4, 2, 1x1)"])
    }

    @Test("custom spans pack like the reference")
    func customSpans() throws {
        let spans = try TileSpans(small: (1, 2), middle: (3, 3), big: (5, 1))
        var generator = SeededGenerator(seed: 7)
        let sizes = randomSizes(300, using: &generator)
        let grid = TileGrid(configuration: try GridConfiguration(columns: 7, spans: spans), sections: [sizes])
        #expect(Array(grid.sections[0]) == ReferencePacker.pack(sizes.map { spans[$0] }, columns: 7))
    }

    @Test("1 and 64 columns work")
    func extremeColumns() {
        var one = TilePacker(columns: 1)
        one.append(contentsOf: [small, TileSpan(width: 1, height: 3), small])
        #expect(one.map(\.y) == [0, 1, 4])
        var wide = TilePacker(columns: 64)
        wide.append(contentsOf: [TileSpan(width: 64, height: 1), small, TileSpan(width: 63, height: 1), small])
        #expect(wide.map(\.description) == ["(0, 0, 64x1)", "(0, 1, 1x1)", "(1, 1, 63x1)", "(0, 2, 1x1)"])
    }

    @Test("random grids match the reference packer, densely and sparsely", arguments: [4, 5, 6, 8, 12, 17, 64])
    func randomAgainstReference(columns: Int) {
        var generator = SeededGenerator(seed: UInt64(columns))
        for round in 0..<20 {
            let count = Int.random(in: 0...400, using: &generator)
            let spans = (0..<count).map { _ in
                TileSpan(width: Int.random(in: 1...min(columns, 5), using: &generator), height: Int.random(in: 1...3, using: &generator))
            }
            var dense = TilePacker(columns: columns)
            dense.append(contentsOf: spans)
            #expect(Array(dense) == ReferencePacker.pack(spans, columns: columns), "round \(round)")
            var sparse = TilePacker(columns: columns, strategy: .sparse)
            sparse.append(contentsOf: spans)
            #expect(Array(sparse) == ReferencePacker.pack(spans, columns: columns, dense: false), "round \(round)")
            #expect(dense.overlappingCells.isEmpty)
        }
    }

    @Test("long batches, as a store's grids are loaded, match the reference in narrow and wide grids",
          arguments: [1, 2, 3, 4, 6, 8, 9, 64])
    func longBatchesAgainstReference(columns: Int) {
        var generator = SeededGenerator(seed: 7_000 + UInt64(columns))
        let kinds = [small, middle, big, TileSpan(width: 3, height: 1), TileSpan(width: 2, height: 5)].filter { $0.width <= columns }
        let spans = (0..<1_200).map { _ in kinds.randomElement(using: &generator)! }
        let reference = ReferencePacker.pack(spans, columns: columns)
        var whole = TilePacker(columns: columns)
        whole.append(contentsOf: spans)
        #expect(Array(whole) == reference)
        #expect(whole.extent == (reference.map { $0.y + $0.height }.max() ?? 0))
        // In batches of every length, so placement resumes from stored floors.
        var batched = TilePacker(columns: columns)
        var next = 0
        while next < spans.count {
            let length = Swift.min(spans.count - next, [1, 2, 700, 13, 530].randomElement(using: &generator)!)
            batched.append(contentsOf: spans[next..<(next + length)])
            next += length
        }
        #expect(Array(batched) == reference)
        // Re-packing from the middle resumes from lowered floors.
        whole.replaceSubrange(600..<601, with: [small])
        var edited = spans
        edited[600] = small
        #expect(Array(whole) == ReferencePacker.pack(edited, columns: columns))
    }

    @Test("incremental re-packing equals a full pack over long random edit sequences")
    func incrementalEqualsFull() {
        var generator = SeededGenerator(seed: 99)
        let choices = [small, middle, big, TileSpan(width: 3, height: 1), TileSpan(width: 1, height: 3)]
        for columns in [4, 6, 9] {
            for strategySparse in [false, true] {
                var dense = TilePacker(columns: columns)
                var sparse = TilePacker(columns: columns, strategy: .sparse)
                var spans: [TileSpan] = []
                for step in 0..<400 {
                    let count = spans.count
                    let lower = count == 0 ? 0 : Int.random(in: 0...count, using: &generator)
                    let upper = Int.random(in: lower...min(count, lower + 3), using: &generator)
                    let replacement = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                        choices.filter { $0.width <= columns }.randomElement(using: &generator)!
                    }
                    spans.replaceSubrange(lower..<upper, with: replacement)
                    if strategySparse {
                        sparse.replaceSubrange(lower..<upper, with: replacement)
                    } else {
                        dense.replaceSubrange(lower..<upper, with: replacement)
                    }
                    if step % 10 == 0 || step == 399 {
                        var fresh = TilePacker(columns: columns, strategy: strategySparse ? AnyStrategy.sparse : .dense)
                        fresh.append(contentsOf: spans)
                        let incremental = strategySparse ? Array(sparse) : Array(dense)
                        #expect(incremental == Array(fresh), "columns \(columns), step \(step)")
                        #expect((strategySparse ? sparse.extent : dense.extent) == fresh.extent)
                    }
                }
            }
        }
    }

    @Test("a tile grid's edits re-pack only their section and match a fresh grid")
    func gridEdits() {
        var generator = SeededGenerator(seed: 5)
        let configuration = GridConfiguration(type: .more)
        var grid = TileGrid(configuration: configuration, sections: [randomSizes(50, using: &generator), randomSizes(30, using: &generator)])
        for _ in 0..<300 {
            let section = Int.random(in: 0..<grid.sections.count, using: &generator)
            let count = grid.sections[section].count
            switch Int.random(in: 0..<5, using: &generator) {
            case 0 where count > 0:
                let path = GridIndexPath(item: Int.random(in: 0..<count, using: &generator), section: section)
                grid.setSize(grid.size(at: path).toggled(), at: path)
            case 1:
                grid.insertItem(TileSize.allCases.randomElement(using: &generator)!,
                                at: GridIndexPath(item: Int.random(in: 0...count, using: &generator), section: section))
            case 2 where count > 0:
                grid.removeItem(at: GridIndexPath(item: Int.random(in: 0..<count, using: &generator), section: section))
            case 3 where count > 0:
                let other = Int.random(in: 0..<grid.sections.count, using: &generator)
                let limit = grid.sections[other].count - (other == section ? 1 : 0)
                grid.moveItem(from: GridIndexPath(item: Int.random(in: 0..<count, using: &generator), section: section),
                              to: GridIndexPath(item: Int.random(in: 0...limit, using: &generator), section: other))
            case 4:
                grid.reconfigure(GridConfiguration(type: grid.configuration.columns == 6 ? .less : .more,
                                                   direction: Bool.random(using: &generator) ? .vertical : .horizontal))
            default:
                break
            }
            let fresh = TileGrid(configuration: grid.configuration, sections: grid.sections.map(\.sizes))
            #expect(grid.sections.map { Array($0) } == fresh.sections.map { Array($0) })
        }
    }

    @Test("moving an item keeps every other item's order")
    func moves() {
        var grid = TileGrid(configuration: GridConfiguration(type: .less), sections: [[.small, .middle, .big, .small], [.big]])
        grid.moveItem(from: GridIndexPath(item: 0), to: GridIndexPath(item: 3))
        #expect(grid.sections[0].sizes == [.middle, .big, .small, .small])
        grid.moveItem(from: GridIndexPath(item: 2), to: GridIndexPath(item: 0))
        #expect(grid.sections[0].sizes == [.small, .middle, .big, .small])
        grid.moveItem(from: GridIndexPath(item: 1), to: GridIndexPath(item: 0, section: 1))
        #expect(grid.sections.map(\.sizes) == [[.small, .big, .small], [.middle, .big]])
    }

    @Test("a custom strategy plugs in")
    func customStrategy() {
        struct OnePerRow: PackingStrategy {
            func position(for span: TileSpan, in grid: inout OccupancyGrid, after previous: CellPosition?) -> CellPosition {
                CellPosition(x: 0, y: grid.rowCount)
            }
        }
        var packer = TilePacker(columns: 4, strategy: OnePerRow())
        packer.append(contentsOf: [small, middle, small])
        #expect(packer.map(\.y) == [0, 1, 3])
    }

    @Test("a horizontal grid is the vertical packing transposed")
    func horizontal() {
        var generator = SeededGenerator(seed: 3)
        let sizes = randomSizes(200, using: &generator)
        let vertical = TileGrid(configuration: GridConfiguration(type: .more), sections: [sizes])
        let horizontal = TileGrid(configuration: GridConfiguration(type: .more, direction: .horizontal), sections: [sizes])
        #expect(Array(horizontal.sections[0]) == vertical.sections[0].map(\.transposed))
        #expect(horizontal.placement(at: GridIndexPath(item: 0)).height >= 1)
    }
}

/// A strategy chosen at run time, for tests that switch between the built-in ones.
struct AnyStrategy: PackingStrategy {
    let dense: Bool
    static let sparse = AnyStrategy(dense: false)
    static let dense = AnyStrategy(dense: true)

    func position(for span: TileSpan, in grid: inout OccupancyGrid, after previous: CellPosition?) -> CellPosition {
        dense ? grid.firstFit(of: span) : grid.firstFit(of: span, from: previous ?? .origin)
    }
}
