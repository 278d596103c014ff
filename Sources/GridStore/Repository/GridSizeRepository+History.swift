import GridLayout

/// The history operations with their usual arguments.
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
}
