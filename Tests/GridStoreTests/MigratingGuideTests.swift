import GridLayout
import Testing

/// What docs/migrating.md says about the original layouts, kept true.
@Suite("The migration guide")
struct MigratingGuideTests {
    @Test("items per row gives a 6-cell big tile for more; the standard more gives the original's 4")
    func itemsPerRow() throws {
        let (spans, columns) = try TileSpans.itemsPerRow(small: 6, middle: 3, big: 1)
        #expect(columns == 6 && spans.big.width == 6)
        #expect(GridConfiguration(type: .more).spans.big == TileSpan(width: 4, height: 2))
    }

    @Test("spans given as they should lie put a horizontal grid's big tile 4 along the scroll axis, as the original did")
    func horizontalAsTheOriginal() throws {
        let configuration = try GridConfiguration(columns: 4, spans: TileSpans(small: (1, 1), middle: (2, 2), big: (2, 4)),
                                                  direction: .horizontal)
        let grid = TileGrid(configuration: configuration, sections: [[.small, .big]])
        // A horizontal grid's rectangles are reported with x along the scroll axis: 4 along, 2 across.
        #expect(grid.sections[0][1].width == 4 && grid.sections[0][1].height == 2)
        let standard = TileGrid(configuration: GridConfiguration(type: .less, direction: .horizontal), sections: [[.small, .big]])
        #expect(standard.sections[0][1].width == 2 && standard.sections[0][1].height == 4)
    }

    @Test("edge scaling at half the distance: 0.7 in gridstore (the original gave 0.5)")
    func scaling() throws {
        let scaling = try EdgeScaling(edgeDistance: 70, minimumScaleFactor: 0.4)
        let viewport = LayoutRect(x: 0, y: 0, width: 1_000, height: 1_000)
        #expect(abs(scaling.scale(at: LayoutPoint(x: 35, y: 500), in: viewport) - 0.7) < 1e-9)
    }

    @Test("the original's curve gives 0.5 at half the distance, and the original ring order puts item 0 at the lower right")
    func originalOptions() throws {
        let original = try EdgeScaling(edgeDistance: 70, minimumScaleFactor: 0.4, curve: .original)
        let viewport = LayoutRect(x: 0, y: 0, width: 1_000, height: 1_000)
        #expect(abs(original.scale(at: LayoutPoint(x: 35, y: 500), in: viewport) - 0.5) < 1e-9)
        let layout = HoneycombLayout(itemCount: 7, configuration: try HoneycombConfiguration(centerItem: .last, ringOrder: .original))
        #expect(layout.coordinate(ofItem: 0) == HexCoordinate(q: 0, r: 1))
        #expect(layout.coordinate(ofItem: 6) == .origin)
    }
}
