/// The cell span of each tile size.
///
/// ```swift
/// let standard = TileSpans.standard                 // small 1x1, middle 2x2, big 4x2
/// let custom = try TileSpans(itemsPerRow: 3, middle: 1.5, big: 1)  // 3 columns: 1x1, 2x2, 3x2
/// ```
public struct TileSpans: Hashable, Sendable {
    /// The span of a small tile.
    public let small: TileSpan
    /// The span of a middle tile.
    public let middle: TileSpan
    /// The span of a big tile.
    public let big: TileSpan

    /// small 1x1, middle 2x2, big 4x2.
    public static let standard = TileSpans(
        checkedSmall: TileSpan(width: 1, height: 1), middle: TileSpan(width: 2, height: 2), big: TileSpan(width: 4, height: 2))

    private init(checkedSmall small: TileSpan, middle: TileSpan, big: TileSpan) {
        self.small = small
        self.middle = middle
        self.big = big
    }

    /// Creates spans from each size's width and height in cells.
    ///
    /// - Throws: ``LayoutConfigurationError/invalidSpan(_:width:height:)`` for a span that is
    ///   not 1 to ``TileSpan/maximumLength`` cells each way.
    public init(small: (width: Int, height: Int), middle: (width: Int, height: Int),
                big: (width: Int, height: Int)) throws(LayoutConfigurationError) {
        func span(_ size: TileSize, _ value: (width: Int, height: Int)) throws(LayoutConfigurationError) -> TileSpan {
            let valid = 1...TileSpan.maximumLength
            guard valid.contains(value.width), valid.contains(value.height) else {
                throw .invalidSpan(size, width: value.width, height: value.height)
            }
            return TileSpan(width: value.width, height: value.height)
        }
        self.init(checkedSmall: try span(.small, small), middle: try span(.middle, middle), big: try span(.big, big))
    }

    /// Creates spans the way the original iOS layout configured them: how many tiles of
    /// each size fit in one row.
    ///
    /// The grid has `small` columns (so `small` must be whole); a middle tile is
    /// `small / middle` cells wide and as tall as it is wide; a big tile is `small / big`
    /// cells wide and as tall as a middle tile. For example 3, 1.5 and 1 give 3 columns
    /// with 1x1, 2x2 and 3x2 tiles; 6, 3 and 1.5 give the standard spans in 6 columns.
    ///
    /// - Returns: The spans and the column count they imply.
    /// - Throws: ``LayoutConfigurationError/smallItemsPerRowInvalid(_:)`` when `small` is not a
    ///   whole column count, ``LayoutConfigurationError/itemsPerRowNotWhole(_:itemsPerRow:columns:)``
    ///   when another count does not divide the columns into whole cells, or
    ///   ``LayoutConfigurationError/spanWiderThanGrid(_:width:columns:)`` when it is below 1.
    public static func itemsPerRow(small: Double, middle: Double, big: Double)
        throws(LayoutConfigurationError) -> (spans: TileSpans, columns: Int) {
        guard small.isFinite, small == small.rounded(), (1...Double(GridConfiguration.maximumColumns)).contains(small) else {
            throw .smallItemsPerRowInvalid(small)
        }
        let columns = Int(small)
        func width(_ size: TileSize, _ perRow: Double) throws(LayoutConfigurationError) -> Int {
            guard perRow.isFinite, perRow > 0 else { throw .itemsPerRowNotWhole(size, itemsPerRow: perRow, columns: columns) }
            let cells = Double(columns) / perRow
            let whole = cells.rounded()
            guard abs(cells - whole) < 1e-9 else { throw .itemsPerRowNotWhole(size, itemsPerRow: perRow, columns: columns) }
            guard whole <= Double(columns) else { throw .spanWiderThanGrid(size, width: Int(whole), columns: columns) }
            return Int(whole)
        }
        let middleWidth = try width(.middle, middle)
        let bigWidth = try width(.big, big)
        let spans = try TileSpans(small: (1, 1), middle: (middleWidth, middleWidth), big: (bigWidth, middleWidth))
        return (spans, columns)
    }

    /// The span of `size`.
    @inline(__always)
    public subscript(size: TileSize) -> TileSpan {
        switch size {
        case .small: small
        case .middle: middle
        case .big: big
        }
    }
}
