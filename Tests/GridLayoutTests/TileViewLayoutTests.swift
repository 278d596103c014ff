import GridLayout
import SeededRandom
import Testing

/// The layout a collection view or a SwiftUI `Layout` asks for: what makes an iOS layout
/// survive rotation, split view, the first zero-width pass, insets and a data source that is
/// ahead of or behind the stored grid.
@Suite("A grid laid out in a view")
struct TileViewLayoutTests {
    let less = GridConfiguration(type: .less)

    @Test("a first pass at width 0, or a viewport its insets fill, gives zero-size frames and a zero size, never an error")
    func noRoom() {
        let grid = TileGrid(configuration: less, sections: [[.big, .small]])
        for viewport in [LayoutViewport(width: 0, height: 0), LayoutViewport(width: 100, height: 800, insets: EdgeInsets(left: 60, right: 60)),
                         LayoutViewport(width: .nan, height: 10), LayoutViewport(width: .infinity, height: 10), LayoutViewport(width: -5, height: 10),
                         LayoutViewport(width: 20, height: 10)] {
            let layout = TileViewLayout(grid: grid, viewport: viewport, spacing: 8)
            #expect(layout.frames == nil && layout.contentSize == .zero, "\(viewport)")
            #expect(layout.frame(at: GridIndexPath(item: 1)) == .zero && layout.frame(at: GridIndexPath(item: 2)) == nil)
            #expect(layout.frames(in: LayoutRect(x: 0, y: 0, width: 1_000, height: 1_000)).isEmpty)
            #expect(layout.item(at: LayoutPoint(x: 1, y: 1)) == nil)
        }
    }

    @Test("rotation and a resized split view invalidate; scrolling and a change along the scroll axis do not")
    func invalidation() {
        let portrait = LayoutViewport(width: 390, height: 844, insets: EdgeInsets(top: 47, bottom: 34))
        let vertical = TileViewLayout(grid: TileGrid(configuration: less, sections: [[.big]]), viewport: portrait)
        #expect(vertical.isInvalidated(by: LayoutViewport(width: 844, height: 390)))
        #expect(vertical.isInvalidated(by: LayoutViewport(width: 320, height: 844)))
        #expect(vertical.isInvalidated(by: LayoutViewport(width: 390, height: 844, insets: EdgeInsets(left: 44, right: 44))))
        #expect(!vertical.isInvalidated(by: portrait))
        #expect(!vertical.isInvalidated(by: LayoutViewport(width: 390, height: 500)))          // a keyboard
        let first = TileViewLayout(grid: TileGrid(configuration: less, sections: [[.big]]), viewport: LayoutViewport(width: 0, height: 0))
        #expect(first.isInvalidated(by: portrait))
        let horizontal = TileViewLayout(grid: TileGrid(configuration: GridConfiguration(type: .less, direction: .horizontal), sections: [[.big]]),
                                        viewport: portrait)
        #expect(horizontal.isInvalidated(by: LayoutViewport(width: 390, height: 600)))
        #expect(!horizontal.isInvalidated(by: LayoutViewport(width: 200, height: 844, insets: EdgeInsets(top: 47, bottom: 34))))
    }

    @Test("a horizontal grid takes its height across the scroll axis, less the top and bottom insets, and runs along x")
    func horizontalAxis() {
        let grid = TileGrid(configuration: GridConfiguration(type: .less, direction: .horizontal), sections: [[.middle, .small]])
        let layout = TileViewLayout(grid: grid, viewport: LayoutViewport(width: 1_000, height: 440, insets: EdgeInsets(top: 10, bottom: 30)))
        #expect(layout.frame(at: GridIndexPath(item: 0)) == LayoutRect(x: 0, y: 0, width: 200, height: 200))
        #expect(layout.frame(at: GridIndexPath(item: 1)) == LayoutRect(x: 0, y: 200, width: 100, height: 100))
        #expect(layout.contentSize == LayoutSize(width: 200, height: 400))
    }

    @Test("a bad spacing or inset is taken as 0 on its own, the others kept")
    func badValues() {
        let grid = TileGrid(configuration: less, sections: [[.small, .small]])
        let viewport = LayoutViewport(width: 432, height: 800)
        let nanSpacing = TileViewLayout(grid: grid, viewport: viewport, spacing: .nan, sectionInsets: EdgeInsets(left: 16, right: 16))
        #expect(nanSpacing.frame(at: GridIndexPath(item: 1)) == LayoutRect(x: 116, y: 0, width: 100, height: 100))
        let negativeInset = TileViewLayout(grid: grid, viewport: LayoutViewport(width: 424, height: 800), spacing: 8,
                                           sectionInsets: EdgeInsets(top: -1, left: 0, bottom: .infinity, right: 0))
        #expect(negativeInset.frame(at: GridIndexPath(item: 1)) == LayoutRect(x: 108, y: 0, width: 100, height: 100))
        #expect(TileViewLayout(grid: grid, viewport: LayoutViewport(width: 1e308, height: 10)).frames == nil)
    }

    @Test("a view shows at most as many items and sections as a stored grid holds; the rest have no frame")
    func limits() {
        let grid = TileGrid(configuration: less, sections: [[.big]])
        let huge = TileViewLayout(grid: grid, itemCounts: [Int.max, 5], viewport: LayoutViewport(width: 400, height: 800))
        #expect(huge.itemCounts == [1_000_000, 0])
        #expect(huge.frame(at: GridIndexPath(item: 999_999)) != nil && huge.frame(at: GridIndexPath(item: 0, section: 1)) == nil)
        let sections = TileViewLayout(grid: grid, itemCounts: Array(repeating: 0, count: 20_000), viewport: LayoutViewport(width: 400, height: 800))
        #expect(sections.itemCounts.count == 10_000)
    }

    @Test("the doc comment's example")
    func documented() {
        let grid = TileGrid(configuration: GridConfiguration(type: .less), sections: [[.big, .small]])
        let layout = TileViewLayout(grid: grid, itemCounts: [3], viewport: LayoutViewport(width: 320, height: 480), spacing: 8)
        #expect(layout.frame(at: GridIndexPath(item: 2)) == LayoutRect(x: 82, y: 164, width: 74, height: 74))
        #expect(layout.isInvalidated(by: LayoutViewport(width: 480, height: 320)))
    }

    @Test("the ideal length for unlimited room gives cells of the length asked for, section insets included")
    func idealLength() throws {
        let more = GridConfiguration(type: .more)
        #expect(TileViewLayout<DensePacking>.idealCrossAxisLength(for: more, cellLength: 80, spacing: 8) == 520)
        let insets = EdgeInsets(left: 16, right: 16)
        let length = TileViewLayout<DensePacking>.idealCrossAxisLength(for: more, cellLength: 80, spacing: 8, sectionInsets: insets)
        #expect(length == 552)
        let layout = TileViewLayout(grid: TileGrid(configuration: more, sections: [[.small]]),
                                    viewport: LayoutViewport(width: length, height: 0), spacing: 8, sectionInsets: insets)
        #expect(layout.frames?.cellLength == 80)
        let horizontal = GridConfiguration(type: .less, direction: .horizontal)
        #expect(TileViewLayout<DensePacking>.idealCrossAxisLength(for: horizontal, cellLength: 50, sectionInsets: EdgeInsets(top: 5, left: 99)) == 205)
        #expect(TileViewLayout<DensePacking>.idealCrossAxisLength(for: more, cellLength: -1, spacing: .nan) == 0)
        #expect(TileViewLayout<DensePacking>.idealCrossAxisLength(for: more, cellLength: 1e308) == 0)
    }

    /// Random grids, view counts and viewports, against a grid built from scratch with the
    /// view's counts and the frames of every item tested one by one.
    @Test("frames, hits and counts agree with a grid built with the view's counts, for any counts and viewport", arguments: 0..<40)
    func againstReference(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(9_100 + seed))
        let columns = Int.random(in: 4...8, using: &generator)
        let direction: ScrollDirection = Bool.random(using: &generator) ? .vertical : .horizontal
        let configuration = try GridConfiguration(columns: columns, direction: direction)
        let stored = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
            randomSizes(Int.random(in: 0...30, using: &generator), using: &generator)
        }
        let counts = (0..<Int.random(in: 0...4, using: &generator)).map { _ in Int.random(in: -2...35, using: &generator) }
        let missing = TileSize.allCases.randomElement(using: &generator)!
        let viewport = LayoutViewport(width: Double.random(in: -10...900, using: &generator), height: Double.random(in: -10...900, using: &generator),
                                      insets: EdgeInsets(top: Double.random(in: 0...50, using: &generator), left: Double.random(in: 0...50, using: &generator),
                                                         bottom: Double.random(in: 0...50, using: &generator), right: Double.random(in: 0...50, using: &generator)))
        let spacing = Double.random(in: 0...12, using: &generator)
        let layout = TileViewLayout(grid: TileGrid(configuration: configuration, sections: stored), itemCounts: counts,
                                    missingItemSize: missing, viewport: viewport, spacing: spacing)

        let shown = counts.enumerated().map { section, count in
            (0..<max(0, count)).map { item in section < stored.count && item < stored[section].count ? stored[section][item] : missing }
        }
        #expect(layout.itemCounts == shown.map(\.count), "seed \(seed)")
        let length = viewport.crossAxisLength(for: direction)
        let reference = try? GridFrames(grid: TileGrid(configuration: configuration, sections: shown),
                                        metrics: FrameMetrics(crossAxisLength: length, spacing: spacing))
        #expect((layout.frames == nil) == (reference == nil), "seed \(seed)")
        #expect(layout.contentSize == (reference?.contentSize ?? .zero), "seed \(seed)")
        var all: [(GridIndexPath, LayoutRect)] = []
        for (section, sizes) in shown.enumerated() {
            for item in sizes.indices {
                let path = GridIndexPath(item: item, section: section)
                let expected = reference?.frame(at: path)
                #expect(layout.frame(at: path) == expected ?? .zero, "seed \(seed), \(path)")
                if let expected { all.append((path, expected)) }
            }
            #expect(layout.frame(at: GridIndexPath(item: sizes.count, section: section)) == nil, "seed \(seed)")
        }
        #expect(layout.frame(at: GridIndexPath(item: 0, section: shown.count)) == nil, "seed \(seed)")
        #expect(layout.frame(at: GridIndexPath(item: -1, section: 0)) == nil, "seed \(seed)")
        for _ in 0..<5 {
            let query = LayoutRect(x: Double.random(in: -50...900, using: &generator), y: Double.random(in: -50...900, using: &generator),
                                   width: Double.random(in: 0...400, using: &generator), height: Double.random(in: 0...400, using: &generator))
            let found = layout.frames(in: query)
            let expected = all.filter { $0.1.intersects(query) }
            #expect(found.map(\.indexPath) == expected.map(\.0) && found.map(\.frame) == expected.map(\.1), "seed \(seed), \(query)")
        }
    }
}
