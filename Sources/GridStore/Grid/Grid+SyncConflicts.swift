import GridLayout

extension Grid {
    /// The replica id the grid's changes on this database are made as: the one conflicts name
    /// for them (``SyncConflict/keptBy``); `nil` while the grid never synced here.
    public func syncReplicaID() throws(GridError) -> ReplicaID? {
        try GridError.catching { try database.storageRead { try syncReplicaID(in: $0) } }
    }

    /// ``syncReplicaID()`` read in `transaction`.
    func syncReplicaID(in transaction: any GridStorageTransaction) throws -> ReplicaID? {
        guard let header = try transaction.header(named: name)?.header() else { throw GridError.gridNotFound(name) }
        return try transaction.syncState(gridID: header.id).flatMap { ReplicaID($0.replica) }
    }

    /// The values concurrent changes overwrote, as of this database's last sync and the changes
    /// made here since (a change here that has seen a conflict settles it).
    ///
    /// - Throws: ``GridError/gridNotFound(_:)``; ``GridError/sync(_:)`` for a database that cannot sync.
    public func syncConflicts() throws(GridError) -> [SyncConflict] {
        try GridError.catching { try database.storageRead { try syncConflicts(in: $0) } }
    }

    /// ``syncConflicts()`` read in `transaction`.
    func syncConflicts(in transaction: any GridStorageTransaction) throws -> [SyncConflict] {
        let side = try SyncSide.prepare(name, in: transaction, minting: false)
        guard side.stored != nil else { throw GridError.gridNotFound(name) }
        return side.state.conflicts(in: side.layout)
    }
}
