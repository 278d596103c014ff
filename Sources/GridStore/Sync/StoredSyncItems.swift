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
    /// has items there and to be sealed for its place; `nil` when it is not stored so.
    private mutating func chunk(section: Int, first: Int) throws -> [UInt8]? {
        if let read = chunks.first(where: { $0.section == section && $0.first == first }) { return read.bytes }
        guard section >= 0, section < itemCounts.count, first >= 0, first < itemCounts[section],
              let text = try transaction.syncItemIDs(gridID: gridID, section: section, firstItem: first),
              let bytes = SyncItemIDSeal.unsealed(text, count: min(StoredSyncItemIDs.chunkSize, itemCounts[section] - first),
                                                  gridID: gridID, section: section, firstItem: first) else { return nil }
        chunks.append((section, first, bytes))
        return bytes
    }

    /// Every item's id, section by section, read in one statement; `nil` when a chunk is not
    /// stored as the grid is (``ids(in:gridID:itemCounts:)``).
    ///
    /// - Complexity: O(*n* log *n*) for the grid's *n* items.
    static func all(gridID: Int64, itemCounts: [Int], in transaction: any GridStorageTransaction) throws -> [[SyncEntityID]]? {
        ids(in: try transaction.syncItemIDs(gridID: gridID, limit: chunkCount(itemCounts) + 1), gridID: gridID, itemCounts: itemCounts)
    }

    /// How many chunks hold the ids of a grid of `itemCounts`.
    static func chunkCount(_ itemCounts: [Int]) -> Int {
        itemCounts.reduce(0) { $0 + ($1 + StoredSyncItemIDs.chunkSize - 1) / StoredSyncItemIDs.chunkSize }
    }

    /// Every item's id, section by section, from the grid's stored chunks in the order of their
    /// sections, then first items; `nil` when a chunk is not stored as the grid is (missing, of
    /// another length, not sealed for its place), or an id is not one or is stored twice.
    ///
    /// - Complexity: O(*n* log *n*) for the grid's *n* items.
    static func ids(in stored: [StoredSyncItemIDs], gridID: Int64, itemCounts: [Int]) -> [[SyncEntityID]]? {
        guard let placed = placedIDs(in: stored, gridID: gridID, itemCounts: itemCounts) else { return nil }
        var ids = itemCounts.map { [SyncEntityID](repeating: SyncEntityID(rawValue: 0), count: $0) }
        for (id, path) in placed { ids[path.section][path.item] = id }
        return ids
    }

    /// ``ids(in:gridID:itemCounts:)`` as each item's id with its place, in the order of the ids.
    ///
    /// - Complexity: O(*n* log *n*) for the grid's *n* items.
    static func placedIDs(in stored: [StoredSyncItemIDs], gridID: Int64, itemCounts: [Int]) -> [(id: SyncEntityID, path: GridIndexPath)]? {
        guard stored.count == chunkCount(itemCounts) else { return nil }
        var placed: [(id: SyncEntityID, path: GridIndexPath)] = []
        placed.reserveCapacity(itemCounts.reduce(0, +))
        var counts = itemCounts.map { _ in 0 }
        for chunk in stored {
            guard chunk.section >= 0, chunk.section < itemCounts.count, chunk.firstItem == counts[chunk.section],
                  let bytes = SyncItemIDSeal.unsealed(chunk.ids, count: min(StoredSyncItemIDs.chunkSize, itemCounts[chunk.section] - chunk.firstItem),
                                                      gridID: gridID, section: chunk.section, firstItem: chunk.firstItem) else { return nil }
            for offset in stride(from: 0, to: bytes.count, by: 16) {
                guard let id = SyncEntityID(digits: bytes[offset..<offset + 16]) else { return nil }
                placed.append((id, GridIndexPath(item: counts[chunk.section], section: chunk.section)))
                counts[chunk.section] += 1
            }
        }
        guard counts == itemCounts else { return nil }
        // Sorted, an id stored twice is next to itself: cheaper than hashing every id.
        placed.sort { $0.id < $1.id }
        guard placed.indices.dropFirst().allSatisfy({ placed[$0 - 1].id != placed[$0].id }) else { return nil }
        return placed
    }

    /// The id of the item at `item` of `section`; `nil` when the stored ids do not say.
    mutating func id(at item: Int, section: Int) throws -> SyncEntityID? {
        let first = item - item % StoredSyncItemIDs.chunkSize
        guard let bytes = try chunk(section: section, first: first) else { return nil }
        let offset = (item - first) * 16
        guard offset >= 0, offset + 16 <= bytes.count else { return nil }
        return SyncEntityID(digits: bytes[offset..<offset + 16])
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

/// The seal that ends each chunk of `sync_item_ids`: 16 hexadecimal digits of a 64-bit FNV-1a
/// hash of the grid's row id, the chunk's section and first item, and its ids. A chunk edited by
/// hand (ids swapped, shifted, repeated), or moved to another place, is not taken for the ids
/// there: a change then reads the grid's whole sync state, and writes the ids again.
enum SyncItemIDSeal {
    /// `ids` (16 hexadecimal digits an item) followed by their seal.
    static func sealed(_ ids: String, gridID: Int64, section: Int, firstItem: Int) -> String {
        var text = ids
        text += hexadecimal(hash(Array(ids.utf8)[...], gridID: gridID, section: section, firstItem: firstItem))
        return text
    }

    /// The ids of a stored chunk of `count` items, when it holds that many and its seal is
    /// theirs at this place; `nil` otherwise (a chunk of an earlier gridstore has no seal).
    static func unsealed(_ text: String, count: Int, gridID: Int64, section: Int, firstItem: Int) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard count > 0, bytes.count == (count + 1) * 16 else { return nil }
        let ids = bytes[..<(count * 16)]
        let seal = hexadecimal(hash(ids, gridID: gridID, section: section, firstItem: firstItem))
        guard bytes[(count * 16)...].elementsEqual(seal.utf8) else { return nil }
        return Array(ids)
    }

    /// Whether `text` is `expected`'s ids without a seal: a chunk as an earlier gridstore wrote it.
    static func isUnsealed(_ text: String, of expected: String) -> Bool {
        text.utf8.count + 16 == expected.utf8.count && expected.utf8.starts(with: text.utf8)
    }

    private static func hash(_ ids: ArraySlice<UInt8>, gridID: Int64, section: Int, firstItem: Int) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        for number in [UInt64(bitPattern: gridID), UInt64(bitPattern: Int64(section)), UInt64(bitPattern: Int64(firstItem))] {
            for shift in stride(from: 0, to: 64, by: 8) { add(UInt8(truncatingIfNeeded: number >> UInt64(shift))) }
        }
        for byte in ids { add(byte) }
        return hash
    }

    private static func hexadecimal(_ value: UInt64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<16 { bytes[index] = digits[Int((value >> UInt64(60 - 4 * index)) & 0xf)] }
        return String(decoding: bytes, as: UTF8.self)
    }
}
