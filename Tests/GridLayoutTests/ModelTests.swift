import GridLayout
import Testing

@Suite("Sizes, types and configurations")
struct ModelTests {
    @Test("toggling cycles small → middle → big → small")
    func toggleSizes() {
        #expect(TileSize.small.toggled() == .middle)
        #expect(TileSize.middle.toggled() == .big)
        #expect(TileSize.big.toggled() == .small)
    }

    @Test("less has 4 columns, more has 6, and they toggle into each other")
    func layoutTypes() throws {
        #expect(LayoutType.less.columns == 4)
        #expect(LayoutType.more.columns == 6)
        #expect(LayoutType.less.toggled() == .more)
        #expect(LayoutType.more.toggled() == .less)
        #expect(LayoutType(columns: 4) == .less)
        #expect(LayoutType(columns: 5) == nil)
        #expect(GridConfiguration(type: .more).columns == 6)
        #expect(try GridConfiguration(columns: 8).type == nil)
    }

    @Test("the standard spans are 1x1, 2x2 and 4x2")
    func standardSpans() {
        let spans = TileSpans.standard
        #expect([spans.small, spans.middle, spans.big].map(\.description) == ["1x1", "2x2", "4x2"])
    }

    @Test("items per row gives whole spans: 3, 1.5, 1 is 3 columns of 1x1, 2x2, 3x2")
    func itemsPerRow() throws {
        let (spans, columns) = try TileSpans.itemsPerRow(small: 3, middle: 1.5, big: 1)
        #expect(columns == 3)
        #expect([spans.small, spans.middle, spans.big].map(\.description) == ["1x1", "2x2", "3x2"])
        let standard = try TileSpans.itemsPerRow(small: 6, middle: 3, big: 1.5)
        #expect(standard.spans == .standard && standard.columns == 6)
        let less = try TileSpans.itemsPerRow(small: 4, middle: 2, big: 1)
        #expect(less.spans == .standard && less.columns == 4)
    }

    @Test("items per row that do not give whole spans are rejected with a clear error")
    func itemsPerRowRejected() {
        #expect(throws: LayoutConfigurationError.itemsPerRowNotWhole(.middle, itemsPerRow: 3, columns: 4)) {
            try TileSpans.itemsPerRow(small: 4, middle: 3, big: 1)
        }
        #expect(throws: LayoutConfigurationError.smallItemsPerRowInvalid(2.5)) {
            try TileSpans.itemsPerRow(small: 2.5, middle: 1, big: 1)
        }
        #expect(throws: LayoutConfigurationError.spanWiderThanGrid(.big, width: 8, columns: 4)) {
            try TileSpans.itemsPerRow(small: 4, middle: 2, big: 0.5)
        }
        #expect(throws: LayoutConfigurationError.itemsPerRowNotWhole(.big, itemsPerRow: 0, columns: 4)) {
            try TileSpans.itemsPerRow(small: 4, middle: 2, big: 0)
        }
        #expect(throws: LayoutConfigurationError.smallItemsPerRowInvalid(.infinity)) {
            try TileSpans.itemsPerRow(small: .infinity, middle: 2, big: 1)
        }
        let error = LayoutConfigurationError.itemsPerRowNotWhole(.middle, itemsPerRow: 3, columns: 4)
        #expect(error.description
                == "3 middle items per row would make each 1.33 of 4 columns wide; choose a count that divides 4 into whole cells")
    }

    @Test("configurations with spans wider than the grid or bad column counts are rejected")
    func invalidConfigurations() throws {
        #expect(throws: LayoutConfigurationError.spanWiderThanGrid(.big, width: 4, columns: 3)) {
            try GridConfiguration(columns: 3)
        }
        #expect(throws: LayoutConfigurationError.columnsOutOfRange(0)) { try GridConfiguration(columns: 0) }
        #expect(throws: LayoutConfigurationError.columnsOutOfRange(65)) { try GridConfiguration(columns: 65) }
        #expect(throws: LayoutConfigurationError.invalidSpan(.middle, width: 0, height: 2)) {
            try TileSpans(small: (1, 1), middle: (0, 2), big: (4, 2))
        }
        let narrow = try TileSpans(small: (1, 1), middle: (1, 2), big: (2, 2))
        #expect(try GridConfiguration(columns: 2, spans: narrow).columns == 2)
        #expect(LayoutConfigurationError.spanWiderThanGrid(.big, width: 4, columns: 3).description
                == "a big tile spans 4 columns but the grid has only 3; use at least 4 columns or a narrower big span")
    }
}
