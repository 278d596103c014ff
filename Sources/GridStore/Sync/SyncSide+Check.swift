/// What ``Grid/checkSyncStates(in:names:repairing:)`` found in one grid's sync state.
public struct SyncStateCheck: Codable, Sendable, Hashable {
    /// The grid's name.
    public let grid: String
    /// What is wrong, as sentences; empty when nothing is.
    public let problems: [String]
    /// Whether the problems were mended.
    public let repaired: Bool
}

extension SyncSide {
    /// What `gridstore check` finds in a grid's sync state: a state that cannot be read, and
    /// values stamped by a clock that was fast, which win over every change made without seeing
    /// them until this database's clock catches up. With `repairing`, those values are written
    /// again, unchanged, by this grid's replica at this database's time (the sync state alone
    /// changes; the grid keeps its revision); a state that cannot be read is not mended here,
    /// and the problem says how to get the grid again from a peer.
    ///
    /// - Returns: The problems, as sentences, and whether they were mended.
    static func check(_ name: String, gridID: Int64, in transaction: any GridStorageTransaction, database: GridDatabase,
                      repairing: Bool) throws -> (problems: [String], repaired: Bool) {
        guard let row = try transaction.syncState(gridID: gridID) else { return ([], false) }
        let now = try transaction.clockMilliseconds()
        let limit = HybridTime(milliseconds: now + HybridClock.maximumDrift)
        let loaded: (state: ReplicatedGrid, layout: ReplicatedGrid.Layout, numbers: SyncReplicaNumbers)
        do {
            loaded = try loadState(row, gridID: gridID, in: transaction, grid: name)
        } catch {
            return (["its sync state cannot be read (\(error)); to take the grid again from a peer, drop it here alone "
                     + "('gridstore drop \(SyncDrop.quoted(name)) --keep-on-peers', on this database) and sync with the peer (changes made "
                     + "here since the last sync are lost)"], false)
        }
        var problems: [String] = []
        var repaired = false
        if try indexProblem(of: loaded, row: row, gridID: gridID, in: transaction, grid: name) {
            problems.append("its sync index (the tiles' sync ids in order, the registers' versions, the versions log) is out of "
                            + "step with its registers: a toggle could land on another tile, or an export leave changes out")
            if repairing {
                try rebuildIndex(of: loaded, row: row, gridID: gridID, in: transaction)
                repaired = true
            } else {
                problems[problems.count - 1] += "; 'gridstore check --repair' rebuilds it"
            }
        }
        // Names are labels: one that cannot be read is left out, one stamped ahead hides the
        // names its replica gives itself later. Deleted, each comes again from its replica.
        let nameRows = try transaction.syncRegisters(gridID: gridID, changedAfter: .max, limit: SyncReplicaNumbers.maximumCount + 1).registers
        let oddNames = nameRows.filter { row in
            guard let (_, name) = try? ReplicatedGrid.name(in: row, replicas: loaded.numbers) else { return true }
            return name.latestTime > limit
        }
        if !oddNames.isEmpty {
            problems.append("\(oddNames.count) of the names its replicas go by cannot be read or are stamped ahead of this database's "
                            + "clock: they are left out, or hide the names those replicas give themselves later"
                            + (repairing ? "" : "; 'gridstore check --repair' deletes them, and each replica's name comes again with its next sync"))
            if repairing {
                try transaction.writeSyncState(StoredSyncWrite(state: row, replacing: false, replicas: [], registers: [],
                                                               removed: oddNames.map { ($0.kind, $0.entity, $0.field) }, log: nil),
                                               gridID: gridID)
                repaired = true
            }
        }
        // The peers met: a text gridstore would not write, or a peer said to hold a version the
        // grid has not reached, is taken for none, each peer recorded again when next met.
        if SyncPeers(stored: row) == nil {
            problems.append("its record of the peers it met in syncs cannot be read, and is taken for none"
                            + (repairing ? "" : "; 'gridstore check --repair' clears it, and each peer is recorded again at its next sync"))
            if repairing {
                var write = StoredSyncWrite(state: row, replacing: false, replicas: [], registers: [], removed: [], log: nil)
                write.peers = ""
                try transaction.writeSyncState(write, gridID: gridID)
                repaired = true
            }
        }
        let ahead = loaded.state.values(stampedAfter: limit)
        guard ahead.count > 0 else { return (problems, repaired) }
        let minutes = (ahead.latest.milliseconds - now + 59_999) / 60_000
        let problem = "\(ahead.count) value(s) of its sync state are stamped up to \(minutes) minute(s) ahead of this database's "
            + "clock, by a device whose clock was fast: until then they win over changes made without seeing them"
        guard repairing else { return (problems + [problem + "; 'gridstore check --repair' writes them again at this database's time"], false) }
        var side = try prepare(name, in: transaction, minting: true)
        let stamp = SyncStamp(time: side.clock.tick(now: now), replica: side.replica)
        side.state.restamp(after: limit, at: stamp)
        side.state.versions.advance(side.replica, to: stamp.time)
        side.isChanged = true
        try side.store(in: transaction, origin: nil, sending: false)
        return (problems + [problem], true)
    }

    /// Whether what is derived from the registers is not as they are: the items' ids in order
    /// (`sync_item_ids`), a register at a version after the state's, or an entry of the versions
    /// log that does not bound every register at or before its version.
    private static func indexProblem(of loaded: (state: ReplicatedGrid, layout: ReplicatedGrid.Layout, numbers: SyncReplicaNumbers),
                                     row: StoredSyncState, gridID: Int64, in transaction: any GridStorageTransaction,
                                     grid name: String) throws -> Bool {
        // A chunk not stored is not wrong (a grid synced before schema 10 has its ids written at its next change).
        // Nor is one an earlier gridstore wrote, without a seal: a whole sync writes it again.
        for chunk in itemIDChunks(loaded.layout.itemIDs, gridID: gridID) {
            if let stored = try transaction.syncItemIDs(gridID: gridID, section: chunk.section, firstItem: chunk.firstItem),
               stored != chunk.ids, !SyncItemIDSeal.isUnsealed(stored, of: chunk.ids) {
                return true
            }
        }
        let rows = try transaction.syncRegisters(gridID: gridID, changedAfter: 0, limit: ReplicatedGrid.maximumRegisterRows + 1).registers
        if rows.contains(where: { $0.version > row.version }) { return true }
        let log = try transaction.syncVersionLog(gridID: gridID)
        guard !log.isEmpty else { return false }
        // What the registers at or before each version knew, version by version.
        var entries: [(version: Int64, known: VersionVector)] = []
        for entry in log.sorted(by: { $0.version < $1.version }) {
            guard entry.version <= row.version, let known = SyncVersionsText.decode(entry.versions) else { return true }
            entries.append((entry.version, known))
        }
        var next = 0
        var seen = VersionVector()
        for register in rows.sorted(by: { $0.version < $1.version }) {
            while next < entries.count && entries[next].version < register.version {
                guard seen.isCovered(by: entries[next].known) else { return true }
                next += 1
            }
            var one = ReplicatedGrid()
            try one.load([register], replicas: loaded.numbers, grid: name)
            seen.formUnion(VersionVector(one.latestTimes()))
        }
        return entries[next...].contains { !seen.isCovered(by: $0.known) }
    }

    /// Writes what is derived from the registers again: every chunk of the items' ids, each
    /// register's version at most the state's, and one entry of the versions log for the state's version.
    private static func rebuildIndex(of loaded: (state: ReplicatedGrid, layout: ReplicatedGrid.Layout, numbers: SyncReplicaNumbers),
                                     row: StoredSyncState, gridID: Int64, in transaction: any GridStorageTransaction) throws {
        let rows = try transaction.syncRegisters(gridID: gridID, changedAfter: row.version, limit: ReplicatedGrid.maximumRegisterRows + 1)
        var clamped = rows.registers
        for index in clamped.indices { clamped[index].version = max(1, row.version) }
        var state = row
        state.version = max(1, row.version)
        var write = StoredSyncWrite(state: state, replacing: false, replicas: [], registers: clamped, removed: [],
                                    log: StoredSyncVersion(version: state.version,
                                                           versions: SyncVersionsText.encode(VersionVector(loaded.state.latestTimes()))),
                                    itemIDs: itemIDChunks(loaded.layout.itemIDs, gridID: gridID))
        write.replacingLog = true
        // Each peer was credited through the log this replaces: it is taken to hold nothing
        // until it shows what it holds again.
        if var peers = SyncPeers(stored: row), !peers.peers.isEmpty {
            peers.forgetHeldVersions()
            write.peers = peers.text
        }
        try transaction.writeSyncState(write, gridID: gridID)
    }
}

extension ReplicatedGrid {
    /// How many registers hold a write stamped after `limit`, and the latest such stamp.
    func values(stampedAfter limit: HybridTime) -> (count: Int, latest: HybridTime) {
        var found = (count: 0, latest: HybridTime.zero)
        func visit<Value>(_ register: MergeRegister<Value>) {
            guard let time = register.heads.lazy.map(\.stamp.time).max(), time > limit else { return }
            found.count += 1
            found.latest = max(found.latest, time)
        }
        visit(options.columns); visit(options.direction); visit(options.defaultSize); visit(options.honeycomb)
        for section in sections.values { visit(section.order); visit(section.alive) }
        for item in items.values { visit(item.place); visit(item.size); visit(item.key); visit(item.alive) }
        return found
    }

    /// Writes every register holding a write stamped after `limit` again, with the value it
    /// shows, at `stamp`: a write that has seen the others, so it replaces them on every replica.
    mutating func restamp(after limit: HybridTime, at stamp: SyncStamp) {
        func visit<Value>(_ register: inout MergeRegister<Value>) {
            guard let winner = register.winner, register.heads.contains(where: { $0.stamp.time > limit }) else { return }
            register.write(winner.value, at: stamp)
        }
        visit(&options.columns); visit(&options.direction); visit(&options.defaultSize); visit(&options.honeycomb)
        for id in sections.keys { visit(&sections[id]!.order); visit(&sections[id]!.alive) }
        for id in items.keys { visit(&items[id]!.place); visit(&items[id]!.size); visit(&items[id]!.key); visit(&items[id]!.alive) }
    }
}
