extension DatabaseGridSizeRepository {
    /// What this database knows of every replica's changes to the grid: send its
    /// ``SyncCursor/description`` to a peer, which answers with ``syncBundle(since:)``.
    /// See ``Grid/syncCursor()``.
    public func syncCursor() throws(GridError) -> SyncCursor {
        try grid.syncCursor()
    }

    /// Everything a peer at `cursor` lacks of the grid, as a bundle for the app's own transport
    /// (``SyncBundle/encoded()`` gives its bytes). See ``Grid/syncBundle(since:)``.
    public func syncBundle(since cursor: SyncCursor) throws(GridError) -> SyncBundle {
        try grid.syncBundle(since: cursor)
    }

    /// Merges a bundle a peer made into the grid, in one transaction; applying it again
    /// changes nothing. Observers see the change as any other. See
    /// ``Grid/applySyncBundle(_:allowingUnrelated:)``.
    @discardableResult
    public func applySyncBundle(_ bytes: some Collection<UInt8>, allowingUnrelated: Bool = false) throws(GridError) -> GridSyncResult {
        try grid.applySyncBundle(bytes, allowingUnrelated: allowingUnrelated)
    }
}
