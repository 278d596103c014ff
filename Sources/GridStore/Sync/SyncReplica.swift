/// A replica whose changes a grid here knows, with the name its database goes by: what a
/// cursor's entries are, for a person (`gridstore sync-cursor --format json`).
public struct SyncReplica: Sendable, Hashable {
    /// The replica's id, as a cursor and conflicts name it.
    public let id: ReplicaID
    /// The name its database goes by (``GridDatabase/replicaName()``); `nil` when it gave none.
    public let name: String?
    /// When the latest of its changes this database knows was made, in milliseconds since
    /// 1970; `nil` when none is known (a replica only named, or one whose changes are the
    /// grid as it began).
    public let latestChange: Int64?
    /// Whether it is the replica the grid's changes here are made as.
    public let isHere: Bool
}

extension Grid {
    /// Every replica whose changes the grid here knows, and this database's own: this one
    /// first, then by name and id. Empty when the grid never synced here.
    ///
    /// - Throws: ``GridError/sync(_:)`` for a sync state that cannot be read.
    public func syncReplicas() throws(GridError) -> [SyncReplica] {
        try GridError.catching {
            try database.storageRead { transaction in
                guard let header = try transaction.header(named: name)?.header(),
                      try transaction.syncState(gridID: header.id) != nil else { return [] }
                let side = try SyncSide.prepare(name, in: transaction, database: database, minting: false)
                let ids = Set(side.state.versions.entries.keys).union(side.state.names.keys).union([side.replica])
                let here = try SyncSide.databaseName(in: transaction, storing: false)
                let replicas = ids.map { id in
                    let known = side.state.versions[id]
                    return SyncReplica(id: id, name: id == side.replica ? here : side.state.name(of: id),
                                       latestChange: known.milliseconds > 0 ? known.milliseconds : nil, isHere: id == side.replica)
                }
                return replicas.sorted { ($0.isHere ? 0 : 1, $0.name ?? "", $0.id) < ($1.isHere ? 0 : 1, $1.name ?? "", $1.id) }
            }
        }
    }
}
