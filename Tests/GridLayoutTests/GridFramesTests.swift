import GridLayout
import SeededRandom
import Testing

@Suite("GridFrames")
struct GridFramesTests {
    @Test("cells are (length - insets - (columns - 1) * spacing) / columns and square")
    func cellGeometry() throws {
        let grid = TileGrid(configuration: GridConfiguration(type: .less), sections: [[.big, .small, .middle]])
        let metrics = try FrameMetrics(crossAxisLength: 340, spacing: 8, sectionInsets: EdgeInsets(top: 5, left: 10, bottom: 7, right: 10))
        let frames = try GridFrames(grid: grid, metrics: metrics)
        #expect(frames.cellLength == 74)  // (340 - 10 - 10 - 3 * 8) / 4
        // big 4x2 at (0, 0): 4 cells and 3 gaps wide, 2 cells and 1 gap tall.
        #expect(frames.frame(at: GridIndexPath(item: 0)) == LayoutRect(x: 10, y: 5, width: 320, height: 156))
        // small at (0, 2) and middle at (1, 2).
        #expect(frames.frame(at: GridIndexPath(item: 1)) == LayoutRect(x: 10, y: 169, width: 74, height: 74))
        #expect(frames.frame(at: GridIndexPath(item: 2)) == LayoutRect(x: 92, y: 169, width: 156, height: 156))
        // 4 rows: 4 cells + 3 gaps, plus the insets.
        let height: Double = 5 + 4 * 74 + 3 * 8 + 7
        #expect(frames.contentSize == LayoutSize(width: 340, height: height))
    }

    @Test("sections stack along the scroll axis, each with its insets; empty sections keep their insets")
    func sections() throws {
        let grid = TileGrid(configuration: GridConfiguration(type: .more), sections: [[.small], [], [.middle]])
        let frames = try GridFrames(grid: grid, metrics: FrameMetrics(crossAxisLength: 60, spacing: 0, sectionInsets: EdgeInsets(all: 1)))
        #expect(frames.cellLength == 58.0 / 6)
        let cell = frames.cellLength
        #expect(frames.sectionFrames.map(\.size.height) == [cell + 2, 2, 2 * cell + 2])
        #expect(frames.sectionFrames.map(\.minY) == [0, cell + 2, cell + 4])
        #expect(frames.frame(at: GridIndexPath(item: 0, section: 2)).minY == cell + 4 + 1)
        #expect(frames.contentSize.height == 3 * cell + 6)
    }

    @Test("a horizontal grid's frames are the vertical ones transposed")
    func horizontal() throws {
        var generator = SeededGenerator(seed: 11)
        let sizes = randomSizes(100, using: &generator)
        let metrics = try FrameMetrics(crossAxisLength: 600, spacing: 4)
        let vertical = try GridFrames(grid: TileGrid(configuration: GridConfiguration(type: .more), sections: [sizes]), metrics: metrics)
        let horizontal = try GridFrames(
            grid: TileGrid(configuration: GridConfiguration(type: .more, direction: .horizontal), sections: [sizes]), metrics: metrics)
        for item in sizes.indices {
            let v = vertical.frame(at: GridIndexPath(item: item))
            let h = horizontal.frame(at: GridIndexPath(item: item))
            #expect(h == LayoutRect(x: v.minY, y: v.minX, width: v.size.height, height: v.size.width))
        }
        #expect(horizontal.contentSize == LayoutSize(width: vertical.contentSize.height, height: 600))
    }

    @Test("a container too small for its columns is rejected")
    func tooSmall() throws {
        let grid = TileGrid(configuration: GridConfiguration(type: .more), sections: [[.small]])
        #expect(throws: LayoutConfigurationError.self) {
            try GridFrames(grid: grid, metrics: FrameMetrics(crossAxisLength: 40, spacing: 8))
        }
        #expect(throws: LayoutConfigurationError.self) { try FrameMetrics(crossAxisLength: 100, spacing: -1) }
        #expect(throws: LayoutConfigurationError.self) { try FrameMetrics(crossAxisLength: .nan) }
    }

    @Test("items(in:) finds exactly the frames a full scan finds", arguments: [ScrollDirection.vertical, .horizontal])
    func itemsInRect(direction: ScrollDirection) throws {
        var generator = SeededGenerator(seed: 21)
        let sections = [randomSizes(300, using: &generator), [], randomSizes(150, weights: [1, 0, 4], using: &generator)]
        let grid = TileGrid(configuration: GridConfiguration(type: .more, direction: direction), sections: sections)
        let frames = try GridFrames(
            grid: grid, metrics: FrameMetrics(crossAxisLength: 320, spacing: 6, sectionInsets: EdgeInsets(top: 3, left: 4, bottom: 9, right: 2)))
        let all = sections.indices.flatMap { section in sections[section].indices.map { GridIndexPath(item: $0, section: section) } }
        for _ in 0..<500 {
            let x = Double.random(in: -50...(frames.contentSize.width + 50), using: &generator)
            let y = Double.random(in: -50...(frames.contentSize.height + 50), using: &generator)
            let rect = LayoutRect(x: x, y: y, width: Double.random(in: 0...400, using: &generator),
                                  height: Double.random(in: 0...400, using: &generator))
            let expected = all.filter { frames.frame(at: $0).intersects(rect) }
            #expect(frames.items(in: rect) == expected, "\(rect)")
        }
        #expect(frames.items(in: LayoutRect(x: 0, y: 0, width: frames.contentSize.width, height: frames.contentSize.height)) == all)
    }
}

@Suite("Geometry an app could pass")
struct HostileGeometryTests {
    @Test("rectangles that are not finite, or are vast, find nothing or everything, and never trap")
    func frames() throws {
        let grid = TileGrid(configuration: GridConfiguration(type: .less), sections: [[.small, .big, .middle, .small]])
        let frames = try GridFrames(grid: grid, metrics: FrameMetrics(crossAxisLength: 320, spacing: 8))
        for rect in [LayoutRect(x: 0, y: 0, width: .infinity, height: .infinity), LayoutRect(x: .nan, y: 0, width: 10, height: 10),
                     LayoutRect(x: 0, y: -.infinity, width: 10, height: 10), LayoutRect(x: 0, y: 0, width: -5, height: 10)] {
            #expect(frames.items(in: rect).isEmpty)
        }
        #expect(frames.items(in: LayoutRect(x: -1e300, y: -1e300, width: 2e300, height: 2e300)).count == 4)
        #expect(frames.items(in: LayoutRect(x: 0, y: 1e300, width: 10, height: 10)).isEmpty)
    }

    @Test("a honeycomb of Int.max items, and points that are not numbers, never trap")
    func honeycomb() throws {
        let huge = HoneycombLayout(itemCount: .max, configuration: try HoneycombConfiguration())
        #expect(huge.itemCount == HoneycombLayout.maximumItemCount)
        #expect(huge.contentSize.width.isFinite && huge.contentSize.height.isFinite)
        let small = HoneycombLayout(itemCount: 7, configuration: try HoneycombConfiguration())
        #expect(small.nearestCell(to: LayoutPoint(x: .nan, y: .nan)) == small.nearestCell(to: small.center(of: .origin)))
        _ = small.nearestCell(to: LayoutPoint(x: .infinity, y: -.infinity))
        _ = small.nearestCell(to: LayoutPoint(x: 1e300, y: -1e300))
        #expect(small.items(in: LayoutRect(x: .nan, y: 0, width: 1, height: 1)).isEmpty)
    }
}
