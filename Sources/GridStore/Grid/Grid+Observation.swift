import GridLayout

extension Grid {
    /// Whether the grid changed since `revision`, in this process or any other.
    ///
    /// - Throws: ``GridError/gridNotFound(_:)`` when the grid does not exist: observing never creates it.
    public func hasChanged(since revision: Int) throws(GridError) -> Bool {
        try currentRevision() != revision
    }

    /// The grid's changes: the current state first, then one ``GridChange`` (the new state,
    /// and the items whose size or place changed) whenever the revision moves, whichever
    /// process changed it. See ``GridChangeSequence``.
    ///
    /// A change made by any process wakes the observer through the database's change signal
    /// (within milliseconds); without one (PostgreSQL behind a pooler in transaction mode) it
    /// is seen within one `interval`. Several changes while the consumer is busy arrive as one.
    ///
    /// ```swift
    /// for try await change in grid.changes() {
    ///     redraw(change.snapshot.layout, items: change.moved)
    /// }
    /// ```
    public func changes(pollingEvery interval: Duration = .milliseconds(100)) -> GridChangeSequence {
        GridChangeSequence(
            interval: interval, watch: database.watch, executor: database.reads,
            token: {
                let version = try self.currentVersion()
                return GridChangeSequence.Token(gridID: version.id, revision: version.revision, registeredDefault: nil)
            },
            load: {
                let (id, snapshot) = try self.storedState()
                return (snapshot, GridChangeSequence.Token(gridID: id, revision: snapshot.revision, registeredDefault: nil))
            })
    }
}
