extension SyncSide {
    /// Records a change made to a grid that syncs as this replica's writes, by item identity,
    /// in the change's own transaction: the registers it changed are written, stamped by the
    /// grid's hybrid clock, and the state is then of the grid's new revision, so a sync has
    /// nothing of this database's to recover.
    ///
    /// Left to the next sync, which recovers it from the history (or by comparing contents),
    /// when the stored state was not of the grid before the change (a database migrated with
    /// changes not yet synced, a hand edit), when the database is a copy or the grid's replica
    /// stamped ahead of this database's clock (the sync gives it a new replica id first), or
    /// when the state cannot be read (the sync then says so): a change never fails for its grid's sync state.
    static func recordChange(_ edits: [GridEdit], from old: GridSnapshot, to new: GridSnapshot, gridID: Int64, grid name: String,
                             in transaction: any GridStorageTransaction, database: GridDatabase) throws {
        guard let row = try transaction.syncState(gridID: gridID), row.revision == Int64(old.revision), row.clock >= 0,
              let replica = ReplicaID(row.replica), let versions = SyncVersionsText.decode(row.versions),
              try currentReplica(in: transaction, database: database, minting: false).description == row.databaseReplica else { return }
        let now = try transaction.clockMilliseconds()
        guard !HybridClock.isTooFarAhead(versions[replica], now: now),
              let (state, layout, numbers) = try? loadState(row, gridID: gridID, in: transaction, grid: name),
              layout.content == old.content else { return }
        var clock = HybridClock(latest: versions[replica])
        clock.observe(HybridTime(rawValue: row.clock), now: now)
        var side = SyncSide(name: name, replica: replica, databaseReplica: ReplicaID(row.databaseReplica)!, stored: (gridID, new),
                            state: state, clock: clock, layout: layout, isChanged: true, now: now,
                            loaded: state, numbers: numbers, version: row.version)
        do {
            try side.record(edits, madeAt: now, ids: EntityIDGenerator(derivedFrom: "\(replica)\u{0}\(new.revision)\u{0}\(now)".utf8))
        } catch {
            // Edits the registers cannot follow one by one are recorded as the content they left.
            (side.state, side.layout) = (state, layout)
        }
        try side.recordDifference(storedAs: row.replica)
        try side.store(in: transaction, database: database, origin: nil)
    }
}
