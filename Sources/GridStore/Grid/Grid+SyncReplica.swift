extension Grid {
    /// Every replica whose changes the grid here knows, and this database's own: this one
    /// first, then by name and id. Empty when the grid never synced here.
    ///
    /// - Throws: ``GridError/sync(_:)`` for a sync state that cannot be read.
    public func syncReplicas() throws(GridError) -> [SyncReplica] {
        try GridError.catching { try database.storageRead { try syncReplicas(in: $0) } }
    }

    /// ``syncReplicas()`` read in `transaction`.
    func syncReplicas(in transaction: any GridStorageTransaction) throws -> [SyncReplica] {
        guard let header = try transaction.header(named: name)?.header(),
              try transaction.syncState(gridID: header.id) != nil else { return [] }
        let side = try SyncSide.prepare(name, in: transaction, minting: false)
        let ids = Set(side.state.versions.entries.keys).union(side.state.names.keys).union(side.peers.peers.map(\.replica))
            .union([side.replica])
        let here = try SyncSide.databaseName(in: transaction, storing: false)
        let replicas = ids.map { id in
            let known = side.state.versions[id]
            return SyncReplica(id: id, name: id == side.replica ? here : side.state.name(of: id),
                               latestChange: known.milliseconds > 0 ? known.milliseconds : nil, isHere: id == side.replica,
                               lastSynced: side.peers.peer(id)?.metAt)
        }
        return replicas.sorted { ($0.isHere ? 0 : 1, $0.name ?? "", $0.id) < ($1.isHere ? 0 : 1, $1.name ?? "", $1.id) }
    }
}
