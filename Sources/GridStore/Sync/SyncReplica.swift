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
    /// When a sync with it, or a bundle it made, was last merged here, in milliseconds since
    /// 1970 by this database's clock; `nil` when it is not among the grid's peers: never met
    /// directly (its changes came through others), or not met for 90 days, or before gridstore
    /// recorded peers (schema 15 on SQLite, 16 on PostgreSQL).
    public let lastSynced: Int64?
}
