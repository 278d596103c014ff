import Synchronization
import GridLayout

/// A ``GridStorageBackend`` that keeps its grids in memory, gone with the process: what
/// ``InMemoryGridSizeRepository`` stores in, through the same pipeline as a database.
///
/// Its rows mirror a database's tables (a section's item count, an item's explicit size or
/// key, a placement chunk's text, a history entry), so every change, check and history
/// operation works on it as on SQLite or PostgreSQL. A write works on a copy of the rows and
/// replaces them only when it succeeds, so a failed change leaves nothing behind.
final class MemoryStorage: GridStorageBackend, @unchecked Sendable {
    // @unchecked: `contents` is only touched in a turn of `scheduler`.

    /// One grid's rows.
    struct Rows {
        var row: StoredGridRow
        var updatedAt: String
        var itemCounts: [Int: Int] = [:]
        var sizes: [Int: [Int: TileSize]] = [:]
        var keys: [Int: [Int: String]] = [:]
        var keyHolders: [String: (section: Int, item: Int)] = [:]
        var chunks: [Int: [Int: [UInt8]]] = [:]
        /// Oldest first.
        var history: [StoredHistoryEntry] = []
        var syncState: StoredSyncState?
        var syncReplicas: [StoredSyncReplica] = []
        /// By kind, entity and field.
        var syncRegisters: [[String]: StoredSyncRegister] = [:]
        /// Oldest first.
        var syncVersions: [StoredSyncVersion] = []
        var syncItemIDs: [[Int]: String] = [:]
    }

    /// Every grid, by name, and the next grid id.
    struct Contents {
        var grids: [String: Rows] = [:]
        /// Grid names by id, kept with ``grids``: a transaction starts without reading every grid.
        var names: [Int64: String] = [:]
        var nextID: Int64 = 1
        var replica = StoredReplicaRow(id: ReplicaID.random().description, storageIdentity: "")
        /// Grids dropped after they took part in sync, by name.
        var syncDrops: [String: StoredSyncDrop] = [:]
    }

    /// The turns of the rows: one transaction at a time.
    private let scheduler = ConnectionScheduler()
    private var contents = Contents()
    /// Whether ``close()`` began: later calls are refused.
    private let isClosed = Atomic(false)
    /// How long a call waits for the calls before it: 10 seconds, as a database's calls wait.
    private static let waitLimitMilliseconds = 10_000

    init() {}

    var location: String { "memory" }
    var migrationsAppliedOnOpen: [Migration] { [] }

    func migrationStatus() throws -> MigrationStatus {
        try inTurn { MigrationStatus(applied: [], pending: [], problem: nil) }
    }

    func read<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T {
        try inTurn { try body(MemoryTransaction(contents)) }
    }

    func write<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T {
        try inTurn {
            let transaction = MemoryTransaction(contents)
            let result = try body(transaction)
            contents = transaction.contents
            return result
        }
    }

    func refuseNewCalls() {
        isClosed.store(true, ordering: .releasing)
    }

    /// Refuses later calls, and returns once the calls that asked before have ended.
    func close() {
        refuseNewCalls()
        scheduler.runClosing(location: location) {}
    }

    /// Runs `body` in this storage's turn, after the calls that asked before.
    ///
    /// - Throws: What `body` throws; ``GridError/storage(_:)`` of kind `closed` after ``close()``;
    ///   ``GridError/reentrantCall`` inside another call's closure on this storage.
    private func inTurn<T>(_ body: () throws -> T) throws -> T {
        try scheduler.run(for: self, waitLimitMilliseconds: Self.waitLimitMilliseconds, location: location) { _ in
            if isClosed.load(ordering: .acquiring) {
                throw GridError.storage(GridStorageFailure(kind: .closed, message: "the database \(location) was closed; open it again"))
            }
            return try body()
        }
    }

    func isSameDatabase(as other: any GridStorageBackend) throws -> Bool {
        other === self
    }
}

/// The rows of one transaction of a ``MemoryStorage``: a copy, committed whole.
final class MemoryTransaction: GridStorageTransaction {
    private(set) var contents: MemoryStorage.Contents

    init(_ contents: MemoryStorage.Contents) {
        self.contents = contents
    }

    /// The rows of the grid with id `id`.
    ///
    /// - Throws: ``GridError/gridNotFound(_:)`` when there is none (dropped in this transaction).
    private func rows(_ id: Int64) throws -> MemoryStorage.Rows {
        guard let name = contents.names[id], let grid = contents.grids[name] else { throw GridError.gridNotFound("#\(id)") }
        return grid
    }

    private func change(_ id: Int64, _ body: (inout MemoryStorage.Rows) -> Void) throws {
        guard let name = contents.names[id], contents.grids[name] != nil else { throw GridError.gridNotFound("#\(id)") }
        body(&contents.grids[name]!)
    }

    // MARK: Reading

    func header(named name: String) throws -> StoredGridRow? {
        contents.grids[name]?.row
    }

    func sectionItemCounts(gridID: Int64) throws -> [(section: Int, count: Int)] {
        try rows(gridID).itemCounts.sorted { $0.key < $1.key }.map { (section: $0.key, count: $0.value) }
    }

    func forEachExplicitSize(gridID: Int64, _ body: (Int, Int, TileSize?) throws -> Void) throws {
        for (section, sizes) in try rows(gridID).sizes {
            for (item, size) in sizes { try body(section, item, size) }
        }
    }

    func storedItem(gridID: Int64, at place: StoredItemPlace) throws -> StoredItemRow? {
        let grid = try rows(gridID)
        let (section, item): (Int, Int)
        switch place {
        case .index(let atSection, let atItem): (section, item) = (atSection, atItem)
        case .key(let key):
            guard let found = grid.keyHolders[key] else { return nil }
            (section, item) = found
        }
        return StoredItemRow(section: section, item: item, itemCount: grid.itemCounts[section],
                             size: grid.sizes[section]?[item].map { .known($0) } ?? .none, key: grid.keys[section]?[item])
    }

    func forEachItemKey(gridID: Int64, _ body: (Int, Int, String) throws -> Void) throws {
        for (section, keys) in try rows(gridID).keys {
            for (item, key) in keys { try body(section, item, key) }
        }
    }

    func listGrids() throws -> [StoredGridSummaryRow] {
        contents.grids.values.sorted { Array($0.row.name.utf8).lexicographicallyPrecedes(Array($1.row.name.utf8)) }.map { grid in
            StoredGridSummaryRow(name: grid.row.name, columns: grid.row.columns, direction: grid.row.direction,
                                 revision: grid.row.revision, updatedAt: grid.updatedAt, sectionCount: Int64(grid.itemCounts.count),
                                 itemCount: Int64(grid.itemCounts.values.reduce(0, +)), kind: grid.row.kind)
        }
    }

    func placementChunkSizes(gridID: Int64) throws -> [(section: Int, firstItem: Int, byteCount: Int)] {
        try rows(gridID).chunks.flatMap { section, chunks in chunks.map { (section: section, firstItem: $0.key, byteCount: $0.value.count) } }
    }

    func placementChunks(gridID: Int64) throws -> [(section: Int, firstItem: Int, cells: [UInt8])] {
        try rows(gridID).chunks.flatMap { section, chunks in chunks.map { (section: section, firstItem: $0.key, cells: $0.value) } }
    }

    func historyEntries(gridID: Int64, limit: Int, deltas: Bool) throws -> [StoredHistoryEntry] {
        try rows(gridID).history.reversed().prefix(limit).map { entry in
            var entry = entry
            if !deltas {
                entry.delta = ""
                entry.registers = entry.registers.map { _ in "" }
            }
            return entry
        }
    }

    func historyDelta(gridID: Int64, revision: Int) throws -> String? {
        try rows(gridID).history.last { $0.revision == Int64(revision) }?.delta
    }

    func historyRegisters(gridID: Int64, revision: Int) throws -> String? {
        try rows(gridID).history.last { $0.revision == Int64(revision) }?.registers
    }

    // MARK: Writing

    func appendHistory(_ entry: StoredHistoryEntry, gridID: Int64, keep: Int) throws {
        var entry = entry
        if entry.madeAt.isEmpty { entry.madeAt = HistoryClock.now() }
        try change(gridID) { grid in
            grid.history.removeAll { $0.revision == entry.revision || $0.revision <= entry.revision - Int64(keep) }
            grid.history.append(entry)
            grid.history.sort { $0.revision < $1.revision }
        }
    }

    func setUpdatedAt(_ time: String, gridID: Int64) throws {
        try change(gridID) { $0.updatedAt = time }
    }

    func setHistoryKeep(_ keep: Int, gridID: Int64, revision: Int) throws {
        try change(gridID) { grid in
            grid.row.historyKeep = Int64(keep)
            grid.history.removeAll { $0.revision <= Int64(revision - keep) }
        }
    }

    func replacePlacements(with changes: GridChangeSet, gridID: Int64) throws {
        try change(gridID) { grid in
            grid.chunks = [:]
            Self.writeChunks(changes, to: &grid)
        }
    }

    func replicaRow() throws -> StoredReplicaRow? { contents.replica }

    func storageIdentity() throws -> String { "" }

    func syncSummary(named name: String) throws -> StoredSyncSummary? {
        let grid = contents.grids[name]
        return StoredSyncSummary(replica: contents.replica, storageIdentity: "", revision: grid?.row.revision, state: grid?.syncState,
                                 drop: contents.syncDrops[name])
    }

    func syncDrops(limit: Int) throws -> [StoredSyncDrop] {
        Array(contents.syncDrops.values.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }.prefix(limit))
    }

    func syncDrop(named name: String) throws -> StoredSyncDrop? {
        contents.syncDrops[name]
    }

    func writeSyncDrop(_ drop: StoredSyncDrop) throws {
        contents.syncDrops[drop.name] = drop
    }

    func deleteSyncDrop(named name: String) throws {
        contents.syncDrops[name] = nil
    }

    func deleteSyncDrops(keeping names: [String]) throws {
        let kept = Set(names.map { Array($0.utf8) })
        contents.syncDrops = contents.syncDrops.filter { kept.contains(Array($0.key.utf8)) }
    }

    func setReplicaRow(_ row: StoredReplicaRow) throws {
        let name = contents.replica.name
        contents.replica = row
        contents.replica.name = name
    }

    func setReplicaName(_ name: String?) throws { contents.replica.name = name }

    func syncState(gridID: Int64) throws -> StoredSyncState? {
        try rows(gridID).syncState
    }

    func syncReplicas(gridID: Int64, limit: Int) throws -> [StoredSyncReplica] {
        Array(try rows(gridID).syncReplicas.prefix(limit))
    }

    func syncRegisters(gridID: Int64, changedAfter version: Int64, limit: Int) throws -> StoredSyncRegisters {
        let grid = try rows(gridID)
        return StoredSyncRegisters(replicas: try syncReplicas(gridID: gridID, limit: limit),
                                   registers: Array(grid.syncRegisters.values.lazy.filter { $0.version > version || $0.kind == "replica" }.prefix(limit)))
    }

    func syncRegisters(gridID: Int64, kind: String, entity: String) throws -> [StoredSyncRegister] {
        try rows(gridID).syncRegisters.values.filter { $0.kind == kind && $0.entity == entity }
    }

    func syncRegisters(gridID: Int64, sizesOf items: [String], namesOf replicas: [String]) throws -> [StoredSyncRegister] {
        let items = Set(items), replicas = Set(replicas)
        return try rows(gridID).syncRegisters.values.filter {
            $0.kind == "item" && $0.field == "s" && items.contains($0.entity) || $0.kind == "replica" && $0.field == "name" && replicas.contains($0.entity)
        }
    }

    func syncItemIDs(gridID: Int64, section: Int, firstItem: Int) throws -> String? {
        try rows(gridID).syncItemIDs[[section, firstItem]]
    }

    func syncItemIDs(gridID: Int64, limit: Int) throws -> [StoredSyncItemIDs] {
        try rows(gridID).syncItemIDs.sorted { ($0.key[0], $0.key[1]) < ($1.key[0], $1.key[1]) }.prefix(limit)
            .map { StoredSyncItemIDs(section: $0.key[0], firstItem: $0.key[1], ids: $0.value) }
    }

    func syncVersionLog(gridID: Int64) throws -> [StoredSyncVersion] {
        Array(try rows(gridID).syncVersions.reversed())
    }

    func writeSyncState(_ write: StoredSyncWrite, gridID: Int64) throws {
        try change(gridID) { grid in
            if write.replacing {
                grid.syncReplicas = []
                grid.syncRegisters = [:]
                grid.syncVersions = []
            }
            // The peers are written only when the write gives them, as the database backends write them.
            let peers = write.peers ?? grid.syncState?.peers
            grid.syncState = write.state
            grid.syncState?.peers = peers
            if let chunks = write.itemIDs {
                grid.syncItemIDs = Dictionary(uniqueKeysWithValues: chunks.map { ([$0.section, $0.firstItem], $0.ids) })
            }
            grid.syncReplicas += write.replicas
            for register in write.registers { grid.syncRegisters[[register.kind, register.entity, register.field]] = register }
            for key in write.removed { grid.syncRegisters[[key.kind, key.entity, key.field]] = nil }
            if write.replacingLog { grid.syncVersions = [] }
            if let log = write.log {
                grid.syncVersions.removeAll { $0.version >= log.version || $0.version <= log.version - StoredSyncWrite.keptVersions }
                grid.syncVersions.append(log)
            }
        }
    }

    func deleteGrid(named name: String) throws -> Bool {
        guard let grid = contents.grids.removeValue(forKey: name) else { return false }
        contents.names[grid.row.id] = nil
        return true
    }

    func insertGrid(named name: String, _ changes: GridChangeSet) throws -> Int64 {
        let id = contents.nextID
        contents.nextID += 1
        contents.names[id] = name
        contents.grids[name] = MemoryStorage.Rows(
            row: StoredGridRow(id: id, name: name, revision: 0, columns: 0, direction: "", defaultSize: "", kind: "", honeycomb: nil),
            updatedAt: HistoryClock.now())
        try write(changes, gridID: id)
        return id
    }

    func write(_ changes: GridChangeSet, gridID: Int64) throws {
        try change(gridID) { grid in
            let settings = changes.settings
            grid.row.columns = Int64(settings.columns)
            grid.row.direction = settings.direction.rawValue
            grid.row.defaultSize = settings.defaultSize.rawValue
            grid.row.revision = Int64(settings.revision)
            grid.row.kind = settings.kind.rawValue
            grid.updatedAt = HistoryClock.now()
            for step in changes.rowSteps {
                switch step {
                case .removeAllChunks: grid.chunks = [:]
                case .removeSections(let first):
                    for section in grid.itemCounts.keys where section >= first {
                        grid.itemCounts[section] = nil
                        grid.sizes[section] = nil
                        Self.removeKeys(ofSection: section, from: 0, in: &grid)
                        grid.chunks[section] = nil
                    }
                case .itemCounts:
                    for (section, count) in changes.itemCounts { grid.itemCounts[section] = count }
                case .sizes:
                    changes.forEachSectionOfNewSizes { section, sizes in
                        var explicit: [Int: TileSize] = [:]
                        for (item, size) in sizes.enumerated() { if let size { explicit[item] = size } }
                        grid.sizes[section] = explicit
                    }
                case .keys:
                    for (section, item) in changes.keyTruncations { Self.removeKeys(ofSection: section, from: item, in: &grid) }
                    for row in changes.keyInserts {
                        grid.keys[row.section, default: [:]][row.item] = row.key
                        grid.keyHolders[row.key] = (row.section, row.item)
                    }
                case .chunks:
                    for (section, firstItem) in changes.chunkTruncations {
                        grid.chunks[section] = grid.chunks[section]?.filter { $0.key < firstItem }
                    }
                    Self.writeChunks(changes, to: &grid)
                case .honeycomb:
                    switch changes.honeycomb {
                    case .set(let honeycomb):
                        grid.row.honeycomb = StoredHoneycombRow(
                            elementWidth: honeycomb.elementWidth, itemSpacing: honeycomb.itemSpacing,
                            orientation: honeycomb.orientation.rawValue, centerItem: honeycomb.centerItem.rawValue,
                            ringOrder: honeycomb.ringOrder.rawValue, scaling: honeycomb.scalingCurve.rawValue)
                    case .remove: grid.row.honeycomb = nil
                    case nil: break
                    }
                }
            }
            // A honeycomb's placements are derived from its item count and geometry alone, which
            // are stored: no reader asks for them from memory.
        }
    }

    private static func writeChunks(_ changes: GridChangeSet, to grid: inout MemoryStorage.Rows) {
        for chunk in changes.chunkUpserts {
            grid.chunks[chunk.section, default: [:]][chunk.firstItem] = changes.text(of: chunk)
        }
    }

    private static func removeKeys(ofSection section: Int, from item: Int, in grid: inout MemoryStorage.Rows) {
        guard let keys = grid.keys[section] else { return }
        for (held, key) in keys where held >= item { grid.keyHolders[key] = nil }
        grid.keys[section] = keys.filter { $0.key < item }
    }
}

/// A database that holds no grids: what a backend reads from while its database has no
/// gridstore tables yet, so a reader that must not create them sees no grids.
package enum EmptyDatabase {
    /// Runs `body` in a read transaction of a database without grids.
    package static func read<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T {
        try MemoryStorage().read(body)
    }
}
