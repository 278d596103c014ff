/// A grid's sync state, read in a transaction (see docs/sync.md).
extension GridReadTransaction {
    /// What this database knows of every replica's changes to `grid`, as ``Grid/syncCursor()`` gives it.
    public func syncCursor(of grid: Grid) throws(GridError) -> SyncCursor {
        try reading(grid) { try grid.syncCursor(in: storage) }
    }

    /// The values concurrent changes overwrote in `grid`, as ``Grid/syncConflicts()`` lists them.
    ///
    /// - Throws: ``Grid/syncConflicts()``'s errors.
    public func syncConflicts(of grid: Grid) throws(GridError) -> [SyncConflict] {
        try reading(grid) { try grid.syncConflicts(in: storage) }
    }

    /// The replica id `grid`'s changes here are made as (``Grid/syncReplicaID()``); `nil` while it never synced here.
    ///
    /// - Throws: ``GridError/gridNotFound(_:)`` when the grid does not exist.
    public func syncReplicaID(of grid: Grid) throws(GridError) -> ReplicaID? {
        try reading(grid) { try grid.syncReplicaID(in: storage) }
    }

    /// The sync ids and places of `grid`'s sections and items (``Grid/syncIdentity()``).
    public func syncIdentity(of grid: Grid) throws(GridError) -> GridSyncIdentity? {
        try reading(grid) { try grid.syncIdentity(in: storage) }
    }

    /// Every replica whose changes `grid` here knows, and this database's own (``Grid/syncReplicas()``).
    public func syncReplicas(of grid: Grid) throws(GridError) -> [SyncReplica] {
        try reading(grid) { try grid.syncReplicas(in: storage) }
    }
}
