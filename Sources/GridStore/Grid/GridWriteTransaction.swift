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
/// Each grid changed through it gets one new revision per ``update(_:operation:_:)``, undo,
/// redo, revert, import or sync bundle applied, with its history entry, as a change on its own
/// would.
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

    /// Refuses a change of the grid named `name` inside its own change's editor closure, which would overwrite it.
    func refuseWhileChanging(_ name: String) throws(GridError) {
        if gridsBeingChanged.contains(name) { throw .reentrantCall }
    }

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
        try refuseWhileChanging(grid.name)
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

    /// Takes back `grid`'s latest `count` changes, as ``Grid/undo(_:)`` does, as one revision
    /// of it in this transaction.
    ///
    /// - Throws: ``Grid/undo(_:)``'s errors, and ``GridError/gridNotFound(_:)`` for a grid that
    ///   is not there. A refusal leaves the transaction as it was; a failure of the database
    ///   fails it.
    @discardableResult
    public func undo(_ grid: Grid, _ count: Int = 1) throws(GridError) -> GridSnapshot {
        try run(.moving(count, through: .undo), on: grid)
    }

    /// Re-applies `grid`'s latest `count` changes undone, as ``Grid/redo(_:)`` does, in this transaction.
    ///
    /// - Throws: ``Grid/redo(_:)``'s errors, as ``undo(_:_:)`` does.
    @discardableResult
    public func redo(_ grid: Grid, _ count: Int = 1) throws(GridError) -> GridSnapshot {
        try run(.moving(count, through: .redo), on: grid)
    }

    /// Makes `grid` as it was at `revision`, as ``Grid/revert(to:)`` does, in this transaction.
    ///
    /// - Throws: ``Grid/revert(to:)``'s errors, as ``undo(_:_:)`` does.
    @discardableResult
    public func revert(_ grid: Grid, to revision: Int) throws(GridError) -> GridSnapshot {
        try run(.reverting(to: revision), on: grid)
    }

    /// Replaces `grid`'s settings and sizes with `document`, as ``Grid/importDocument(_:operation:)``
    /// does, in this transaction.
    ///
    /// - Throws: ``Grid/importDocument(_:operation:)``'s errors. A document whose sync ids do
    ///   not fit its grid is refused before anything; any other error fails the transaction:
    ///   ``GridDatabase/write(_:)`` throws it even when the closure caught it, as part of the
    ///   import may be written by then.
    @discardableResult
    public func importDocument(_ document: GridDocument.Decoded, into grid: Grid, operation: String? = nil) throws(GridError) -> GridSnapshot {
        check(grid)
        try Grid.checkSyncIdentity(of: document)
        return try failingWhole(grid) { try grid.importing(document, operation: operation, in: storage) }
    }

    /// Merges the sync bundle `bytes` into `grid`, as ``Grid/applySyncBundle(_:allowingUnrelated:)``
    /// does, in this transaction.
    ///
    /// - Throws: That method's errors. A bundle that cannot be read leaves the transaction as it
    ///   was; any other error fails it, as ``importDocument(_:into:operation:)``'s do.
    @discardableResult
    public func applySyncBundle(_ bytes: some Collection<UInt8>, to grid: Grid, allowingUnrelated: Bool = false) throws(GridError) -> GridSyncResult {
        check(grid)
        return try applySyncBundle(try SyncBundle.decoded(bytes), to: grid, allowingUnrelated: allowingUnrelated)
    }

    /// Merges `bundle`, already decoded, into `grid`, as the form that takes a bundle's bytes does.
    @discardableResult
    public func applySyncBundle(_ bundle: SyncBundle, to grid: Grid, allowingUnrelated: Bool = false) throws(GridError) -> GridSyncResult {
        try failingWhole(grid) { try grid.applying(bundle, in: storage, allowingUnrelated: allowingUnrelated) }
    }

    /// What a peer at `cursor` lacks of `grid`, as ``Grid/syncBundle(since:)`` gives it, read in
    /// this transaction, which records what it sends.
    ///
    /// - Throws: ``Grid/syncBundle(since:)``'s errors; any of them fails the transaction, as
    ///   ``importDocument(_:into:operation:)``'s do.
    public func syncBundle(of grid: Grid, since cursor: SyncCursor) throws(GridError) -> SyncBundle {
        try failingWhole(grid) { try grid.syncBundle(since: cursor, in: storage) }
    }

    /// Runs `operation` on `grid` as ``update(_:operation:_:)`` runs its edits.
    private func run(_ operation: @autoclosure () throws(GridError) -> GridOperation, on grid: Grid) throws(GridError) -> GridSnapshot {
        check(grid)
        try refuseWhileChanging(grid.name)
        let operation = try operation()
        return try GridError.catching {
            try recordingFailure {
                // Nothing to take back or bring again in a grid that is not there: refused before
                // the change would make it.
                guard try storage.header(named: grid.name) != nil else { throw GridError.gridNotFound(grid.name) }
                return try grid.run(operation, in: storage).1
            }
        }
    }

    /// Runs `work` on `grid`, any error it throws failing the whole transaction.
    private func failingWhole<T>(_ grid: Grid, _ work: () throws -> T) throws(GridError) -> T {
        check(grid)
        try refuseWhileChanging(grid.name)
        do {
            return try GridError.catching(work)
        } catch {
            noteFailure(error, evenARefusal: true)
            throw error
        }
    }

    /// Deletes the grid named `name` with everything it holds, as ``Grid/drop(named:in:keepingOnPeers:)`` does.
    ///
    /// - Parameter keepingOnPeers: Whether the drop stays here: a grid that took part in sync
    ///   is then brought back by the next sync with a peer that has it.
    /// - Throws: ``GridError/gridNotFound(_:)`` when there is none.
    public func drop(gridNamed name: String, keepingOnPeers: Bool = false) throws(GridError) {
        check()
        let name = GridLimits.canonical(name)
        try refuseWhileChanging(name)
        let dropped = try GridError.catching {
            try recordingFailure { try SyncDrop.dropGrid(named: name, in: storage, recording: !keepingOnPeers).found }
        }
        if !dropped { throw .gridNotFound(name) }
    }
}
