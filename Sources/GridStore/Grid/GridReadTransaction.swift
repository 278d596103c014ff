extension GridError {
    /// Whether the database failed, rather than the engine refusing.
    var isStorageFailure: Bool {
        if case .storage = self { return true }
        return false
    }
}

/// One read transaction of a ``GridDatabase``, handed to the closure of
/// ``GridDatabase/read(_:)``: every grid read through it is read from one consistent state of
/// the database.
///
/// It is the only way to work inside the transaction: a call on the database itself (a
/// ``Grid`` method, a repository, another `read` or `write`) made inside the closure is refused
/// with ``GridError/reentrantCall``. The value is not `Sendable` and is valid only while the
/// closure runs; using it after is a programming error.
///
/// ```swift
/// let (phone, tablet) = try database.read { transaction in
///     (try transaction.snapshot(of: "phone"), try transaction.snapshot(of: "tablet"))
/// }
/// ```
public class GridReadTransaction {
    /// The database the transaction is of.
    public let database: GridDatabase
    /// The backend's rows of this transaction.
    let storage: any GridStorageTransaction
    /// Whether the closure it was handed to still runs.
    private var isOpen = true
    /// The first failure of the database met through the transaction: once one happened (on
    /// PostgreSQL the server has aborted the transaction), it cannot commit, even when the
    /// closure caught the error and went on.
    private(set) var failure: (any Error)?

    init(database: GridDatabase, storage: any GridStorageTransaction) {
        self.database = database
        self.storage = storage
    }

    /// Ends the transaction's use: called when the closure returns.
    func close() {
        isOpen = false
    }

    /// The result of `work`, remembering a failure of the database it meets (see ``failure``).
    func recordingFailure<T>(_ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch {
            noteFailure(error)
            throw error
        }
    }

    /// Remembers `error` as the transaction's ``failure`` when it is the first and the
    /// database's, not a refusal of the engine's, which writes nothing (or any error, with
    /// `evenARefusal`, for work that may refuse after writing part of itself).
    func noteFailure(_ error: any Error, evenARefusal: Bool = false) {
        guard failure == nil else { return }
        if !evenARefusal, let refusal = error as? GridError, !refusal.isStorageFailure { return }
        failure = error
    }

    /// Checks that the transaction is still open and `grid` is of its database.
    func check(_ grid: Grid? = nil) {
        precondition(isOpen, "a transaction is used only inside the closure it was handed to")
        precondition(grid.map { $0.database === database } ?? true,
                     "grid '\(grid?.name ?? "")' is of another database than this transaction's")
    }

    /// The result of `work`, which reads `grid` in this transaction, remembering a failure of the database it meets.
    func reading<T>(_ grid: Grid, _ work: () throws -> T) throws(GridError) -> T {
        check(grid)
        return try GridError.catching { try recordingFailure(work) }
    }

    /// Every grid in the database, by name.
    public func grids() throws(GridError) -> [GridSummary] {
        check()
        return try GridError.catching { try recordingFailure { try storage.grids() } }
    }

    /// Whether a grid named `name` exists.
    public func exists(gridNamed name: String) throws(GridError) -> Bool {
        check()
        let name = GridLimits.canonical(name)
        return try GridError.catching { try recordingFailure { try storage.header(named: name) != nil } }
    }

    /// The state of the grid named `name`.
    ///
    /// - Throws: ``GridError/gridNotFound(_:)`` when there is none: reading never creates a grid.
    public func snapshot(of name: String) throws(GridError) -> GridSnapshot {
        check()
        let grid = try Grid(reading: name, in: database)
        return try GridError.catching { try recordingFailure { try grid.storedState(in: storage, caching: false).snapshot } }
    }

    /// The state of `grid`, as this transaction sees it.
    ///
    /// - Throws: ``GridError/gridNotFound(_:)`` when it does not exist (yet): reading never creates a grid.
    public func snapshot(of grid: Grid) throws(GridError) -> GridSnapshot {
        check(grid)
        return try GridError.catching { try recordingFailure { try grid.storedState(in: storage, caching: false).snapshot } }
    }

    /// The item at `path` of `grid`, as ``Grid/item(at:)`` reads it.
    ///
    /// - Throws: ``Grid/item(at:)``'s errors.
    public func item(at path: GridIndexPath, of grid: Grid) throws(GridError) -> GridItem {
        try reading(grid) { try grid.item(at: path, key: nil, in: storage) }
    }

    /// The item of `grid` with the key `key`, as ``Grid/item(forKey:)`` reads it.
    ///
    /// - Throws: ``Grid/item(forKey:)``'s errors.
    public func item(forKey key: String, of grid: Grid) throws(GridError) -> GridItem {
        try reading(grid) { try grid.item(at: nil, key: key, in: storage) }
    }
}
