import GridLayout

/// A synced grid's stored items, read as a change needs them: their sync ids in order
/// (`sync_item_ids`) and their registers, each checked as it is used. What a change of a few
/// sizes reads instead of the grid's whole sync state.
struct StoredSyncItems {
    let transaction: any GridStorageTransaction
    let gridID: Int64
    let grid: String
    /// The grid's item counts, section by section.
    let itemCounts: [Int]
    let numbers: SyncReplicaNumbers
    /// The chunks of ids read so far (a change reads one to three), with their section and
    /// first item: a list, as a dictionary keyed by both would cost a process a search of the
    /// runtime's conformance records at its first use.
    private var chunks: [(section: Int, first: Int, bytes: [UInt8])] = []
    /// The items whose registers were read, each once: a list, for the reason ``chunks`` is.
    private var read: [(id: SyncEntityID, item: ReplicatedGrid.Item)] = []

    init(transaction: any GridStorageTransaction, gridID: Int64, grid: String, itemCounts: [Int], numbers: SyncReplicaNumbers) {
        self.transaction = transaction
        self.gridID = gridID
        self.grid = grid
        self.itemCounts = itemCounts
        self.numbers = numbers
    }

    /// The chunk of ids of `section` from `first`, checked to hold as many ids as the section
    /// has items there; `nil` when it is not stored so.
    private mutating func chunk(section: Int, first: Int) throws -> [UInt8]? {
        if let read = chunks.first(where: { $0.section == section && $0.first == first }) { return read.bytes }
        guard section >= 0, section < itemCounts.count, first >= 0, first < itemCounts[section],
              let text = try transaction.syncItemIDs(gridID: gridID, section: section, firstItem: first),
              text.utf8.count == min(StoredSyncItemIDs.chunkSize, itemCounts[section] - first) * 16 else { return nil }
        let bytes = Array(text.utf8)
        chunks.append((section, first, bytes))
        return bytes
    }

    /// The id of the item at `item` of `section`; `nil` when the stored ids do not say.
    mutating func id(at item: Int, section: Int) throws -> SyncEntityID? {
        let first = item - item % StoredSyncItemIDs.chunkSize
        guard let bytes = try chunk(section: section, first: first) else { return nil }
        let offset = (item - first) * 16
        guard offset >= 0, offset + 16 <= bytes.count else { return nil }
        return SyncEntityID(String(decoding: bytes[offset..<offset + 16], as: UTF8.self))
    }

    /// The item's registers; `nil` when they cannot be read.
    mutating func item(_ id: SyncEntityID) throws -> ReplicatedGrid.Item? {
        if let known = read.first(where: { $0.id == id }) { return known.item }
        // The storage's failures are the caller's; rows that cannot be read are no item.
        let rows = try transaction.syncRegisters(gridID: gridID, kind: "item", entity: id.description)
        guard !rows.isEmpty, let item = try? ReplicatedGrid.item(id, rows: rows, replicas: numbers, grid: grid) else { return nil }
        read.append((id, item))
        return item
    }

    /// The item's winning place, read from its registers.
    mutating func place(of id: SyncEntityID) throws -> ReplicatedGrid.Place? { try item(id)?.place.winner?.value }

    /// Whether `id`, stored at `path`, has a place between those of its stored neighbours, in
    /// their section: how the stored ids are checked against the registers as they are used.
    mutating func isPlaced(_ id: SyncEntityID, at path: GridIndexPath) throws -> Bool {
        guard path.section >= 0, path.section < itemCounts.count, let own = try place(of: id) else { return false }
        for (neighbour, isBefore) in [(path.item - 1, true), (path.item + 1, false)]
            where neighbour >= 0 && neighbour < itemCounts[path.section] {
            guard let other = try self.id(at: neighbour, section: path.section), let theirs = try place(of: other),
                  theirs.section == own.section,
                  isBefore ? (theirs.order, other) < (own.order, id) : (own.order, id) < (theirs.order, other) else { return false }
        }
        return true
    }
}
