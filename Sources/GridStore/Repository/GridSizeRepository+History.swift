import GridLayout

/// The history operations with their usual arguments, and their `async` forms.
extension GridSizeRepository {
    /// Every kept history entry, newest first.
    public func history() throws(GridError) -> [GridHistoryEntry] {
        try history(limit: nil)
    }

    /// Takes back the last change not undone yet.
    @discardableResult
    public func undo() throws(GridError) -> GridSnapshot {
        try undo(1)
    }

    /// Re-applies the last change undone since the last change.
    @discardableResult
    public func redo() throws(GridError) -> GridSnapshot {
        try redo(1)
    }

    /// The grid's history entries, newest first, at most `limit`.
    public func history(limit: Int?) async throws(GridError) -> [GridHistoryEntry] {
        try await GridError.catching { try await runAsync(reading: true) { try self.history(limit: limit) } }
    }

    /// Takes back the last `count` changes not undone yet, as one new revision.
    @discardableResult
    public func undo(_ count: Int = 1) async throws(GridError) -> GridSnapshot {
        try await GridError.catching { try await runAsync(reading: false) { try self.undo(count) } }
    }

    /// Re-applies the last `count` changes undone since the last change.
    @discardableResult
    public func redo(_ count: Int = 1) async throws(GridError) -> GridSnapshot {
        try await GridError.catching { try await runAsync(reading: false) { try self.redo(count) } }
    }

    /// The grid as it was at `revision`.
    public func snapshot(at revision: Int) async throws(GridError) -> GridSnapshot {
        try await GridError.catching { try await runAsync(reading: true) { try self.snapshot(at: revision) } }
    }

    /// Makes the state at `revision` current, as one new revision.
    @discardableResult
    public func revert(to revision: Int) async throws(GridError) -> GridSnapshot {
        try await GridError.catching { try await runAsync(reading: false) { try self.revert(to: revision) } }
    }
}

/// `async` forms of ``Grid``'s history operations.
extension Grid {
    /// The grid's history entries, newest first.
    public func history(limit: Int? = nil) async throws(GridError) -> [GridHistoryEntry] {
        try await GridError.catching { try await database.reads.run { try self.history(limit: limit) } }
    }

    /// Takes back the last `count` changes not undone yet, as one new revision.
    @discardableResult
    public func undo(_ count: Int = 1) async throws(GridError) -> GridSnapshot {
        try await GridError.catching { try await database.changes.run { try self.undo(count) } }
    }

    /// Re-applies the last `count` changes undone since the last change.
    @discardableResult
    public func redo(_ count: Int = 1) async throws(GridError) -> GridSnapshot {
        try await GridError.catching { try await database.changes.run { try self.redo(count) } }
    }

    /// The grid as it was at `revision`.
    public func snapshot(at revision: Int) async throws(GridError) -> GridSnapshot {
        try await GridError.catching { try await database.reads.run { try self.snapshot(at: revision) } }
    }

    /// Makes the state at `revision` current, as one new revision.
    @discardableResult
    public func revert(to revision: Int) async throws(GridError) -> GridSnapshot {
        try await GridError.catching { try await database.changes.run { try self.revert(to: revision) } }
    }

    /// How many history entries the grid keeps.
    public func historyRetention() async throws(GridError) -> Int {
        try await GridError.catching { try await database.reads.run { try self.historyRetention() } }
    }

    /// Sets how many history entries the grid keeps, deleting older ones now.
    public func setHistoryRetention(_ keep: Int) async throws(GridError) {
        try await GridError.catching { try await database.changes.run { try self.setHistoryRetention(keep) } }
    }
}
