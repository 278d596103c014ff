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
    ///
    /// - Returns: The registers written, as the history keeps them (``RegisterChange/text(_:)``);
    ///   `nil` when the change was left to the next sync.
    static func recordChange(_ edits: [GridEdit], from old: GridSnapshot, to new: GridSnapshot, gridID: Int64, grid name: String,
                             in transaction: any GridStorageTransaction) throws -> String? {
        do {
            return try record(edits, from: old, to: new, gridID: gridID, grid: name, in: transaction)
        } catch let error as GridError {
            // A state past gridstore's limits or damaged is the next sync's to report; the storage's failures are the change's.
            if case .storage = error { throw error }
            return nil
        }
    }

    /// What a change of a synced grid is recorded against: the grid's stored state, when it is
    /// of the grid as `old` and this database's own (not a copy's, nor stamped ahead of its clock).
    private struct Recording {
        let row: StoredSyncState
        let replica: ReplicaID
        let databaseReplica: ReplicaID
        /// What the grid knows of every replica's changes, as ``SyncVersionsText/encode(_:)`` writes it.
        let versions: String
        /// This replica's latest time in ``versions``.
        let latest: HybridTime
        let clock: HybridClock
        let now: Int64
    }

    /// The state a change of `old` is recorded against; `nil` when it is left to the next sync.
    private static func recording(_ old: GridSnapshot, gridID: Int64, in transaction: any GridStorageTransaction) throws -> Recording? {
        guard let row = try transaction.syncState(gridID: gridID), row.revision == Int64(old.revision), row.clock >= 0,
              (0..<Int64.max - 1).contains(row.version),
              let replica = ReplicaID(row.replica), let databaseReplica = ReplicaID(row.databaseReplica) else { return nil }
        // The versions as encode(_:) writes them, read as a vector only when they are not (a hand edit).
        var versions = row.versions
        let latest: HybridTime
        if let time = SyncVersionsText.time(of: replica, in: versions) {
            latest = time
        } else {
            guard let vector = SyncVersionsText.decode(versions) else { return nil }
            (versions, latest) = (SyncVersionsText.encode(vector), vector[replica])
        }
        let context = try transaction.replicaContext()
        let now = context.clock
        guard try currentReplica(context, in: transaction, minting: false).id == databaseReplica,
              !HybridClock.isTooFarAhead(latest, now: now) else { return nil }
        var clock = HybridClock(latest: latest)
        clock.observe(HybridTime(rawValue: row.clock), now: now)
        return Recording(row: row, replica: replica, databaseReplica: databaseReplica, versions: versions, latest: latest,
                         clock: clock, now: now)
    }

    /// The grid's sync state made current for an undo or a redo by identity of the grid `old`,
    /// as a sync makes it (a copy of the database takes a replica id of its own); `nil` when the
    /// grid never synced.
    static func sideForUndo(of old: GridSnapshot, gridID: Int64, grid name: String,
                            in transaction: any GridStorageTransaction) throws -> SyncSide? {
        guard try transaction.syncState(gridID: gridID) != nil else { return nil }
        let side = try prepare(name, in: transaction, minting: true)
        guard side.stored?.id == gridID, side.stored?.snapshot == old, side.layout.content == old.content else { return nil }
        return side
    }

    /// Writes back (undo) or again (redo) the registers of `changes`, the changes' entries
    /// newest first, at one new stamp of this replica, and lays the grid out again.
    mutating func takeBack(_ changes: [[RegisterChange]], redo: Bool) {
        let stamp = SyncStamp(time: clock.tick(now: now), replica: replica)
        for entry in changes { state.takeBack(entry, redo: redo, at: stamp) }
        layout = state.layout()
        isChanged = true
    }

    /// Stores the state an undo or a redo by identity left (``takeBack(_:redo:)``), of the
    /// grid's revision `new` the change wrote, in `transaction`.
    ///
    /// - Returns: The registers written, as the history keeps them (``RegisterChange/kept(_:)``).
    mutating func storeTakenBack(as new: GridSnapshot, in transaction: any GridStorageTransaction) throws -> String? {
        let changes = state.registerChanges(from: loaded ?? ReplicatedGrid())
        stored = (stored!.id, new)
        try store(in: transaction, origin: nil, sending: false)
        return RegisterChange.kept(changes)
    }

    private static func record(_ edits: [GridEdit], from old: GridSnapshot, to new: GridSnapshot, gridID: Int64, grid name: String,
                               in transaction: any GridStorageTransaction) throws -> String? {
        guard let recording = try recording(old, gridID: gridID, in: transaction) else { return nil }
        let row = recording.row, replica = recording.replica
        var idsStored = true
        if old.kind == .tiles, let sizes = sizeEdits(edits) {
            switch try recordSizes(sizes, state: row, replica: replica, recording: recording, itemCounts: old.itemCounts, revision: new.revision, gridID: gridID, grid: name,
                                   in: transaction) {
            case .recorded(let text): return text
            case .stateNeeded: break
            case .idsNeeded: idsStored = false
            }
        }
        guard let (state, layout, numbers) = try? loadState(row, gridID: gridID, in: transaction, grid: name),
              layout.content == old.content else { return nil }
        var side = SyncSide(name: name, replica: replica, databaseReplica: recording.databaseReplica, stored: (gridID, new),
                            state: state, clock: recording.clock, layout: layout, isChanged: true, now: recording.now,
                            loaded: state, numbers: numbers, version: row.version, storedItemIDs: idsStored ? layout.itemIDs : nil,
                            // A state stored before `sent` had sent every write it recorded, at a sync.
                            sent: row.sent.map(HybridTime.init(rawValue:)) ?? recording.latest)
        do {
            try side.record(edits, madeAt: recording.now,
                            ids: EntityIDGenerator(derivedFrom: "\(replica)\u{0}\(new.revision)\u{0}\(recording.now)".utf8))
        } catch {
            // Edits the registers cannot follow one by one are recorded as the content they left.
            (side.state, side.layout) = (state, layout)
        }
        try side.recordDifference(storedAs: row.replica)
        let changes = side.state.registerChanges(from: state)
        try side.store(in: transaction, origin: nil, sending: false)
        return RegisterChange.kept(changes)
    }

    /// What ``recordSizes(_:state:replica:recording:itemCounts:revision:gridID:grid:in:)`` did.
    private enum SizesRecorded {
        /// Recorded: the sizes written, as the history keeps them (``RegisterChange/text(_:)``).
        case recorded(String)
        /// A row it needs is not as expected: the whole state is read.
        case stateNeeded
        /// The items' ids are not stored, or not as the grid is: the whole state is read, and the ids written again.
        case idsNeeded
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
    private static func recordSizes(_ sizes: [(GridIndexPath, TileSize?)], state row: StoredSyncState, replica: ReplicaID,
                                    recording: Recording, itemCounts: [Int], revision: Int,
                                    gridID: Int64, grid name: String, in transaction: any GridStorageTransaction) throws -> SizesRecorded {
        let stored = try transaction.syncReplicas(gridID: gridID, limit: SyncReplicaNumbers.maximumCount + 1)
        guard var numbers = try? SyncReplicaNumbers(stored: stored, grid: name) else { return .stateNeeded }
        var rows = StoredSyncItems(transaction: transaction, gridID: gridID, grid: name, itemCounts: itemCounts, numbers: numbers)
        var ids: [SyncEntityID] = []
        for (path, _) in sizes {
            guard path.section < itemCounts.count, let found = try rows.id(at: path.item, section: path.section),
                  try rows.isPlaced(found, at: path) else { return .idsNeeded }
            ids.append(found)
        }
        var clock = recording.clock
        let stamp = SyncStamp(time: clock.tick(now: recording.now), replica: replica)
        // The items changed, each once, in the order of their ids (a list, for the reason
        // StoredSyncItems keeps one).
        var items: [(id: SyncEntityID, item: ReplicatedGrid.Item, before: TileSize?)] = []
        var overwritten = 0
        for ((_, size), id) in zip(sizes, ids) {
            let index: Int
            if let known = items.firstIndex(where: { $0.id == id }) {
                index = known
            } else {
                guard let item = try rows.item(id), item.place.winner != nil, item.alive.value(or: true) else { return .stateNeeded }
                items.append((id, item, item.size.value(or: nil)))
                overwritten += item.size.shownConflicts.count
                index = items.endIndex - 1
            }
            items[index].item.size.write(size, at: stamp)
        }
        items.sort { $0.id < $1.id }
        var registers: [StoredSyncRegister] = []
        // Written as text directly: a list of `RegisterChange` values would cost a process that
        // makes one toggle the runtime's look-up of their types' metadata.
        var changes = ""
        for (id, item, before) in items {
            let after = item.size.value(or: nil)
            if before != after { RegisterChange.appendSizeLine(to: &changes, item: id, before: before, after: after) }
            for entry in item.size.context { _ = numbers.number(of: entry.replica) }
            var writer = BundleWriter(indices: numbers)
            writer.register(item.size, RegisterJSON.size)
            registers.append(StoredSyncRegister(kind: "item", entity: id.description, field: "s",
                                                register: String(decoding: writer.text, as: UTF8.self), version: row.version + 1))
        }
        // A write replaces the conflicts its register held; no entry in sync_versions, whose
        // latest entry still bounds every register at or before its version.
        let state = StoredSyncState(replica: row.replica, databaseReplica: row.databaseReplica, revision: Int64(revision),
                                    clock: clock.latest.rawValue,
                                    versions: SyncVersionsText.advancing(replica, to: stamp.time, in: recording.versions),
                                    conflicts: max(0, row.conflicts - Int64(overwritten)), version: row.version + 1,
                                    sent: row.sent ?? recording.latest.rawValue)
        try transaction.writeSyncState(StoredSyncWrite(state: state, replacing: false, replicas: numbers.takeAdded(), registers: registers,
                                                       removed: [], log: nil), gridID: gridID)
        return .recorded(changes)
    }
}
