extension Grid {
    /// Copies grids from one database to another, on any backends, keeping their revisions,
    /// their history, when they last changed, and their items' sync ids.
    ///
    /// Everything is read in one transaction of `source` and written in one transaction of
    /// `target`: the target gets every grid or none. This is how grids move from an SQLite
    /// file to a PostgreSQL server and back. Each grid's kept history entries come along (with
    /// their times, actors and edits) and its retention, so `undo`, `snapshot(at:)` and
    /// `revert(to:)` work on the copy as on the original; without `history`, the copies start
    /// with none. A grid that syncs keeps its sync state, so the copy syncs with the original's
    /// peers item by item, as a replica of its own, and a drop of its name recorded in `target`
    /// is forgotten (a grid copied back after a drop is restored, not dropped again); a copy of
    /// every grid also carries the drops `source` recorded, so moving a database drops the same
    /// grids on its peers (docs/sync.md, "Dropping a grid").
    ///
    /// ```swift
    /// let file = try GridDatabase(path: "grids.sqlite")
    /// let server = try GridDatabase(postgreSQL: "postgresql://app@db/layouts")
    /// try Grid.copy(from: file, to: server)
    /// ```
    ///
    /// - Parameters:
    ///   - names: The grids to copy; `nil` for all.
    ///   - replacing: Whether a grid of the same name in `target` is replaced; otherwise it is refused.
    ///   - history: Whether each grid's history is copied with it.
    /// - Returns: The copied grids as the target now holds them.
    /// - Throws: ``GridError/gridNotFound(_:)`` for a name `source` lacks,
    ///   ``GridError/gridExists(_:)`` for a name `target` has (unless `replacing`),
    ///   ``GridError/limitExceeded(_:)`` when both are one database, and ``GridError/storage(_:)``
    ///   for what either database reports. Nothing is written then.
    @discardableResult
    public static func copy(from source: GridDatabase, to target: GridDatabase, names: [String]? = nil,
                            replacing: Bool = false, history: Bool = true) throws(GridError) -> [GridSummary] {
        try GridError.catching {
            // Copying a database onto itself would delete each grid, and its history, before writing it again.
            if try source === target || source.isSameDatabase(as: target) {
                throw GridError.limitExceeded("\(source.location) and \(target.location) are one database; a copy needs two")
            }
            // Read whole, then written: the source's connection is not held while the target's
            // lock is waited for (two copies in opposite directions would wait for each other).
            let copy = try source.storageRead { try GridCopy(reading: names, history: history, from: $0) }
            return try target.storageWrite { transaction in
                try copy.checkNames(in: transaction, replacing: replacing)
                return try copy.write(into: transaction, of: target)
            }
        }
    }
}

/// Grids read from one database for a copy into another (``GridWriteTransaction/copy(from:names:replacing:history:)``).
struct GridCopy {
    /// What is copied of one grid.
    struct Copied {
        var snapshot: GridSnapshot
        var updatedAt: String
        var keep: Int
        /// Kept history entries, oldest first, each checked as any entry read is.
        var history: [StoredHistoryEntry]
        /// The grid's sync state, when it syncs: its items keep their sync ids on the copy, which
        /// syncs as a replica of its own (the target's replica id is not the one it was stored under).
        var syncState: StoredSyncState?
        /// Its registers and the replicas they number, and what they knew at its latest sync version.
        var syncRegisters = StoredSyncRegisters(replicas: [], registers: [])
        var syncLog: StoredSyncVersion?
    }

    /// The grids, in the order asked for.
    var grids: [Copied]
    /// The drops the source recorded, when every grid is copied.
    var drops: [SyncDrop.Named]
    /// Whether the grids' history entries come along.
    var history: Bool

    /// Reads the grids named `names` (`nil`: all) from `transaction`.
    ///
    /// - Throws: ``GridError/gridNotFound(_:)`` for a name the source lacks, and what reading meets.
    init(reading names: [String]?, history: Bool, from transaction: any GridStorageTransaction) throws {
        self.history = history
        let summaries = try transaction.grids()
        // Keyed by bytes: two names Swift's `==` finds equal (NFC and NFD forms written by an
        // older gridstore) are two grids, each with its own time.
        let updatedAt = Dictionary(summaries.map { (Array($0.name.utf8), $0.updatedAt) }, uniquingKeysWith: { first, _ in first })
        var named = Set<String>()
        // A name asked for twice is copied once.
        let wanted = names.map { $0.map(GridLimits.canonical).filter { named.insert($0).inserted } } ?? summaries.map(\.name)
        grids = try wanted.map { name in
            // A name written by hand that no grid may have would be copied into a grid no
            // call can open.
            try GridLimits.validate(name: name)
            guard let header = try transaction.header(named: name)?.header() else { throw GridError.gridNotFound(name) }
            let snapshot = try GridSnapshot.load(header, name: name, from: transaction)
            var entries: [StoredHistoryEntry] = []
            if history {
                entries = try GridHistory.entries(in: transaction, gridID: header.id, grid: name, deltas: true).reversed()
                for entry in entries {
                    _ = try GridHistoryEntry(entry, grid: name)
                    _ = try HistoryDelta.decode(entry.delta, revision: Int(entry.revision), grid: name)
                }
            }
            var copied = Copied(snapshot: snapshot, updatedAt: updatedAt[Array(name.utf8)] ?? "", keep: header.historyKeep,
                                history: entries, syncState: try transaction.syncState(gridID: header.id))
            if copied.syncState != nil {
                copied.syncRegisters = try transaction.syncRegisters(gridID: header.id, changedAfter: 0,
                                                                     limit: ReplicatedGrid.maximumRegisterRows + 1)
                copied.syncLog = try transaction.syncVersionLog(gridID: header.id).first
            }
            return copied
        }
        drops = names == nil ? try SyncDrop.all(in: transaction) : []
    }

    /// Refuses the copy, before anything is written, when a grid of the same name is in
    /// `transaction` and `replacing` is not set.
    func checkNames(in transaction: any GridStorageTransaction, replacing: Bool) throws {
        guard !replacing else { return }
        for grid in grids where try transaction.header(named: grid.snapshot.name) != nil {
            throw GridError.gridExists(grid.snapshot.name)
        }
    }

    /// Writes the grids into `transaction` of `database`, replacing those of the same names.
    ///
    /// - Returns: The copied grids as `transaction` now holds them.
    func write(into transaction: any GridStorageTransaction, of database: GridDatabase) throws -> [GridSummary] {
        for grid in grids {
            let snapshot = grid.snapshot
            if try transaction.header(named: snapshot.name) != nil { _ = try transaction.deleteGrid(named: snapshot.name) }
            let id = try transaction.insertGrid(named: snapshot.name, GridChangeSet(inserting: snapshot))
            if history {
                if grid.keep != GridHistory.defaultKeep {
                    try transaction.setHistoryKeep(grid.keep, gridID: id, revision: snapshot.revision)
                }
                for entry in grid.history { try transaction.appendHistory(entry, gridID: id, keep: max(1, grid.keep)) }
            }
            if GridHistoryEntry.isTimestamp(grid.updatedAt) { try transaction.setUpdatedAt(grid.updatedAt, gridID: id) }
            if let state = grid.syncState {
                let dropped = try transaction.syncDrop(named: snapshot.name) != nil
                try transaction.deleteSyncDrop(named: snapshot.name)
                try transaction.writeSyncState(StoredSyncWrite(state: state, replacing: true, replicas: grid.syncRegisters.replicas,
                                                               registers: grid.syncRegisters.registers, removed: [], log: grid.syncLog),
                                               gridID: id)
                // Copied back after a drop: a restore, made after the drop, which its peers take.
                if dropped { try SyncDrop.markRestored(snapshot.name, in: transaction, database: database) }
            }
        }
        for drop in drops { try SyncDrop.record(drop.drop, named: drop.name, in: transaction) }
        let copied = Set(grids.map(\.snapshot.name))
        return try transaction.grids().filter { copied.contains($0.name) }
    }
}
