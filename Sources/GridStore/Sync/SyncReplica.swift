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
