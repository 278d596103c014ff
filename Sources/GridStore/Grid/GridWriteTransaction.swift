/// One write transaction of a ``GridDatabase``, handed to the closure of
/// ``GridDatabase/write(_:)``: every change made through it is committed together when the
/// closure returns, or none when it throws.
///
/// It is the only way to work inside the transaction: a call on the database itself (a
/// ``Grid`` method, a repository, another `read` or `write`) made inside the closure is refused
/// with ``GridError/reentrantCall``, so no call waits for the lock its caller holds, and none
/// joins a transaction silently. A change of a grid inside the editor closure of a change of the
/// same grid is refused as well: it would be overwritten. The value is not `Sendable` and is
/// valid only while the closure runs.
///
/// Each grid changed through it gets one new revision per ``update(_:operation:_:)``, with
/// its history entry, as a change on its own would.
///
/// ```swift
/// try database.write { transaction in
///     let big = try transaction.snapshot(of: phone).size(at: GridIndexPath(item: 0))
///     try transaction.update(tablet) { try $0.setSize(big, at: GridIndexPath(item: 0)) }
///     try transaction.update(phone) { try $0.toggle(at: GridIndexPath(item: 1)) }
/// }
/// ```
///
/// On PostgreSQL the closure may run again when the server asks for it (a serialization
/// failure or a deadlock, which roll everything back first), so it should have no effect but
/// its work through the transaction. A failure of the database met through the transaction
/// (a lost lock, a full disk) makes ``GridDatabase/write(_:)`` throw it even when the closure
/// caught it: on PostgreSQL the server has aborted the transaction, and the same holds on SQLite.
public final class GridWriteTransaction: GridReadTransaction {
    /// The grids whose editor closure runs now.
    private var gridsBeingChanged: [String] = []

    /// Applies the edits `body` makes to `grid`, as one revision of it, in this transaction.
    ///
    /// A missing grid is created as `grid` says (see ``Grid/init(named:in:creatingWith:)``).
    /// Edits that leave the grid as it was write nothing.
    ///
    /// - Returns: The grid after the change, as this transaction sees it.
    /// - Throws: What `body` throws, or ``GridError`` (``GridError/reentrantCall`` for a change
    ///   of a grid inside its own change's closure).
    @discardableResult
    public func update(_ grid: Grid, operation: String? = nil, _ body: (inout GridEditor) throws -> Void) throws -> GridSnapshot {
        check(grid)
        guard !gridsBeingChanged.contains(grid.name) else { throw GridError.reentrantCall }
        gridsBeingChanged.append(grid.name)
        defer { gridsBeingChanged.removeAll { $0 == grid.name } }
        let thrown = ThrownByBody()
        var seen: GridSnapshot?
        do {
            return try grid.change(in: storage, record: HistoryRecord(operation: operation), caching: false, seen: &seen) {
                editor, _, _ in try thrown.run { try body(&editor) }
            }.1
        } catch {
            let translated = thrown.translated(error)
            // The closure's own errors leave the transaction as it was; the database's do not.
            if !thrown.threw { noteFailure(translated) }
            throw translated
        }
    }

    /// Applies the edits `body` makes to the grid named `name`, created with `options` when
    /// missing (`nil`: it must exist), as ``update(_:operation:_:)`` does.
    @discardableResult
    public func update(gridNamed name: String, creatingWith options: GridOptions? = GridOptions(), operation: String? = nil,
                       _ body: (inout GridEditor) throws -> Void) throws -> GridSnapshot {
        check()
        return try update(try Grid(changing: name, in: database, creatingWith: options), operation: operation, body)
    }

    /// Deletes the grid named `name` with everything it holds, as ``Grid/drop(named:in:keepingOnPeers:)`` does.
    ///
    /// - Parameter keepingOnPeers: Whether the drop stays here: a grid that took part in sync
    ///   is then brought back by the next sync with a peer that has it.
    /// - Throws: ``GridError/gridNotFound(_:)`` when there is none.
    public func drop(gridNamed name: String, keepingOnPeers: Bool = false) throws(GridError) {
        check()
        let name = GridLimits.canonical(name)
        guard !gridsBeingChanged.contains(name) else { throw .reentrantCall }
        let dropped = try GridError.catching {
            try recordingFailure { try SyncDrop.dropGrid(named: name, in: storage, recording: !keepingOnPeers).found }
        }
        if !dropped { throw .gridNotFound(name) }
    }
}
