/// A grid's history, read in a transaction (see ``Grid/history(limit:)``).
extension GridReadTransaction {
    /// `grid`'s history entries, newest first, as ``Grid/history(limit:)`` reads them.
    ///
    /// - Parameter limit: The most entries to return; `nil` for every kept one.
    /// - Throws: ``GridError/gridNotFound(_:)`` when the grid does not exist.
    public func history(of grid: Grid, limit: Int? = nil) throws(GridError) -> [GridHistoryEntry] {
        try reading(grid) { try grid.history(limit: limit, in: storage) }
    }

    /// `grid` as it was at `revision`, as ``Grid/snapshot(at:)`` rebuilds it.
    ///
    /// - Throws: ``Grid/snapshot(at:)``'s errors.
    public func snapshot(of grid: Grid, at revision: Int) throws(GridError) -> GridSnapshot {
        try reading(grid) { try grid.snapshot(at: revision, in: storage, caching: false) }
    }

    /// How many history entries `grid` keeps (``Grid/historyRetention()``).
    ///
    /// - Throws: ``GridError/gridNotFound(_:)`` when the grid does not exist.
    public func historyRetention(of grid: Grid) throws(GridError) -> Int {
        try reading(grid) { try grid.historyRetention(in: storage) }
    }
}
