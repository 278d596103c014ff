/// One section of a ``TileGrid``: its tiles' sizes and where they are packed.
///
/// As a collection it holds each item's cell rectangle, in the grid's orientation: for a
/// horizontal grid `x` runs along the scroll axis.
public struct TileGridSection<Strategy: PackingStrategy>: Sendable {
    /// The size of each item, in order.
    public private(set) var sizes: [TileSize]

    /// The packed tiles, always in vertical orientation.
    public private(set) var packer: TilePacker<Strategy>

    /// Whether rectangles are reported transposed (for a horizontal grid).
    private let isTransposed: Bool

    init(sizes: [TileSize], configuration: GridConfiguration, strategy: Strategy) {
        self.sizes = sizes
        packer = TilePacker(columns: configuration.columns, strategy: strategy)
        isTransposed = configuration.direction == .horizontal
        let spans = configuration.spans
        packer.append(contentsOf: sizes.lazy.map { spans[$0] })
    }

    /// The number of rows the section's tiles cover (columns, for a horizontal grid).
    public var extent: Int { packer.extent }

    /// Replaces the items in `range` with items of `newSizes` and re-packs from `range.lowerBound`.
    mutating func replaceSubrange(_ range: Range<Int>, with newSizes: [TileSize], spans: TileSpans) {
        sizes.replaceSubrange(range, with: newSizes)
        packer.replaceSubrange(range, with: newSizes.lazy.map { spans[$0] })
    }
}

extension TileGridSection: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { sizes.count }

    /// The cell rectangle of the item at `index`, in the grid's orientation.
    public subscript(index: Int) -> CellRect {
        let rect = packer[index]
        return isTransposed ? rect.transposed : rect
    }
}
