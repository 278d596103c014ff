/// One section of a ``TileGrid``: its tiles' sizes and where they are packed.
///
/// As a collection it holds each item's cell rectangle, in the grid's orientation: for a
/// horizontal grid `x` runs along the scroll axis.
public struct TileGridSection<Strategy: PackingStrategy>: Sendable {
    /// The size of each item, in order.
    @inlinable public var sizes: [TileSize] { storedSizes }
    @usableFromInline var storedSizes: [TileSize]

    /// The packed tiles, always in vertical orientation.
    @inlinable public var packer: TilePacker<Strategy> { storedPacker }
    @usableFromInline var storedPacker: TilePacker<Strategy>

    /// Whether rectangles are reported transposed (for a horizontal grid).
    @usableFromInline let isTransposed: Bool

    @inlinable
    init(sizes: [TileSize], configuration: GridConfiguration, strategy: Strategy) {
        storedSizes = sizes
        storedPacker = TilePacker(columns: configuration.columns, strategy: strategy)
        isTransposed = configuration.direction == .horizontal
        let spans = configuration.spans
        storedPacker.append(contentsOf: sizes.map { spans[$0] })
    }

    /// The number of rows the section's tiles cover (columns, for a horizontal grid).
    public var extent: Int { storedPacker.extent }

    /// Replaces the items in `range` with items of `newSizes` and re-packs from `range.lowerBound`.
    @inlinable
    mutating func replaceSubrange(_ range: Range<Int>, with newSizes: [TileSize], spans: TileSpans) {
        storedSizes.replaceSubrange(range, with: newSizes)
        storedPacker.replaceSubrange(range, with: newSizes.map { spans[$0] })
    }
}

extension TileGridSection: RandomAccessCollection {
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { storedSizes.count }

    /// The cell rectangle of the item at `index`, in the grid's orientation.
    @inlinable
    public subscript(index: Int) -> CellRect {
        let rect = storedPacker[index]
        return isTransposed ? rect.transposed : rect
    }
}
