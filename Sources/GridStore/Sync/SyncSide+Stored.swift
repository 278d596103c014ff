extension SyncSide {
    /// A grid's stored sync state, when it is current: no change made to the grid since it was
    /// stored, and stored by this database (not a copy), with a clock not far ahead. What it
    /// knows is then what the stored rows say, and a peer's bundle can be read from them alone.
    struct Current {
        let gridID: Int64
        let row: StoredSyncState
        let replica: ReplicaID
        let versions: VersionVector
        /// The latest time of the replica's own writes that left the database.
        var sent: HybridTime { row.sent.map(HybridTime.init(rawValue:)) ?? versions[replica] }
    }

    /// The grid `name`'s stored sync state when it is current; `nil` when it is not (or the grid
    /// never synced): it is then made current by ``prepare(_:in:database:minting:peer:clockReference:)``.
    static func current(_ name: String, in transaction: any GridStorageTransaction) throws -> Current? {
        guard let header = try transaction.header(named: name)?.header(), let row = try transaction.syncState(gridID: header.id),
              row.revision == Int64(header.revision), row.clock >= 0, (0..<Int64.max - 1).contains(row.version),
              let replica = ReplicaID(row.replica), let versions = SyncVersionsText.decode(row.versions) else { return nil }
        let context = try transaction.replicaContext()
        guard let stored = context.row, stored.id == row.databaseReplica,
              context.storageIdentity.isEmpty || stored.storageIdentity == context.storageIdentity,
              !HybridClock.isTooFarAhead(versions[replica], now: context.clock) else { return nil }
        return Current(gridID: header.id, row: row, replica: replica, versions: versions)
    }

    /// What a peer at `cursor` lacks of the grid `name`, read from the stored registers alone:
    /// those changed after the latest sync version whose registers `cursor` covers (a range of
    /// the version index), each sent when it holds a write `cursor` does not cover; the state
    /// then records this replica's writes as sent. `nil` when the stored state is not current, or
    /// the peer knows more of this replica's changes than ever left here (a restored database).
    ///
    /// - Complexity: O(*v* log *N* + *m*) for the *v* registers changed after the version the
    ///   cursor covers, of the grid's *N*, and the *m* bytes of their rows (a range of the version
    ///   index), plus the at most ``StoredSyncWrite/keptVersions`` entries of the versions log.
    static func storedBundle(_ name: String, since cursor: VersionVector, in transaction: any GridStorageTransaction) throws -> SyncBundle? {
        guard let current = try current(name, in: transaction), cursor[current.replica] <= current.sent else {
            return nil
        }
        // An entry past the state's version is not one gridstore wrote.
        let log = try transaction.syncVersionLog(gridID: current.gridID).filter { $0.version <= current.row.version }
        let known = log.first { SyncVersionsText.decode($0.versions)?.isCovered(by: cursor) ?? false }?.version ?? 0
        let stored = try transaction.syncRegisters(gridID: current.gridID, changedAfter: known, limit: ReplicatedGrid.maximumRegisterRows + 1)
        var delta = ReplicatedGrid()
        try delta.load(stored.registers, replicas: try SyncReplicaNumbers(stored: stored.replicas, grid: name), grid: name)
        delta.versions = current.versions
        if current.row.sent != current.versions[current.replica].rawValue {
            var row = current.row
            row.sent = current.versions[current.replica].rawValue
            try transaction.writeSyncState(StoredSyncWrite(state: row, replacing: false, replicas: [], registers: [], removed: [], log: nil),
                                           gridID: current.gridID)
        }
        return SyncBundle(grid: name, replica: current.replica, cursor: cursor, delta: delta.changes(since: cursor))
    }

    /// This side, as the first step of a sync stored it, for the last step: when neither the
    /// grid nor its sync state changed in between (another process's change), it is what
    /// ``prepare(_:in:database:minting:peer:clockReference:)`` would read again, whole, and is
    /// taken as it is, with this database's clock read again. `nil` otherwise.
    func reused(in transaction: any GridStorageTransaction, clockReference: Int64?) throws -> SyncSide? {
        guard let stored, !isChanged, let header = try transaction.header(named: name)?.header(), header.id == stored.id,
              header.revision == stored.snapshot.revision, let row = try transaction.syncState(gridID: header.id),
              row.version == version, row.revision == Int64(stored.snapshot.revision), row.replica == replica.description,
              row.databaseReplica == databaseReplica.description else { return nil }
        var side = self
        side.now = max(try transaction.clockMilliseconds(), clockReference ?? .min)
        side.storedName = nil
        return side
    }
}
