import GridLayout

/// A grid's register rows changed after a sync version, as a bundle for a peer reads them: an
/// item's size in the compact shape (``CompactRegister``) as its one write, read from the row's
/// bytes, every other row as text, read as a state reads it.
struct StoredChanges {
    /// An item's size register of one write, seen by its writer alone, the writer by number.
    struct Size {
        var id: SyncEntityID
        var size: TileSize?
        var time: HybridTime
        var number: Int
    }

    var numbers: SyncReplicaNumbers
    /// In the order read.
    var sizes: [Size] = []
    var others: [StoredSyncRegister] = []

    /// The rows of the grid `gridID` changed after `version`, with every replica's name.
    ///
    /// - Throws: ``GridError/corrupted(_:)`` for more rows, or replicas, than a state holds.
    static func read(gridID: Int64, changedAfter version: Int64, grid: String,
                     in transaction: any GridStorageTransaction) throws -> StoredChanges {
        var sizes: [Size] = []
        var others: [StoredSyncRegister] = []
        var count = 0
        let replicas = try transaction.syncRegisterRows(gridID: gridID, changedAfter: version,
                                                        limit: ReplicatedGrid.maximumRegisterRows + 1) { row in
            count += 1
            if isItemSize(kind: row.kind, field: row.field),
               let id = SyncEntityID(digits: row.entity), let write = CompactRegister.sizeWrite(row.register) {
                sizes.append(Size(id: id, size: write.size, time: write.time, number: write.number))
            } else {
                others.append(row.row)
            }
        }
        try ReplicatedGrid.checkRowCount(count, grid: grid)
        return StoredChanges(numbers: try SyncReplicaNumbers(stored: replicas, grid: grid), sizes: sizes, others: others)
    }

    /// Whether a row's `kind` and `field` are an item's size: `item` and `s`.
    private static func isItemSize(kind: UnsafeBufferPointer<UInt8>, field: UnsafeBufferPointer<UInt8>) -> Bool {
        field.count == 1 && field[0] == UInt8(ascii: "s") && kind.count == 4 && kind[0] == UInt8(ascii: "i")
            && kind[1] == UInt8(ascii: "t") && kind[2] == UInt8(ascii: "e") && kind[3] == UInt8(ascii: "m")
    }

    /// What a peer at `cursor` lacks of these rows (``ReplicatedGrid/changes(since:)``), in the
    /// order a bundle writes it, with `versions` as the sender's.
    ///
    /// - Throws: ``GridError/corrupted(_:)`` naming a register gridstore cannot read, or for
    ///   more items and sections than a state holds.
    /// - Complexity: O(*m* + *n* log *n*) for the *m* bytes of the rows not read as sizes and
    ///   the *n* items (the sizes read in the table's order are in order already).
    func changes(since cursor: VersionVector, versions: VersionVector, grid: String) throws -> SortedDelta {
        var state = ReplicatedGrid()
        try state.load(others, replicas: numbers, grid: grid)
        var writes: [(id: SyncEntityID, write: MergeRegister<TileSize?>.Write)] = []
        writes.reserveCapacity(sizes.count)
        for size in sizes {
            guard size.number < numbers.ids.count else {
                // A number no replica has: read as its text, which says so.
                let text = "[[\(RegisterJSON.size(size.size)),\(size.time.rawValue),\(size.number)]]"
                try state.load([StoredSyncRegister(kind: "item", entity: size.id.description, field: "s", register: text, version: 1)],
                               replicas: numbers, grid: grid)
                continue
            }
            let write = MergeRegister<TileSize?>.Write(value: size.size, stamp: SyncStamp(time: size.time, replica: numbers.ids[size.number]))
            if state.items[size.id] != nil {
                state.items[size.id]!.size = MergeRegister(heads: [write], context: [])
            } else {
                writes.append((size.id, write))
            }
        }
        try ReplicatedGrid.checkEntityCount(state.items.count + state.sections.count + writes.count, grid: grid)
        state = state.changes(since: cursor)
        // A write the cursor covers is known there. Runs of one writer look the cursor up once.
        var known: (replica: ReplicaID, time: HybridTime)?
        writes.removeAll { entry in
            let replica = entry.write.stamp.replica
            if known?.replica != replica { known = (replica, cursor[replica]) }
            return entry.write.stamp.time <= known!.time
        }
        if !writes.indices.dropFirst().allSatisfy({ writes[$0 - 1].id < writes[$0].id }) { writes.sort { $0.id < $1.id } }

        var delta = SortedDelta()
        delta.options = state.options
        delta.sections = state.sections.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let others = state.items.sorted { $0.key < $1.key }
        delta.items.reserveCapacity(writes.count + others.count)
        var next = 0
        for (id, write) in writes {
            while next < others.count, others[next].key < id {
                delta.items.append(.item(others[next].key, others[next].value))
                next += 1
            }
            delta.items.append(.size(id, write))
        }
        for (id, item) in others[next...] { delta.items.append(.item(id, item)) }
        delta.names = state.names
        delta.versions = versions
        return delta
    }
}
