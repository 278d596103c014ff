/// Packs a sequence of tiles into a grid of fixed width, and re-packs it incrementally
/// as tiles are added, removed or resized.
///
/// Tiles are placed in order by a ``PackingStrategy`` (``DensePacking`` by default).
/// A tile's place depends only on the tiles before it, so after a change at index `i`
/// the packer takes back the tiles from `i` on and places them again, leaving the tiles
/// before `i` alone. The result always equals packing the whole sequence from scratch.
///
/// ```swift
/// var packer = TilePacker(columns: 4)
/// packer.append(contentsOf: [TileSpan(width: 1, height: 1), TileSpan(width: 2, height: 2)])
/// packer[1]                       // (1, 0, 2x2)
/// packer.replaceSubrange(0..<1, with: [TileSpan(width: 4, height: 2)])
/// packer[1]                       // (0, 2, 2x2)
/// ```
///
/// - Complexity: Packing n tiles densely takes O(n + rows) time and O(n + rows) memory:
///   each tile's search resumes where the last search for its span ended, and testing a
///   row is a few bit operations. A change at index i costs O(n - i) plus the rows
///   between the changed tiles and the new positions.
public struct TilePacker<Strategy: PackingStrategy>: Sendable {
    /// The strategy that places each tile.
    public let strategy: Strategy

    /// The spans of the tiles, in order.
    @inlinable public var spans: [TileSpan] { storedSpans }
    @usableFromInline var storedSpans: [TileSpan] = []

    /// Where each tile's top-left cell is.
    @usableFromInline var origins: [PackedOrigin] = []

    /// The cells taken by the placed tiles.
    @inlinable public var occupancy: OccupancyGrid { storedOccupancy }
    @usableFromInline var storedOccupancy: OccupancyGrid

    /// Creates an empty packer for a grid of `columns` columns.
    ///
    /// - Precondition: `columns` is from 1 to ``GridConfiguration/maximumColumns``.
    public init(columns: Int, strategy: Strategy) {
        self.strategy = strategy
        storedOccupancy = OccupancyGrid(columns: columns)
    }

    /// The number of columns.
    public var columns: Int { storedOccupancy.columns }

    /// The number of rows the tiles cover.
    public var extent: Int { storedOccupancy.rowCount }

    /// Adds a tile at the end.
    ///
    /// - Precondition: The span is no wider than the grid.
    /// - Complexity: Amortized O(1), plus the search for its place (``OccupancyGrid/firstFit(of:from:)``).
    @inlinable
    public mutating func append(_ span: TileSpan) {
        place(span)
    }

    /// Adds tiles at the end.
    ///
    /// - Precondition: No span is wider than the grid.
    /// - Complexity: O(*k* + rows) for *k* tiles packed densely (see the type's notes).
    @inlinable
    public mutating func append(contentsOf newSpans: some Sequence<TileSpan>) {
        if Strategy.self == DensePacking.self {
            let placed: Void? = newSpans.withContiguousStorageIfAvailable { appendDensely($0) }
            if placed == nil { Array(newSpans).withUnsafeBufferPointer { appendDensely($0) } }
            return
        }
        // Reserved geometrically: an exact reservation per call would copy every tile on each
        // of many small appends.
        let needed = storedSpans.count + newSpans.underestimatedCount
        if needed > storedSpans.capacity {
            let capacity = Swift.max(needed, storedSpans.capacity * 2)
            storedSpans.reserveCapacity(capacity)
            origins.reserveCapacity(capacity)
        }
        for span in newSpans { place(span) }
    }

    /// Adds tiles at the end with dense packing's placement loop.
    @usableFromInline
    mutating func appendDensely(_ newSpans: UnsafeBufferPointer<TileSpan>) {
        guard !newSpans.isEmpty else { return }
        storedSpans.append(contentsOf: newSpans)
        if origins.isEmpty {
            origins = Array(unsafeUninitializedCapacity: newSpans.count) { buffer, count in
                storedOccupancy.placeDensely(newSpans, origins: buffer.baseAddress!)
                count = newSpans.count
            }
        } else {
            let start = origins.count
            origins.append(contentsOf: repeatElement(PackedOrigin(x: 0, y: 0), count: newSpans.count))
            origins.withUnsafeMutableBufferPointer { origins in
                storedOccupancy.placeDensely(newSpans, origins: origins.baseAddress! + start)
            }
        }
    }

    /// Replaces the tiles in `range` with tiles of `newSpans` and re-packs every tile from
    /// `range.lowerBound` on.
    ///
    /// Inserting is replacing an empty range, deleting is replacing with nothing.
    ///
    /// - Returns: The index of the first tile that was re-packed: `range.lowerBound`.
    /// - Complexity: O(n - range.lowerBound), plus the search of the re-placed tiles.
    @inlinable @discardableResult
    public mutating func replaceSubrange(_ range: Range<Int>, with newSpans: some Collection<TileSpan>) -> Int {
        precondition(range.lowerBound >= 0 && range.upperBound <= storedSpans.count, "range \(range) is outside 0..<\(storedSpans.count)")
        let tail = Array(newSpans) + storedSpans[range.upperBound...]
        rewind(to: range.lowerBound)
        append(contentsOf: tail)
        return range.lowerBound
    }

    /// Changes the span of the tile at `index` and re-packs from it.
    ///
    /// - Complexity: O(*n* - `index`), plus the search of the re-placed tiles.
    @inlinable
    public mutating func setSpan(_ span: TileSpan, at index: Int) {
        replaceSubrange(index..<(index + 1), with: CollectionOfOne(span))
    }

    /// Removes every tile.
    public mutating func removeAll() {
        rewind(to: 0)
    }

    /// Takes back the tiles from `index` on, freeing their cells.
    ///
    /// - Complexity: O(min(*index*, *n* - *index*)) cells: when fewer tiles stay than go, the
    ///   grid is rebuilt from the tiles that stay instead.
    @inlinable
    mutating func rewind(to index: Int) {
        guard index < storedSpans.count else { return }
        if index < storedSpans.count - index {
            var occupancy = OccupancyGrid(columns: storedOccupancy.columns)
            for kept in 0..<index { occupancy.occupy(rect(at: kept)) }
            storedOccupancy = occupancy
        } else {
            storedSpans.withUnsafeBufferPointer { spans in
                origins.withUnsafeBufferPointer { origins in
                    storedOccupancy.release(spans: UnsafeBufferPointer(rebasing: spans[index...]),
                                            at: UnsafeBufferPointer(rebasing: origins[index...]))
                }
            }
        }
        storedSpans.removeSubrange(index...)
        origins.removeSubrange(index...)
    }

    @inlinable @inline(__always)
    mutating func place(_ span: TileSpan) {
        if Strategy.self == DensePacking.self {
            var span = span
            withUnsafePointer(to: &span) { appendDensely(UnsafeBufferPointer(start: $0, count: 1)) }
            return
        }
        let previous = origins.last.map { CellPosition(x: Int($0.x), y: Int($0.y)) }
        let position = strategy.position(for: span, in: &storedOccupancy, after: previous)
        let rect = CellRect(x: position.x, y: position.y, width: span.width, height: span.height)
        precondition(storedOccupancy.fits(span, at: position), "\(Strategy.self) placed a \(span) tile where it does not fit: \(position)")
        storedOccupancy.occupy(rect)
        storedSpans.append(span)
        origins.append(PackedOrigin(x: UInt16(position.x), y: UInt32(position.y)))
    }

    /// The cell rectangle of the tile at `index`.
    @inlinable @inline(__always)
    func rect(at index: Int) -> CellRect {
        let origin = origins[index]
        let span = storedSpans[index]
        return CellRect(x: Int(origin.x), y: Int(origin.y), width: span.width, height: span.height)
    }
}

extension TilePacker where Strategy == DensePacking {
    /// Creates an empty packer with dense packing.
    public init(columns: Int) {
        self.init(columns: columns, strategy: DensePacking())
    }
}

extension TilePacker: RandomAccessCollection {
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { storedSpans.count }

    /// The cell rectangle of the tile at `index`.
    @inlinable
    public subscript(index: Int) -> CellRect { rect(at: index) }
}

/// A tile's top-left cell, stored compactly.
@usableFromInline
struct PackedOrigin: Sendable, Hashable {
    @usableFromInline var x: UInt16
    @usableFromInline var y: UInt32

    @inlinable
    init(x: UInt16, y: UInt32) {
        self.x = x
        self.y = y
    }
}
