extension SyncSide {
    /// A grid's stored sync state, when it is current: no change made to the grid since it was
    /// stored, and stored by this database (not a copy), with a clock not far ahead. What it
    /// knows is then what the stored rows say, and a peer's bundle can be read from them alone.
    struct Current {
        let gridID: Int64
        /// The grid's header, read with the state.
        var header: GridHeader
        var row: StoredSyncState
        let replica: ReplicaID
        var versions: VersionVector
        /// This database's clock, read with the state (a PostgreSQL server's own).
        let now: Int64
        /// The name the database's replica row holds.
        let databaseName: String?
        /// The latest time of the replica's own writes that left the database.
        var sent: HybridTime { row.sent.map(HybridTime.init(rawValue:)) ?? versions[replica] }
        /// What the state records as sent once this replica's writes leave; `nil` when it
        /// records that already.
        var sentAfterSending: Int64? { row.sent == versions[replica].rawValue ? nil : versions[replica].rawValue }

        /// Whether the replica's name in the state is the one the database goes by, as a whole
        /// sync writes it before this replica's changes leave; `false` when it is not, or the
        /// database has no name a sync can send (a whole sync then writes it).
        func namesDatabase(numbers: SyncReplicaNumbers, in transaction: any GridStorageTransaction) throws -> Bool {
            let rows = try transaction.syncRegisters(gridID: gridID, kind: "replica", entity: replica.description)
            return names(rows.count == 1 ? (try? ReplicatedGrid.name(in: rows[0], replicas: numbers))?.1 : nil)
        }

        /// ``namesDatabase(numbers:in:)`` of the replica's name register `register`, read already.
        func names(_ register: MergeRegister<String>?) -> Bool {
            guard let databaseName, SyncError.problem(replicaName: databaseName) == nil else { return false }
            return register?.winner?.value == databaseName
        }
    }

    /// The grid `name`'s stored sync state when it is current; `nil` when it is not (or the grid
    /// never synced): it is then made current by ``prepare(_:in:minting:peer:clockReference:)``.
    static func current(_ name: String, in transaction: any GridStorageTransaction) throws -> Current? {
        guard let header = try transaction.header(named: name)?.header(), let row = try transaction.syncState(gridID: header.id),
              row.revision == Int64(header.revision), row.clock >= 0, (0..<Int64.max - 1).contains(row.version),
              let replica = ReplicaID(row.replica), let versions = SyncVersionsText.decode(row.versions) else { return nil }
        let context = try transaction.replicaContext()
        guard let stored = context.row, stored.id == row.databaseReplica,
              context.storageIdentity.isEmpty || stored.isMinted(for: context.storageIdentity),
              !HybridClock.isTooFarAhead(versions[replica], now: context.clock) else { return nil }
        return Current(gridID: header.id, header: header, row: row, replica: replica, versions: versions, now: context.clock,
                       databaseName: stored.name)
    }

    /// What a peer at `cursor` lacks of the grid `name`, read from the stored registers alone:
    /// those changed after the latest sync version whose registers `cursor` covers (a range of
    /// the version index), each sent when it holds a write `cursor` does not cover; the state
    /// then records this replica's writes as sent. `nil` when the stored state is not current,
    /// the peer knows more of this replica's changes than ever left here (a restored database),
    /// or the state does not hold the name the database goes by (a whole sync writes it first).
    ///
    /// - Complexity: O(*v* log *N* + *m*) for the *v* registers changed after the version the
    ///   cursor covers, of the grid's *N*, and the *m* bytes of their rows (a range of the version
    ///   index), plus the at most ``StoredSyncWrite/keptVersions`` entries of the versions log.
    static func storedBundle(_ name: String, since cursor: VersionVector, in transaction: any GridStorageTransaction) throws -> SyncBundle? {
        guard let current = try current(name, in: transaction) else { return nil }
        return try storedBundle(name, of: current, since: cursor, in: transaction)
    }

    /// ``storedBundle(_:since:in:)`` of the state `current`, read in `transaction`.
    static func storedBundle(_ name: String, of current: Current, since cursor: VersionVector,
                             in transaction: any GridStorageTransaction) throws -> SyncBundle? {
        guard cursor[current.replica] <= current.sent else { return nil }
        let rows = try changedRows(of: current, since: cursor, grid: name, in: transaction)
        guard try current.namesDatabase(numbers: rows.numbers, in: transaction) else { return nil }
        let delta = try rows.changes(since: cursor, versions: current.versions, grid: name)
        if let sent = current.sentAfterSending {
            var row = current.row
            row.sent = sent
            try transaction.writeSyncState(StoredSyncWrite(state: row, replacing: false, replicas: [], registers: [], removed: [], log: nil),
                                           gridID: current.gridID)
            try transaction.recordSend()
        }
        return SyncBundle(grid: name, replica: current.replica, cursor: cursor, content: .sorted(delta))
    }

    /// The rows of the state `current` a peer at `cursor` may lack: those changed after the
    /// latest entry of the grid's versions log that `cursor` covers (every row when none does).
    ///
    /// - Parameter log: The grid's versions log, newest entry first, when the caller read it in
    ///   this transaction; `nil` to read it.
    static func changedRows(of current: Current, since cursor: VersionVector, log: [StoredSyncVersion]? = nil, grid name: String,
                            in transaction: any GridStorageTransaction) throws -> StoredChanges {
        // An entry past the state's version is not one gridstore wrote.
        let log = try (log ?? transaction.syncVersionLog(gridID: current.gridID)).filter { $0.version <= current.row.version }
        let known = log.first { SyncVersionsText.decode($0.versions)?.isCovered(by: cursor) ?? false }?.version ?? 0
        return try StoredChanges.read(gridID: current.gridID, changedAfter: known, grid: name, in: transaction)
    }

    /// This side, as the first step of a sync stored it, for the last step: when neither the
    /// grid nor its sync state changed in between (another process's change), it is what
    /// ``prepare(_:in:minting:peer:clockReference:)`` would read again, whole, and is
    /// taken as it is, with this database's clock read again. `nil` otherwise.
    func reused(in transaction: any GridStorageTransaction, clockReference: Int64?) throws -> SyncSide? {
        guard let stored, !isChanged, let header = try transaction.header(named: name)?.header(), header.id == stored.id,
              header.revision == stored.snapshot.revision, let row = try transaction.syncState(gridID: header.id),
              row.version == version, row.revision == Int64(stored.snapshot.revision), row.replica == replica.description,
              row.databaseReplica == databaseReplica.description else { return nil }
        var side = self
        side.now = max(try transaction.clockMilliseconds(), clockReference ?? .min)
        side.storedName = nil
        // Another call may have met a peer since (a bundle that brought nothing new).
        side.peers = SyncPeers(stored: row) ?? SyncPeers()
        return side
    }
}
