import GridLayout

extension SyncSide {
    /// What a merge by rows did.
    struct RowsMerge {
        /// The registers whose winning value changed, as ``SyncSide/merge(_:)`` counts them.
        var received: Int
        /// The grid's revision before and after.
        var revision: (before: Int, after: Int)
        /// The conflicts the grid's state holds after.
        var conflicts: Int
    }

    /// Merges `bundle` into the grid `name` reading and writing only the rows it names, when it
    /// changes nothing but sizes of tiles the grid shows (a peer's toggles, an import of sizes):
    /// the grid, then in one round trip the tiles' ids (`sync_item_ids`, each chunk sealed for
    /// its place, written with the layout: a tile they hold is shown), the size registers of the
    /// tiles and the names the bundle names, the replicas' numbers and the versions log. The grid
    /// takes the new sizes as one merge in its history, as a whole merge writes it; the state the
    /// rows that changed, the revision, and a versions log entry bounding every register.
    ///
    /// Refuses what a whole merge refuses of the bundle (a sender's clock far ahead, a write
    /// forged as this replica's), with the same errors, and writes nothing before it knows it
    /// can write everything. Registers it does not read are not checked: one damaged elsewhere in
    /// the state is found by `gridstore check`, or by the next whole merge, which refuses it.
    ///
    /// - Parameter clockReference: A server's clock, when the bundle comes from one and this
    ///   database is not one: what the bundle's stamps are judged by when it is ahead of this one's.
    /// - Returns: The result; `nil` when the bundle or the stored state is not one this reads
    ///   (the grid's state is not current, a bundle that places, keys or deletes an item, one
    ///   that names an item the grid does not show, ids that do not check), nothing written:
    ///   the whole state is merged then.
    /// - Complexity: O(*n* log *n* + *d*) for the grid's *n* items (their ids read and sorted,
    ///   their sizes written whole) and the bundle's *d* registers.
    static func applyByRows(_ bundle: SyncBundle, grid name: String, in transaction: any GridStorageTransaction,
                            clockReference: Int64? = nil) throws -> RowsMerge? {
        guard bundle.grid == name, let current = try current(name, in: transaction) else { return nil }
        return try applyByRows(bundle, to: current, in: transaction, clockReference: clockReference)?.result
    }

    /// ``applyByRows(_:grid:in:clockReference:)`` into the state `current`, read in
    /// `transaction`; with the state it leaves.
    ///
    /// - Parameters:
    ///   - sending: Whether this replica's writes leave with the merge (a sync's
    ///     reply): merged by rows only when the state holds the name the database goes by, which
    ///     a whole sync writes first; the state then records them as sent, and the storage marks
    ///     the send (``GridStorageTransaction/recordSend()``).
    ///   - beforeWriting: Called with the grid's versions log, newest entry first, once the rows
    ///     the merge reads are read and before it writes any.
    private static func applyByRows(_ bundle: SyncBundle, to current: Current, in transaction: any GridStorageTransaction,
                                    clockReference: Int64?, sending: Bool = false,
                                    beforeWriting: ([StoredSyncVersion]) throws -> Void = { _ in })
        throws -> (result: RowsMerge, current: Current)? {
        let delta = bundle.sorted, name = bundle.grid, header = current.header
        guard delta.sections.isEmpty, delta.options == ReplicatedGrid.Options(), delta.items.allSatisfy({
            guard case .item(_, let item) = $0 else { return true }
            return item.place.context.isEmpty && item.key.context.isEmpty && item.alive.context.isEmpty
        }) else { return nil }
        let replica = current.replica, now = max(current.now, clockReference ?? .min)
        let latest = delta.latestTimes()
        try checkSender(of: bundle, latest: latest, replica: replica, known: current.versions, now: now)
        let taken = takenNames(of: bundle, replica: replica, known: current.versions, now: now)
        let named = Set(taken.keys).union([bundle.replica, replica]).sorted()

        // In one round trip: the versions log, the replicas' numbers, the tiles' ids, and the
        // registers of the tiles the bundle names and of the names (this replica's, the
        // sender's, and those the bundle carries).
        let snapshot = delta.items.isEmpty ? nil : try GridSnapshot.load(header, name: name, from: transaction)
        let itemCounts = snapshot?.itemCounts ?? []
        guard snapshot?.kind ?? .tiles == .tiles else { return nil }
        let stored = try transaction.syncMergeRows(gridID: current.gridID, sizesOf: delta.items.map(\.id.description),
                                                   namesOf: named.map(\.description), replicaLimit: SyncReplicaNumbers.maximumCount + 1,
                                                   chunkLimit: delta.items.isEmpty ? 0 : StoredSyncItems.chunkCount(itemCounts) + 1)
        let log = stored.log.first { $0.version <= current.row.version }
        guard let logged = log.flatMap({ SyncVersionsText.decode($0.versions) }) else { return nil }
        var numbers = try SyncReplicaNumbers(stored: stored.replicas, grid: name)
        // Every tile's id with its place, in the order of the ids.
        var placed: [(id: SyncEntityID, path: GridIndexPath)] = []
        if !delta.items.isEmpty {
            guard let ids = StoredSyncItems.placedIDs(in: stored.itemIDs, gridID: current.gridID, itemCounts: itemCounts) else { return nil }
            placed = ids
        }
        var sizeRows: [String: StoredSyncRegister] = [:]
        var storedNames: [ReplicaID: MergeRegister<String>] = [:]
        for row in stored.registers {
            if row.kind == "item" {
                sizeRows[row.entity] = row
            } else if row.kind == "replica", let (id, name) = try? ReplicatedGrid.name(in: row, replicas: numbers) {
                // A name that cannot be read is taken for none, as reading the whole state does.
                storedNames[id] = name
            }
        }
        // Each item's size merged, in the order of their ids, with what it held before.
        var merged: [(id: SyncEntityID, path: GridIndexPath, before: MergeRegister<TileSize?>, after: MergeRegister<TileSize?>)] = []
        merged.reserveCapacity(delta.items.count)
        var next = 0
        for entry in delta.items {
            let id = entry.id
            let incoming: MergeRegister<TileSize?>
            switch entry {
            case .size(_, let write): incoming = MergeRegister(heads: [write], context: [])
            case .item(_, let item): incoming = item.size
            }
            // A tile the grid shows is one whose id its sealed chunks hold (they are written with
            // the layout); a size that cannot be read is left to the whole merge, which says why.
            while next < placed.count && placed[next].id < id { next += 1 }
            guard next < placed.count, placed[next].id == id, case let path = placed[next].path,
                  let item = try? ReplicatedGrid.item(id, rows: sizeRows[id.description].map { [$0] } ?? [], replicas: numbers, grid: name)
            else { return nil }
            if incoming.knownTime(of: replica) > item.size.knownTime(of: replica) { throw GridError.sync(forged(replica)) }
            var size = item.size
            _ = size.merge(incoming)
            // A register merged empty cannot be written back: the whole merge says why.
            guard size.winner != nil else { return nil }
            merged.append((id, path, item.size, size))
        }
        // The names the bundle brings, merged as the whole merge merges them: a stored name that
        // cannot be read is taken for none.
        var renamed: [(replica: ReplicaID, name: MergeRegister<String>)] = []
        for (named, incoming) in taken.sorted(by: { $0.key < $1.key }) {
            var name = storedNames[named] ?? MergeRegister()
            if name.merge(incoming) { renamed.append((named, name)) }
        }
        if sending && !current.names(storedNames[replica]) { return nil }
        let sent = sending ? current.sentAfterSending : nil

        var versions = current.versions
        if bundle.cursor.isCovered(by: versions) { versions.formUnion(delta.versions) }
        let changed = merged.filter { $0.before != $0.after }
        // A state holds the changes of at most as many replicas as a bundle names (every replica
        // its registers number, or its versions name); near that, the whole merge counts exactly.
        func withinReplicaLimit() -> Bool {
            versions.entries.count + numbers.count + 1 <= SyncBundle.maximumReplicas
                || Set(versions.entries.keys).union(numbers.ids).union([replica]).count <= SyncBundle.maximumReplicas
        }
        // A count of conflicts no state holds is a hand edit: the whole merge counts them again.
        guard (0..<Int64(Int32.max)).contains(current.row.conflicts), withinReplicaLimit() else { return nil }
        try beforeWriting(stored.log)
        // The sender met, among the grid's peers, with the latest version whose registers it holds.
        var peers = SyncPeers(stored: current.row) ?? SyncPeers()
        func meetSender(log: [StoredSyncVersion]) -> String? {
            let held = SyncPeers.version(heldBy: delta.versions, log: log)
            guard bundle.replica != replica, peers.isNews(bundle.replica, holding: held, at: now) else { return nil }
            peers.meet(bundle.replica, holding: held, at: now)
            return peers.text
        }
        guard !changed.isEmpty || !renamed.isEmpty || versions != current.versions else {
            var after = current
            let met = meetSender(log: stored.log.filter { $0.version <= current.row.version })
            if met != nil || sent != nil {
                after.row.peers = met ?? after.row.peers
                after.row.sent = sent ?? after.row.sent
                var write = StoredSyncWrite(state: after.row, replacing: false, replicas: [], registers: [], removed: [], log: nil)
                write.peers = met
                try transaction.writeSyncState(write, gridID: header.id)
                if sent != nil { try transaction.recordSend() }
            }
            return (RowsMerge(received: 0, revision: (header.revision, header.revision), conflicts: Int(current.row.conflicts)), after)
        }

        // The registers written, numbering the replicas they name; past the numbers a state
        // keeps, the whole merge writes the state anew. A version, and the log's entry for it,
        // only when a register changed (as the whole merge writes them). The entry bounds every register:
        // those at its previous entry by it, those a toggle wrote since by this replica's
        // version (a toggle writes no entry), and those written now by their writes.
        let version = changed.isEmpty && renamed.isEmpty ? current.row.version : current.row.version + 1
        var registers: [StoredSyncRegister] = []
        var bound = logged
        bound.formUnion(versions)
        for (id, _, _, size) in changed {
            for entry in size.context {
                _ = numbers.number(of: entry.replica)
                if entry.time > bound[entry.replica] { bound.advance(entry.replica, to: entry.time) }
            }
            var writer = BundleWriter(indices: numbers)
            writer.register(size, RegisterJSON.size)
            registers.append(StoredSyncRegister(kind: "item", entity: id.description, field: "s",
                                                register: String(decoding: writer.text, as: UTF8.self), version: version))
        }
        for (named, name) in renamed {
            for entry in name.context { _ = numbers.number(of: entry.replica) }
            var writer = BundleWriter(indices: numbers)
            writer.register(name, RegisterJSON.name)
            registers.append(StoredSyncRegister(kind: "replica", entity: named.description, field: "name",
                                                register: String(decoding: writer.text, as: UTF8.self), version: version))
        }
        guard withinReplicaLimit() else { return nil }

        // The grid, when a size it shows changed: one merge, as the whole merge writes it.
        var revision = header.revision
        let sizes = changed.filter { $0.before.value(or: nil) != $0.after.value(or: nil) }
            .map { ($0.path, $0.after.value(or: nil)) }
            .sorted { ($0.0.section, $0.0.item) < ($1.0.section, $1.0.item) }
        if !sizes.isEmpty, let snapshot {
            let label = bundle.replica.label(named: (renamed.first { $0.replica == bundle.replica }?.name ?? storedNames[bundle.replica])?
                .winner?.value)
            let edited = try GridEditor.edit(snapshot, seenAs: nil) { try $0.setSizes(sizes) }
            let written = try GridRevisionWriter.write((edited.snapshot, edited.changes, edited.edits), from: snapshot, gridID: header.id,
                                                       grid: name, record: HistoryRecord(kind: .merge, operation: "sync from \(label)"),
                                                       keep: header.historyKeep, in: transaction)
            revision = written?.revision ?? revision
        }

        var clock = HybridClock(latest: current.versions[replica])
        clock.observe(HybridTime(rawValue: current.row.clock), now: now)
        for time in latest.values { clock.observe(time, now: now) }
        let conflicts = Int(current.row.conflicts) + changed.reduce(0) { $0 + $1.after.shownConflicts.count - $1.before.shownConflicts.count }
        let entry = registers.isEmpty ? nil : StoredSyncVersion(version: version, versions: SyncVersionsText.encode(bound))
        let logAfter = (entry.map { [$0] } ?? []) + stored.log.filter { $0.version <= current.row.version }
        let met = meetSender(log: logAfter)
        let state = StoredSyncState(replica: current.row.replica, databaseReplica: current.row.databaseReplica, revision: Int64(revision),
                                    clock: clock.latest.rawValue, versions: SyncVersionsText.encode(versions),
                                    conflicts: Int64(max(0, conflicts)), version: version, sent: sent ?? current.row.sent,
                                    peers: met ?? current.row.peers)
        var write = StoredSyncWrite(state: state, replacing: false, replicas: numbers.takeAdded(), registers: registers, removed: [],
                                    log: entry)
        write.peers = met
        try transaction.writeSyncState(write, gridID: header.id)
        if sent != nil { try transaction.recordSend() }
        // As the whole merge counts them: the registers whose winning value changed (a first
        // write of the default size too, which `winner?.value` would flatten away).
        let received = changed.count { $0.before.winner.map(\.value) != $0.after.winner.map(\.value) }
        var after = current
        after.row = state
        after.versions = versions
        after.header.revision = revision
        return (RowsMerge(received: received, revision: (header.revision, revision), conflicts: max(0, conflicts)), after)
    }

    /// The other side's step of a sync by rows: `bundle` merged by rows (``applyByRows(_:grid:in:clockReference:)``),
    /// and what a peer at `peer` lacks, this replica's writes recorded as sent, in `transaction`.
    ///
    /// What the peer lacks is read from the rows before the merge: the merge adds only writes
    /// the peer sent, and merging registers is a join, so the peer takes the same state from
    /// the registers before the merge as from those after it, and the rows the merge writes
    /// are not read again. The reply carries the versions the merge leaves.
    ///
    /// - Returns: The merge's result and the reply; `nil`, with nothing written, when the state
    ///   is not current, the peer knows more of this replica's changes than ever left here (a
    ///   restore, which a whole sync hands to a new replica), the state does not hold the name the
    ///   database goes by, or the bundle is not one merged by rows.
    static func answerByRows(_ bundle: SyncBundle, grid name: String, peer: VersionVector, in transaction: any GridStorageTransaction,
                             clockReference: Int64?) throws -> (result: RowsMerge, reply: SyncBundle)? {
        guard bundle.grid == name, let current = try current(name, in: transaction), peer[current.replica] <= current.sent else { return nil }
        var lacked: StoredChanges?
        guard let applied = try applyByRows(bundle, to: current, in: transaction, clockReference: clockReference, sending: true,
                                            beforeWriting: { lacked = try changedRows(of: current, since: peer, log: $0, grid: name, in: transaction) }),
              let lacked else { return nil }
        let delta = try lacked.changes(since: peer, versions: applied.current.versions, grid: name)
        return (applied.result, SyncBundle(grid: name, replica: current.replica, cursor: peer, content: .sorted(delta)))
    }
}
