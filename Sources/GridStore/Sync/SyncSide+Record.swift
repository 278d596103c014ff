import GridLayout

extension SyncSide {
    /// Records a change made to a grid that syncs as this replica's writes, by item identity,
    /// in the change's own transaction: the registers it changed are written, stamped by the
    /// grid's hybrid clock, and the state is then of the grid's new revision, so a sync has
    /// nothing of this database's to recover. A change of a few sizes reads and writes only the
    /// rows of the items it changed; any other change reads the grid's whole sync state.
    ///
    /// Left to the next sync, which recovers it from the history (or by comparing contents),
    /// when the stored state was not of the grid before the change (a database migrated with
    /// changes not yet synced, a hand edit), when the database is a copy or the grid's replica
    /// stamped ahead of this database's clock (the sync gives it a new replica id first), or
    /// when the state cannot be read (the sync then says so): a change never fails for its grid's sync state.
    static func recordChange(_ edits: [GridEdit], from old: GridSnapshot, to new: GridSnapshot, gridID: Int64, grid name: String,
                             in transaction: any GridStorageTransaction, database: GridDatabase) throws {
        do {
            try record(edits, from: old, to: new, gridID: gridID, grid: name, in: transaction, database: database)
        } catch let error as GridError {
            // A state past gridstore's limits or damaged is the next sync's to report; the storage's failures are the change's.
            if case .storage = error { throw error }
        }
    }

    private static func record(_ edits: [GridEdit], from old: GridSnapshot, to new: GridSnapshot, gridID: Int64, grid name: String,
                               in transaction: any GridStorageTransaction, database: GridDatabase) throws {
        guard let row = try transaction.syncState(gridID: gridID), row.revision == Int64(old.revision), row.clock >= 0,
              (0..<Int64.max - 1).contains(row.version),
              let replica = ReplicaID(row.replica), let versions = SyncVersionsText.decode(row.versions),
              let databaseReplica = ReplicaID(row.databaseReplica) else { return }
        let context = try transaction.replicaContext()
        let now = context.clock
        guard try currentReplica(context, in: transaction, minting: false).id == databaseReplica,
              !HybridClock.isTooFarAhead(versions[replica], now: now) else { return }
        var clock = HybridClock(latest: versions[replica])
        clock.observe(HybridTime(rawValue: row.clock), now: now)
        var idsStored = true
        if old.kind == .tiles, let sizes = sizeEdits(edits) {
            let recorded = try recordSizes(sizes, state: row, replica: replica, versions: versions, clock: clock, now: now,
                                           itemCounts: old.itemCounts, revision: new.revision, gridID: gridID, grid: name, in: transaction)
            if recorded == true { return }
            idsStored = recorded != nil
        }
        guard let (state, layout, numbers) = try? loadState(row, gridID: gridID, in: transaction, grid: name),
              layout.content == old.content else { return }
        var side = SyncSide(name: name, replica: replica, databaseReplica: databaseReplica, stored: (gridID, new),
                            state: state, clock: clock, layout: layout, isChanged: true, now: now,
                            loaded: state, numbers: numbers, version: row.version, storedItemIDs: idsStored ? layout.itemIDs : nil,
                            // A state stored before `sent` had sent every write it recorded, at a sync.
                            sent: row.sent.map(HybridTime.init(rawValue:)) ?? versions[replica])
        do {
            try side.record(edits, madeAt: now, ids: EntityIDGenerator(derivedFrom: "\(replica)\u{0}\(new.revision)\u{0}\(now)".utf8))
        } catch {
            // Edits the registers cannot follow one by one are recorded as the content they left.
            (side.state, side.layout) = (state, layout)
        }
        try side.recordDifference(storedAs: row.replica)
        try side.store(in: transaction, origin: nil, sending: false)
    }

    /// The most sizes a change may set to be recorded from the rows of its items alone.
    static let maximumRowSizeEdits = 64

    /// The sizes `edits` set, when they set sizes alone and few enough; `nil` otherwise.
    private static func sizeEdits(_ edits: [GridEdit]) -> [(GridIndexPath, TileSize?)]? {
        guard !edits.isEmpty, edits.count <= maximumRowSizeEdits else { return nil }
        var sizes: [(GridIndexPath, TileSize?)] = []
        for edit in edits {
            guard case .size(let path, _, let size) = edit else { return nil }
            sizes.append((path, size))
        }
        return sizes
    }

    /// Records sizes set on items, reading the ids of the items at their places and their
    /// registers, and writing their size registers and the state's row. The stored ids are
    /// checked as they are used: each chunk holds as many ids as the section has items there,
    /// and each item's place falls between its neighbours', in the same section.
    ///
    /// - Returns: `true` when recorded; `false` when a row it needs is not as expected (the whole
    ///   state is read then); `nil` when the items' ids are not stored or not as the grid is (the
    ///   whole state is read, and the ids written again).
    private static func recordSizes(_ sizes: [(GridIndexPath, TileSize?)], state row: StoredSyncState, replica: ReplicaID,
                                    versions: VersionVector, clock: HybridClock, now: Int64, itemCounts: [Int], revision: Int,
                                    gridID: Int64, grid name: String, in transaction: any GridStorageTransaction) throws -> Bool? {
        let stored = try transaction.syncReplicas(gridID: gridID, limit: SyncReplicaNumbers.maximumCount + 1)
        guard var numbers = try? SyncReplicaNumbers(stored: stored, grid: name) else { return false }
        var rows = StoredSyncItems(transaction: transaction, gridID: gridID, grid: name, itemCounts: itemCounts, numbers: numbers)
        var ids: [SyncEntityID] = []
        for (path, _) in sizes {
            guard path.section < itemCounts.count, let found = try rows.id(at: path.item, section: path.section),
                  try rows.isPlaced(found, at: path) else { return nil }
            ids.append(found)
        }
        var clock = clock
        let stamp = SyncStamp(time: clock.tick(now: now), replica: replica)
        // The items changed, each once, in the order of their ids (a list, for the reason
        // StoredSyncItems keeps one).
        var items: [(id: SyncEntityID, item: ReplicatedGrid.Item)] = []
        var overwritten = 0
        for ((_, size), id) in zip(sizes, ids) {
            let index: Int
            if let known = items.firstIndex(where: { $0.id == id }) {
                index = known
            } else {
                guard let item = try rows.item(id), item.place.winner != nil, item.alive.value(or: true) else { return false }
                items.append((id, item))
                overwritten += item.size.shownConflicts.count
                index = items.endIndex - 1
            }
            items[index].item.size.write(size, at: stamp)
        }
        items.sort { $0.id < $1.id }
        var registers: [StoredSyncRegister] = []
        for (id, item) in items {
            for entry in item.size.context { _ = numbers.number(of: entry.replica) }
            var writer = BundleWriter(indices: numbers.numbers)
            writer.register(item.size, RegisterJSON.size)
            registers.append(StoredSyncRegister(kind: "item", entity: id.description, field: "s",
                                                register: String(decoding: writer.text, as: UTF8.self), version: row.version + 1))
        }
        var known = versions
        known.advance(replica, to: stamp.time)
        // A write replaces the conflicts its register held; no entry in sync_versions, whose
        // latest entry still bounds every register at or before its version.
        let state = StoredSyncState(replica: row.replica, databaseReplica: row.databaseReplica, revision: Int64(revision),
                                    clock: clock.latest.rawValue, versions: SyncVersionsText.encode(known),
                                    conflicts: max(0, row.conflicts - Int64(overwritten)), version: row.version + 1,
                                    sent: row.sent ?? versions[replica].rawValue)
        try transaction.writeSyncState(StoredSyncWrite(state: state, replacing: false, replicas: numbers.takeAdded(), registers: registers,
                                                       removed: [], log: nil), gridID: gridID)
        return true
    }
}
