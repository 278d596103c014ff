/// Decides where each tile of a grid goes, given the cells taken by the tiles before it.
///
/// gridstore places tiles one at a time, in order; a strategy chooses one tile's
/// top-left cell. It must return a position where the tile fits
/// (``OccupancyGrid/fits(_:at:)``), and it must depend only on the tile's span, the
/// occupancy and the previous tile's position, so that re-packing from any item gives
/// the same result as packing from the start. Conform to plug in your own placement
/// rule, as the original iOS layout's `IGridCalculation` allowed.
///
/// ```swift
/// /// Places every tile on a fresh row.
/// struct OnePerRow: PackingStrategy {
///     func position(for span: TileSpan, in grid: inout OccupancyGrid, after previous: CellPosition?) -> CellPosition {
///         CellPosition(x: 0, y: grid.rowCount)
///     }
/// }
/// ```
public protocol PackingStrategy: Sendable {
    /// The top-left cell for a tile of `span`.
    ///
    /// - Parameters:
    ///   - span: The tile's span; never wider than the grid.
    ///   - grid: The cells taken by the tiles placed so far. Search it with
    ///     ``OccupancyGrid/firstFit(of:from:)``; do not change it otherwise.
    ///   - previous: Where the previous tile went, or `nil` for the first tile.
    func position(for span: TileSpan, in grid: inout OccupancyGrid, after previous: CellPosition?) -> CellPosition
}

/// Dense packing: each tile takes the first place, rows top to bottom and each row left
/// to right, where it fits, so holes left by larger tiles are filled by later smaller ones.
///
/// This is CSS Grid's `grid-auto-flow: row dense`.
public struct DensePacking: PackingStrategy {
    /// Creates the strategy.
    @inlinable
    public init() {}

    @inlinable @inline(__always)
    public func position(for span: TileSpan, in grid: inout OccupancyGrid, after previous: CellPosition?) -> CellPosition {
        grid.firstFit(of: span)
    }
}

/// Sparse packing: like dense, but the search never goes back before the previous tile's
/// position, so tiles stay in reading order and holes may remain.
///
/// This is CSS Grid's default `grid-auto-flow: row`.
public struct SparsePacking: PackingStrategy {
    /// Creates the strategy.
    @inlinable
    public init() {}

    @inlinable @inline(__always)
    public func position(for span: TileSpan, in grid: inout OccupancyGrid, after previous: CellPosition?) -> CellPosition {
        grid.firstFit(of: span, from: previous ?? .origin)
    }
}

extension PackingStrategy where Self == DensePacking {
    /// Dense packing, CSS Grid's `grid-auto-flow: row dense`.
    public static var dense: DensePacking { DensePacking() }
}

extension PackingStrategy where Self == SparsePacking {
    /// Sparse packing, CSS Grid's `grid-auto-flow: row`.
    public static var sparse: SparsePacking { SparsePacking() }
}
