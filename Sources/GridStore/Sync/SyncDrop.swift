/// A grid dropped after it took part in sync (docs/sync.md, "Dropping a grid"): what it knew of
/// every replica's changes when it was dropped.
///
/// A grid of the same name that knows no change the drop did not know is the grid that was
/// dropped, as it was or older, and a sync drops it too; one that holds a change made since
/// (or that never synced) is kept, and comes back where it was dropped. The rule needs no
/// clock: it compares what each side knew.
struct SyncDrop: Equatable {
    /// What the dropped grid knew.
    private(set) var versions: VersionVector
    /// When it was dropped, in milliseconds since 1970 (the latest of the drops it stands for).
    private(set) var droppedAt: Int64

    init(versions: VersionVector, droppedAt: Int64) {
        self.versions = versions
        self.droppedAt = droppedAt
    }

    /// The drop as stored; `nil` for a row gridstore did not write, which drops nothing (a grid
    /// is never lost to a damaged row: it comes back, and the drop can be made again).
    init?(_ stored: StoredSyncDrop) {
        guard stored.versions.utf8.count <= StoredSyncDrop.maximumVersionsBytes, stored.droppedAt >= 0,
              let versions = SyncVersionsText.decode(stored.versions), !versions.entries.isEmpty else { return nil }
        self.init(versions: versions, droppedAt: stored.droppedAt)
    }

    /// Whether a grid that knows `known` holds no change the drop did not know: it is the dropped grid.
    func covers(_ known: VersionVector) -> Bool {
        !known.entries.isEmpty && known.isCovered(by: versions)
    }

    /// This drop and `other` as one: a grid either covers is dropped.
    ///
    /// At most ``SyncBundle/maximumReplicas`` replicas are kept, the latest; a grid that knows one
    /// left out is kept rather than dropped.
    mutating func absorb(_ other: SyncDrop) {
        versions.formUnion(other.versions)
        droppedAt = max(droppedAt, other.droppedAt)
        if versions.entries.count > SyncBundle.maximumReplicas {
            let kept = versions.entries.sorted { ($0.value, $0.key.description) > ($1.value, $1.key.description) }
                .prefix(SyncBundle.maximumReplicas)
            versions = VersionVector(Dictionary(uniqueKeysWithValues: Array(kept)))
        }
    }

    /// The row for the grid named `name`.
    func stored(named name: String) -> StoredSyncDrop {
        StoredSyncDrop(name: name, versions: SyncVersionsText.encode(versions), droppedAt: droppedAt)
    }

    /// Deletes the grid named `name` in `transaction`, and when it took part in sync and
    /// `recording`, records the drop, so that a sync drops it on its peers too.
    ///
    /// - Returns: Whether there was such a grid, and whether its drop was recorded.
    static func dropGrid(named name: String, in transaction: any GridStorageTransaction,
                         recording: Bool) throws -> (found: Bool, recorded: Bool) {
        var recorded = false
        if recording, let header = try transaction.header(named: name)?.header(), let state = try transaction.syncState(gridID: header.id),
           let known = SyncVersionsText.decode(state.versions), !known.entries.isEmpty {
            try record(SyncDrop(versions: known, droppedAt: try transaction.clockMilliseconds()), named: name, in: transaction)
            recorded = true
        }
        return (try transaction.deleteGrid(named: name), recorded)
    }

    /// Records `drop` for the grid named `name`, with any drop already recorded under the name.
    static func record(_ drop: SyncDrop, named name: String, in transaction: any GridStorageTransaction) throws {
        var drop = drop
        if let earlier = try transaction.syncDrop(named: name).flatMap(SyncDrop.init) { drop.absorb(earlier) }
        try transaction.writeSyncDrop(drop.stored(named: name))
    }
}
