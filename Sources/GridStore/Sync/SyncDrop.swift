/// A grid dropped after it took part in sync (docs/sync.md, "Dropping a grid"): what it knew of
/// every replica's changes when it was dropped.
///
/// A grid of the same name that knows no change the drop did not know is the grid that was
/// dropped, as it was or older, and a sync drops it too; one that holds a change made since
/// (or that never synced) is kept, and comes back where it was dropped. The rule needs no
/// clock: it compares what each side knew.
struct SyncDrop: Equatable {
    /// The most grids dropped after they synced that a sync of every grid reads from one database.
    static let maximumStored = 100_000

    /// What the dropped grid knew.
    private(set) var versions: VersionVector
    /// When it was dropped, in milliseconds since 1970 (the latest of the drops it stands for).
    private(set) var droppedAt: Int64

    init(versions: VersionVector, droppedAt: Int64) {
        self.versions = versions
        self.droppedAt = droppedAt
    }

    /// The drop as stored; `nil` for a row gridstore did not write, which drops nothing (a grid
    /// is never lost to a damaged row: it comes back, and the drop can be made again), a name no
    /// grid may have included, or one not stored as gridstore writes names (in NFC, valid UTF-8:
    /// a byte no character has reads as U+FFFD).
    init?(_ stored: StoredSyncDrop) {
        guard (try? GridLimits.validate(name: stored.name)) != nil, GridLimits.isCanonical(stored.name),
              !stored.name.unicodeScalars.contains("\u{FFFD}"),
              stored.versions.utf8.count <= StoredSyncDrop.maximumVersionsBytes, stored.droppedAt >= 0,
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

    /// `name` as a shell word in a message's advice: in single quotes unless it needs none.
    static func quoted(_ name: String) -> String {
        let plain = !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                                                                                         || "-_.".unicodeScalars.contains($0)) }
        return plain ? name : "'" + SyncError.excerpt(name).split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// The row for the grid named `name`.
    func stored(named name: String) -> StoredSyncDrop {
        StoredSyncDrop(name: name, versions: SyncVersionsText.encode(versions), droppedAt: droppedAt)
    }

    /// Deletes the grid named `name` in `transaction`, and when it took part in sync and
    /// `recording`, records the drop, so that a sync drops it on its peers too.
    ///
    /// - Returns: Whether there was such a grid, and whether it took part in sync.
    static func dropGrid(named name: String, in transaction: any GridStorageTransaction,
                         recording: Bool) throws -> (found: Bool, synced: Bool) {
        var synced = false
        if let header = try transaction.header(named: name)?.header(), let state = try transaction.syncState(gridID: header.id) {
            synced = true
            if recording, let known = SyncVersionsText.decode(state.versions), !known.entries.isEmpty {
                try record(SyncDrop(versions: known, droppedAt: try transaction.clockMilliseconds()), named: name, in: transaction)
            }
        }
        return (try transaction.deleteGrid(named: name), synced)
    }

    /// A drop as recorded, with the name of its grid.
    struct Named {
        let name: String
        let drop: SyncDrop
    }

    /// Every drop `transaction` records that gridstore can read (one it cannot drops nothing).
    static func all(in transaction: any GridStorageTransaction) throws -> [Named] {
        try transaction.syncDrops(limit: SyncDrop.maximumStored).compactMap { stored in
            SyncDrop(stored).map { Named(name: stored.name, drop: $0) }
        }
    }

    /// Makes the grid `name`, put back after a drop of it, a change made after the drop: its
    /// replica (a new one, on a database it was copied to) knows a time no drop knows, so no
    /// drop covers it and its peers take it back.
    static func markRestored(_ name: String, in transaction: any GridStorageTransaction, database: GridDatabase) throws {
        var side = try SyncSide.prepare(name, in: transaction, minting: true)
        side.state.versions.advance(side.replica, to: side.clock.tick(now: side.now))
        side.isChanged = true
        try side.store(in: transaction, origin: nil, sending: false)
    }

    /// Records `drop` for the grid named `name`, with any drop already recorded under the name.
    static func record(_ drop: SyncDrop, named name: String, in transaction: any GridStorageTransaction) throws {
        var drop = drop
        if let earlier = try transaction.syncDrop(named: name).flatMap(SyncDrop.init) { drop.absorb(earlier) }
        try transaction.writeSyncDrop(drop.stored(named: name))
    }
}
