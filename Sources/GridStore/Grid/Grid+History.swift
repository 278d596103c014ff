import GridLayout

/// A grid's history: every change is recorded in its own transaction, so it can be undone,
/// redone and inspected, by any process.
///
/// ```swift
/// try grid.toggle(at: GridIndexPath(item: 3))
/// try grid.undo()                      // item 3 has its size before the toggle, as a new revision
/// try grid.redo()                      // and the toggle again
/// try grid.snapshot(at: 1)             // the grid as it was at revision 1
/// try grid.history(limit: 10)          // the newest entries first
/// ```
extension Grid {
    /// The grid's history entries, newest first.
    ///
    /// - Parameter limit: The most entries to return; `nil` for every kept one.
    /// - Throws: ``GridError/gridNotFound(_:)`` when the grid does not exist.
    public func history(limit: Int? = nil) throws(GridError) -> [GridHistoryEntry] {
        try GridError.catching { try database.storageRead { try history(limit: limit, in: $0) } }
    }

    /// ``history(limit:)`` read in `transaction`.
    func history(limit: Int?, in transaction: any GridStorageTransaction) throws -> [GridHistoryEntry] {
        guard let header = try transaction.header(named: name)?.header() else { throw GridError.gridNotFound(name) }
        var entries: [GridHistoryEntry] = []
        for row in try GridHistory.entries(in: transaction, gridID: header.id, grid: name, limit: limit, deltas: false) {
            entries.append(try GridHistoryEntry(row, grid: name))
        }
        return entries
    }

    /// Takes back the last `count` changes that are not undone yet, as one new revision:
    /// the grid is as it was before them. A second undo goes further back; ``redo(_:)``
    /// re-applies what was undone, until another change is made.
    ///
    /// - Throws: ``GridError/nothingToUndo(requested:available:)``, or
    ///   ``GridError/historyTrimmed(oldestKept:grid:)`` when a change to take back is no longer kept.
    @discardableResult
    public func undo(_ count: Int = 1) throws(GridError) -> GridSnapshot {
        try moveThroughHistory(count, kind: .undo)
    }

    /// Re-applies the last `count` changes undone since the last change, as one new revision.
    ///
    /// - Throws: ``GridError/nothingToRedo(requested:available:)``.
    @discardableResult
    public func redo(_ count: Int = 1) throws(GridError) -> GridSnapshot {
        try moveThroughHistory(count, kind: .redo)
    }

    /// The grid as it was at `revision`, rebuilt from the current state and the history.
    ///
    /// - Throws: ``GridError/revisionOutOfRange(_:current:)``, or
    ///   ``GridError/historyTrimmed(oldestKept:grid:)`` when the history no longer reaches back to it.
    public func snapshot(at revision: Int) throws(GridError) -> GridSnapshot {
        try GridError.catching { try database.storageRead { try snapshot(at: revision, in: $0, caching: true) } }
    }

    /// ``snapshot(at:)`` read in `transaction`; `caching` as ``storedState(in:caching:)`` takes it.
    func snapshot(at revision: Int, in transaction: any GridStorageTransaction, caching: Bool) throws -> GridSnapshot {
        guard let (id, current, _, _) = try currentWithHeader(transaction, creatingIfMissing: false, caching: caching) else {
            throw GridError.gridNotFound(name)
        }
        let reader = GridHistoryReader(transaction: transaction, gridID: id, grid: name, revision: current.revision)
        return try GridHistory.state(at: revision, from: current, with: reader)
    }

    /// Makes the state the grid had at `revision` current, as one new revision (which can be
    /// undone like any change).
    ///
    /// - Throws: as ``snapshot(at:)``.
    @discardableResult
    public func revert(to revision: Int) throws(GridError) -> GridSnapshot {
        try GridError.catching { try perform(.reverting(to: revision)) }
    }

    /// How many history entries the grid keeps: the newest; older ones are deleted by the change
    /// that makes them too old. 0 keeps none.
    public func historyRetention() throws(GridError) -> Int {
        try GridError.catching { try database.storageRead { try historyRetention(in: $0) } }
    }

    /// ``historyRetention()`` read in `transaction`.
    func historyRetention(in transaction: any GridStorageTransaction) throws -> Int {
        guard let header = try transaction.header(named: name)?.header() else { throw GridError.gridNotFound(name) }
        return header.historyKeep
    }

    /// Sets how many history entries the grid keeps (0 to 1,000,000), deleting older ones now.
    /// The grid's state and revision do not change.
    ///
    /// - Throws: ``GridError/limitExceeded(_:)`` for a count out of range, before anything.
    public func setHistoryRetention(_ keep: Int) throws(GridError) {
        try Self.checkHistoryRetention(keep)
        try GridError.catching { try database.storageWrite { try setHistoryRetention(keep, in: $0, caching: true) } }
    }

    /// Refuses a history retention out of range.
    static func checkHistoryRetention(_ keep: Int) throws(GridError) {
        guard (0...GridHistory.maximumKeep).contains(keep) else {
            throw .limitExceeded("a grid keeps 0 to \(GridHistory.maximumKeep) history entries, not \(keep)")
        }
    }

    /// ``setHistoryRetention(_:)`` in `transaction`, of a count ``checkHistoryRetention(_:)`` passed.
    func setHistoryRetention(_ keep: Int, in transaction: any GridStorageTransaction, caching: Bool) throws {
        guard let (id, current, _, _) = try currentWithHeader(transaction, creatingIfMissing: true, caching: caching) else {
            throw GridError.gridNotFound(name)
        }
        try transaction.setHistoryKeep(keep, gridID: id, revision: current.revision)
    }

    // MARK: Undo and redo

    /// The sync (a history entry of kind ``GridHistoryEntry/Kind/merge``) at which undo stops:
    /// undo never takes back a sync, nor the changes before it that it would take back by
    /// position (made before the grid first synced); `nil` when no sync stops undo. What an app
    /// says when ``undo(_:)`` finds nothing to undo: "the sync at revision 4 stops undo".
    ///
    /// - Throws: ``GridError/gridNotFound(_:)`` when the grid does not exist.
    public func syncStoppingUndo() throws(GridError) -> GridHistoryEntry? {
        try GridError.catching {
            try database.storageRead { transaction in
                guard let (id, current, _, _) = try currentWithHeader(transaction, creatingIfMissing: false, caching: true) else {
                    throw GridError.gridNotFound(name)
                }
                return try GridHistoryReader(transaction: transaction, gridID: id, grid: name, revision: current.revision).undoStop()
            }
        }
    }

    private func moveThroughHistory(_ count: Int, kind: GridHistoryEntry.Kind) throws(GridError) -> GridSnapshot {
        let operation = try GridOperation.moving(count, through: kind)
        return try GridError.catching { try perform(operation) }
    }
}
