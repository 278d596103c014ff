/// Which cells of a grid are taken, with fast searches for free space.
///
/// Each row is one 64-bit word with a bit per column, so testing where a tile fits in a
/// row is a handful of bit operations, whatever the tile's width. Rows past the last one
/// used are empty.
///
/// The grid also remembers, for each tile span it has been asked about, a *floor*: a
/// position before which that span cannot fit. Cells only become taken while tiles are
/// placed, so a span that did not fit somewhere never will, and a search resumes at its
/// floor instead of the top. When tiles are removed the floors drop just enough to stay
/// true. This is what makes dense packing linear: every span's floor only moves forward.
public struct OccupancyGrid: Sendable {
    /// The number of columns, from 1 to 64.
    public let columns: Int

    /// A bit per column; bit `x` of `rows[y]` is set when cell (`x`, `y`) is taken.
    @usableFromInline var rows: [UInt64] = []

    /// The columns' bits.
    @usableFromInline let fullRow: UInt64

    /// Every row before this one is full, so no tile can start there.
    @usableFromInline var fullRows = 0

    /// Up to ``floorCapacity`` spans, each with the position before which it cannot fit.
    @usableFromInline var floorSpans: [TileSpan] = []
    @usableFromInline var floors: [CellPosition] = []
    @usableFromInline static var floorCapacity: Int { 8 }

    /// Creates an empty grid of `columns` columns.
    ///
    /// - Precondition: `columns` is from 1 to 64.
    public init(columns: Int) {
        precondition((1...64).contains(columns), "an occupancy grid has 1 to 64 columns, not \(columns)")
        self.columns = columns
        fullRow = columns == 64 ? ~0 : (1 << UInt64(columns)) - 1
    }

    /// The number of rows in use: one past the lowest row with a taken cell.
    public var rowCount: Int { rows.count }

    /// Whether cell (`x`, `y`) is taken.
    ///
    /// - Complexity: O(1).
    public func isOccupied(x: Int, y: Int) -> Bool {
        y < rows.count && rows[y] & (1 << UInt64(x)) != 0
    }

    /// Whether a tile of `span` fits with its top-left cell at `position`.
    ///
    /// - Complexity: O(`span.height`): one bit test of each row it would cover.
    @inlinable
    public func fits(_ span: TileSpan, at position: CellPosition) -> Bool {
        guard position.x >= 0, position.y >= 0, position.x + span.width <= columns else { return false }
        return fitStarts(of: span, inRow: position.y) & (1 << UInt64(position.x)) != 0
    }

    /// The first position at or after `start`, in reading order (rows top to bottom, each
    /// left to right), where a tile of `span` fits.
    ///
    /// There always is one, since rows past the last one used are empty.
    ///
    /// - Precondition: `span.width <= columns`.
    /// - Complexity: Amortized O(1) over a packing in which searches for each span start
    ///   no later than its previous result; O(r) for a search that skips r rows.
    @inlinable
    public mutating func firstFit(of span: TileSpan, from start: CellPosition = .origin) -> CellPosition {
        precondition(span.width <= columns, "a \(span) tile does not fit in \(columns) columns")
        var y = start.y
        var x = start.x
        if y < fullRows {
            y = fullRows
            x = 0
        }
        let slot = floorSlot(for: span)
        // Only a search that begins at or before the floor proves nothing fits before its result.
        var provesFloor = slot != nil
        if let slot {
            let floor = floors[slot]
            if y < floor.y || (y == floor.y && x <= floor.x) {
                y = floor.y
                x = floor.x
            } else {
                provesFloor = false
            }
        }
        var candidates = fitStarts(of: span, inRow: y) & (~0 &<< UInt64(x))
        while candidates == 0 {
            y += 1
            candidates = fitStarts(of: span, inRow: y)
        }
        let found = CellPosition(x: candidates.trailingZeroBitCount, y: y)
        if provesFloor, let slot {
            floors[slot] = found
        }
        return found
    }

    /// Bit `x` is set when a tile of `span` fits with its top-left cell at (`x`, `y`).
    @inlinable @inline(__always)
    func fitStarts(of span: TileSpan, inRow y: Int) -> UInt64 {
        let end = min(y + span.height, rows.count)
        let taken: UInt64 = rows.withUnsafeBufferPointer { rows in
            var taken: UInt64 = 0
            var row = y
            while row < end {
                taken |= rows[row]
                row &+= 1
            }
            return taken
        }
        // Starts of runs of `width` free cells: each step doubles the run length covered.
        var starts = ~taken & fullRow
        var covered = 1
        let width = span.width
        while covered < width {
            let shift = Swift.min(covered, width &- covered)
            starts &= starts &>> UInt64(shift)
            covered &+= shift
        }
        return starts
    }

    /// Marks the cells of `rect` taken.
    ///
    /// - Precondition: The cells are free and inside the columns.
    @inlinable
    mutating func occupy(_ rect: CellRect) {
        let end = rect.y + rect.height
        while rows.count < end { rows.append(0) }
        let mask = Self.mask(width: rect.width) << UInt64(rect.x)
        for row in rect.y..<end {
            assert(rows[row] & mask == 0, "cells of \(rect) are already taken")
            rows[row] |= mask
        }
    }

    /// Frees the cells of the tiles of `spans` placed at `origins`, lowers the floors and
    /// drops the rows left empty at the end.
    @usableFromInline
    mutating func release(spans: UnsafeBufferPointer<TileSpan>, at origins: UnsafeBufferPointer<PackedOrigin>) {
        var lowestRow = Int.max
        rows.withUnsafeMutableBufferPointer { rows in
            let rows = rows.baseAddress!
            for (span, origin) in zip(spans, origins) {
                let mask = ~(Self.mask(width: span.width) &<< UInt64(origin.x))
                let top = Int(origin.y)
                for row in top..<(top &+ span.height) { rows[row] &= mask }
                lowestRow = Swift.min(lowestRow, top)
            }
        }
        fullRows = Swift.min(fullRows, lowestRow)
        lowerFloors(belowRow: lowestRow)
        trimEmptyRows()
    }

    /// Lowers the search floors after cells from row `row` on were freed.
    ///
    /// A span that now fits must overlap a freed cell, so its top row is at least
    /// `row - height + 1`.
    @inlinable
    mutating func lowerFloors(belowRow row: Int) {
        for slot in floors.indices {
            let lowestRow = max(0, row - floorSpans[slot].height + 1)
            if floors[slot].y >= lowestRow { floors[slot] = CellPosition(x: 0, y: lowestRow) }
        }
    }

    /// Drops empty rows at the end, so ``rowCount`` is again one past the last used row.
    @inlinable
    mutating func trimEmptyRows() {
        var end = rows.count
        while end > 0 && rows[end - 1] == 0 { end -= 1 }
        if end < rows.count { rows.removeSubrange(end...) }
    }

    /// The index of `span`'s floor, creating one if there is room.
    @inlinable @inline(__always)
    mutating func floorSlot(for span: TileSpan) -> Int? {
        for index in floorSpans.indices where floorSpans[index] == span { return index }
        guard floorSpans.count < Self.floorCapacity else { return nil }
        floorSpans.append(span)
        floors.append(.origin)
        return floorSpans.count - 1
    }

    @inlinable @inline(__always)
    static func mask(width: Int) -> UInt64 {
        width == 64 ? ~0 : (1 << UInt64(width)) - 1
    }
}
