/// Grids made, copied and configured in a write transaction.
extension GridWriteTransaction {
    /// Creates a grid named `name` with `content`, as ``Grid/create(named:in:content:replacing:)``
    /// does, in this transaction.
    ///
    /// - Returns: The grid as this transaction now holds it.
    /// - Throws: ``Grid/create(named:in:content:replacing:)``'s errors. A refusal (a name or
    ///   content gridstore refuses, ``GridError/gridExists(_:)``) leaves the transaction as it was.
    @discardableResult
    public func create(gridNamed name: String, content: GridContent, replacing: Bool = false) throws(GridError) -> GridSnapshot {
        check()
        let name = GridLimits.canonical(name)
        try refuseWhileChanging(name)
        return try GridError.catching {
            try recordingFailure { try Grid.creating(named: name, content: content, replacing: replacing, in: storage, of: database).1 }
        }
    }

    /// Sets how many history entries `grid` keeps, as ``Grid/setHistoryRetention(_:)`` does, in
    /// this transaction.
    ///
    /// - Throws: ``Grid/setHistoryRetention(_:)``'s errors; a count out of range leaves the transaction as it was.
    public func setHistoryRetention(_ keep: Int, of grid: Grid) throws(GridError) {
        check(grid)
        try refuseWhileChanging(grid.name)
        try Grid.checkHistoryRetention(keep)
        try GridError.catching { try recordingFailure { try grid.setHistoryRetention(keep, in: storage, caching: false) } }
    }

    /// Copies grids read in `source`, a transaction of another database, into this one, as
    /// ``Grid/copy(from:to:names:replacing:history:)`` does: with their revisions, history and
    /// sync ids, every grid or none.
    ///
    /// ```swift
    /// try file.read { source in
    ///     try server.write { target in
    ///         try target.copy(from: source, names: ["phone"], replacing: true)
    ///         try target.undo(Grid(named: "phone", in: server))
    ///     }
    /// }
    /// ```
    ///
    /// The source's transaction stays open while this one writes: nest the two in the same order
    /// everywhere in an app (two copies nested in opposite directions wait for each other), or
    /// use ``Grid/copy(from:to:names:replacing:history:)``, which reads the source whole first.
    /// A second `GridDatabase` of this same database is not found out here, as `Grid.copy`
    /// finds it: the grids are written over themselves as they were read.
    ///
    /// - Returns: The copied grids as this transaction now holds them.
    /// - Throws: ``Grid/copy(from:to:names:replacing:history:)``'s errors: a name `source` lacks
    ///   or this database has (unless `replacing`), or a failure of the source's database, comes
    ///   before anything is written and leaves this transaction as it was; a failure of this
    ///   database while it writes fails it. ``GridError/limitExceeded(_:)`` when `source` is
    ///   this transaction.
    @discardableResult
    public func copy(from source: GridReadTransaction, names: [String]? = nil, replacing: Bool = false,
                     history: Bool = true) throws(GridError) -> [GridSummary] {
        check()
        source.check()
        guard source !== self else { throw .limitExceeded("a copy reads one database and writes another, not one transaction") }
        let copy = try GridError.catching { try source.recordingFailure { try GridCopy(reading: names, history: history, from: source.storage) } }
        for grid in copy.grids { try refuseWhileChanging(grid.snapshot.name) }
        try GridError.catching { try recordingFailure { try copy.checkNames(in: storage, replacing: replacing) } }
        do {
            return try GridError.catching { try copy.write(into: storage, of: database) }
        } catch {
            noteFailure(error, evenARefusal: true)
            throw error
        }
    }
}
