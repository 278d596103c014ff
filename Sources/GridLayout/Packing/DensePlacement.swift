extension OccupancyGrid {
    /// Places `spans` densely, in order, after the tiles already placed, writing each tile's
    /// top-left cell to `origins`.
    ///
    /// The result is exactly ``firstFit(of:from:)`` from the origin for each tile followed by
    /// ``occupy(_:)``, and the search floors are kept the same way; this is that loop with
    /// the per-tile work cut to a few loads, bit operations and stores. Rows before
    /// ``fullRows`` are known to be full, so no search looks at them.
    ///
    /// - Precondition: No span is wider than the grid; `origins` has room for `spans.count` origins.
    @usableFromInline
    mutating func placeDensely(_ spans: UnsafeBufferPointer<TileSpan>, origins: UnsafeMutablePointer<PackedOrigin>) {
        guard let base = spans.baseAddress, !spans.isEmpty else { return }
        let usesFitTables = columns <= 8 && spans.count >= DenseSearches.fitTableThreshold
        withUnsafeTemporaryAllocation(of: DenseSlot.self, capacity: Self.floorCapacity) { slots in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DenseSearches.hashSize + (usesFitTables ? 256 * Self.floorCapacity : 0)) { bytes in
                var searches = DenseSearches(slots: slots.baseAddress!, bytes: bytes.baseAddress!, columns: columns,
                                             fullRow: fullRow, usesFitTables: usesFitTables)
                for (span, floor) in zip(floorSpans, floors) { searches.addSlot(span, floor: floor) }
                reserveRows(for: spans)
                var used = rows.count
                var full = fullRows
                var next = 0
                while next < spans.count {
                    // Every search ends at or before row `used` (it is empty), and a tile reaches
                    // at most 64 rows below its top, so this padding keeps every access in the buffer.
                    let padding = DenseSearches.rowPadding + Swift.min(spans.count - next, Swift.max(rows.count, 256))
                    if rows.count < used + padding {
                        rows.append(contentsOf: repeatElement(0, count: used + padding - rows.count))
                    }
                    rows.withUnsafeMutableBufferPointer { buffer in
                        let limit = buffer.count - DenseSearches.rowPadding
                        next = searches.place(base, from: next, to: spans.count, rows: buffer.baseAddress!, rowLimit: limit,
                                              origins: origins, usedRows: &used, fullRows: &full)
                    }
                }
                rows.removeSubrange(used...)
                fullRows = full
                floorSpans = searches.slots.map(\.span)
                floors = searches.slots.map { CellPosition(x: $0.x, y: $0.y) }
            }
        }
    }

    /// Reserves the rows a large batch is likely to need, so the buffer grows once instead of
    /// by repeated doubling.
    private mutating func reserveRows(for spans: UnsafeBufferPointer<TileSpan>) {
        guard spans.count >= 1024 else { return }
        var area = 0
        for span in spans { area &+= span.width &* span.height }
        let estimate = rows.count + area / columns + area / (columns * 16) + DenseSearches.rowPadding * 2
        if estimate > rows.capacity { rows.reserveCapacity(estimate) }
    }
}

/// The search state of dense placement: one slot per distinct span, holding the span's
/// floor and what testing a row for it needs, in memory the caller provides.
struct DenseSearches {
    /// Rows kept zeroed past the last used one while placing.
    static let rowPadding = 66

    /// Batches at least this long precompute a table of fitting columns per span (grids of
    /// up to 8 columns), which pays for itself after a few hundred tiles.
    static let fitTableThreshold = 512

    /// Buckets of the table from a span's hash to its slot.
    static let hashSize = 16

    private let storage: UnsafeMutablePointer<DenseSlot>
    private var count = 0
    /// `hashSize` bytes, slot index plus one by a hash of the span (0 for none), then the fit tables.
    private let bytes: UnsafeMutablePointer<UInt8>
    private let columns: Int
    private let fullRow: UInt64
    private let usesFitTables: Bool

    init(slots: UnsafeMutablePointer<DenseSlot>, bytes: UnsafeMutablePointer<UInt8>, columns: Int, fullRow: UInt64, usesFitTables: Bool) {
        storage = slots
        self.bytes = bytes
        bytes.initialize(repeating: 0, count: Self.hashSize)
        self.columns = columns
        self.fullRow = fullRow
        self.usesFitTables = usesFitTables
    }

    /// The slots, in the order they were created.
    var slots: UnsafeMutableBufferPointer<DenseSlot> { UnsafeMutableBufferPointer(start: storage, count: count) }

    @inline(__always)
    private static func hash(_ span: TileSpan) -> Int { (span.width &* 7 &+ span.height) & (hashSize - 1) }

    mutating func addSlot(_ span: TileSpan, floor: CellPosition) {
        precondition(span.width <= columns, "a \(span) tile does not fit in \(columns) columns")
        var fitTable: UnsafeMutablePointer<UInt8>?
        if usesFitTables { fitTable = bytes + Self.hashSize + 256 * count }
        (storage + count).initialize(to: DenseSlot(span: span, floor: floor, fitTable: fitTable, fullRow: fullRow))
        count += 1
        var bucket = Self.hash(span)
        while bytes[bucket] != 0 { bucket = (bucket &+ 1) & (Self.hashSize - 1) }
        bytes[bucket] = UInt8(count)
    }

    /// The slot of `span`, creating it when there is room; nil when every slot is taken.
    @inline(__always)
    private mutating func slot(for span: TileSpan) -> UnsafeMutablePointer<DenseSlot>? {
        var bucket = Self.hash(span)
        while true {
            let entry = Int(bytes[bucket])
            if entry == 0 { break }
            if storage[entry &- 1].span == span { return storage + (entry &- 1) }
            bucket = (bucket &+ 1) & (Self.hashSize - 1)
        }
        guard count < OccupancyGrid.floorCapacity else { return nil }
        addSlot(span, floor: .origin)
        return storage + (count - 1)
    }

    /// Places the tiles `start..<end` while the rows in use stay within `rowLimit`.
    ///
    /// - Returns: The index of the first tile not placed.
    mutating func place(_ spans: UnsafePointer<TileSpan>, from start: Int, to end: Int,
                        rows: UnsafeMutablePointer<UInt64>, rowLimit: Int, origins: UnsafeMutablePointer<PackedOrigin>,
                        usedRows: inout Int, fullRows: inout Int) -> Int {
        var index = start
        var used = usedRows
        var full = fullRows
        let fullRow = fullRow
        while index < end && used <= rowLimit {
            let span = spans[index]
            if let slot = slot(for: span) {
                slot.pointee.search(rows: rows, fullRow: fullRow, fullRows: full)
                slot.pointee.occupy(rows: rows, used: &used)
                origins[index] = PackedOrigin(x: UInt16(truncatingIfNeeded: slot.pointee.x),
                                              y: UInt32(truncatingIfNeeded: slot.pointee.y))
            } else {
                // More distinct spans than floors: search from the first row that is not full.
                precondition(span.width <= columns, "a \(span) tile does not fit in \(columns) columns")
                var slot = DenseSlot(span: span, floor: CellPosition(x: 0, y: full), fitTable: nil, fullRow: fullRow)
                slot.search(rows: rows, fullRow: fullRow, fullRows: full)
                slot.occupy(rows: rows, used: &used)
                origins[index] = PackedOrigin(x: UInt16(truncatingIfNeeded: slot.x), y: UInt32(truncatingIfNeeded: slot.y))
            }
            // Two steps at most, without branches: rows fill at under one per tile on average.
            full &+= rows[full] == fullRow ? 1 : 0
            full &+= rows[full] == fullRow ? 1 : 0
            index &+= 1
        }
        fullRows = full
        usedRows = used
        return index
    }
}

/// One span's search: its floor, the masks that test and fill a row, and for narrow grids a
/// table of the columns where it fits for every pattern of taken cells.
struct DenseSlot {
    let span: TileSpan
    /// The floor: the span fits nowhere before (`x`, `y`), in reading order.
    var x: Int
    var y: Int
    let height: Int
    /// All ones when the span covers a second row, so that row's test needs no branch.
    let secondRow: UInt64
    /// The span's width in low bits.
    let widthMask: UInt64
    /// Shifts that turn free cells into starts of `width` free cells (0 for unused steps).
    let shifts: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    /// For grids of up to 8 columns: fitting starts by the row's taken cells, 256 entries.
    let fitTable: UnsafeMutablePointer<UInt8>?

    init(span: TileSpan, floor: CellPosition, fitTable: UnsafeMutablePointer<UInt8>?, fullRow: UInt64) {
        self.span = span
        x = floor.x
        y = floor.y
        height = span.height
        secondRow = span.height > 1 ? ~0 : 0
        widthMask = span.width == 64 ? ~0 : (1 << UInt64(span.width)) - 1
        var steps: [UInt64] = []
        var covered = 1
        while covered < span.width {
            let step = Swift.min(covered, span.width - covered)
            steps.append(UInt64(step))
            covered += step
        }
        while steps.count < 6 { steps.append(0) }
        shifts = (steps[0], steps[1], steps[2], steps[3], steps[4], steps[5])
        self.fitTable = fitTable
        if let fitTable {
            for taken in 0..<256 {
                fitTable[taken] = UInt8(truncatingIfNeeded: starts(free: ~UInt64(taken) & fullRow))
            }
        }
    }

    /// Starts of runs of the span's width in `free`.
    @inline(__always)
    func starts(free: UInt64) -> UInt64 {
        var starts = free
        starts &= starts &>> shifts.0
        starts &= starts &>> shifts.1
        starts &= starts &>> shifts.2
        starts &= starts &>> shifts.3
        starts &= starts &>> shifts.4
        starts &= starts &>> shifts.5
        return starts
    }

    /// The cells taken across the span's rows from `row`.
    @inline(__always)
    func taken(rows: UnsafeMutablePointer<UInt64>, from row: Int) -> UInt64 {
        var taken = rows[row] | (rows[row &+ 1] & secondRow)
        var next = 2
        while next < height {
            taken |= rows[row &+ next]
            next &+= 1
        }
        return taken
    }

    /// Moves the floor to the first place at or after it where the span fits.
    @inline(__always)
    mutating func search(rows: UnsafeMutablePointer<UInt64>, fullRow: UInt64, fullRows: Int) {
        var row = y
        var column = x
        if row < fullRows {
            row = fullRows
            column = 0
        }
        if let table = fitTable {
            var candidates = UInt64(table[Int(truncatingIfNeeded: taken(rows: rows, from: row))]) & (~0 &<< UInt64(column))
            while candidates == 0 {
                row &+= 1
                candidates = UInt64(table[Int(truncatingIfNeeded: taken(rows: rows, from: row))])
            }
            column = candidates.trailingZeroBitCount
        } else {
            var candidates = starts(free: ~taken(rows: rows, from: row) & fullRow) & (~0 &<< UInt64(column))
            while candidates == 0 {
                row &+= 1
                candidates = starts(free: ~taken(rows: rows, from: row) & fullRow)
            }
            column = candidates.trailingZeroBitCount
        }
        y = row
        x = column
    }

    /// Marks the span's cells at the floor taken.
    @inline(__always)
    func occupy(rows: UnsafeMutablePointer<UInt64>, used: inout Int) {
        let mask = widthMask &<< UInt64(x)
        rows[y] |= mask
        rows[y &+ 1] |= mask & secondRow
        var next = 2
        while next < height {
            rows[y &+ next] |= mask
            next &+= 1
        }
        used = Swift.max(used, y &+ height)
    }
}
