/// A value whose calls reach a database: ``GridDatabase``, ``Grid`` and every
/// ``GridSizeRepository``. Every synchronous read or change of it has an `async` form, made
/// one way: pass the call to ``reading(_:)`` or ``changing(_:)``.
///
/// ```swift
/// let snapshot = try await grid.changing { try $0.toggle(at: GridIndexPath(item: 3)) }
/// let size = try await sizes.reading { try $0.size(at: GridIndexPath(item: 3)) }
/// let names = try await database.reading { try $0.read { try $0.grids().map(\.name) } }
/// try await database.changing { try $0.write { transaction in … } }
/// ```
///
/// Pass reads to ``reading(_:)`` and anything that changes to ``changing(_:)``: a read then
/// never waits behind a change that waits for another process's lock (a change passed to
/// `reading` still runs, but may make the reads behind it wait).
///
/// The call runs on the database's executor for reads or for changes, in its turn among the
/// process's other calls on the same connections, so the caller is suspended, not blocked,
/// while it waits for them or for another process's lock. A call whose task is cancelled
/// before its turn never runs and throws `CancellationError`; one that started runs to its
/// commit or rollback. A call whose turn has not come within
/// ``GridDatabase/queueWaitLimitMilliseconds`` throws ``GridError/storage(_:)`` of kind `busy`,
/// having done nothing.
public protocol AsyncCallable: Sendable {}

extension AsyncCallable {
    /// The result of `call`, which reads through this value, run in the database's turn for reads.
    ///
    /// - Throws: What `call` throws; `CancellationError` when the task was cancelled before
    ///   `call` started; ``GridError/storage(_:)`` of kind `busy` when its turn did not come in time.
    public func reading<T: Sendable>(_ call: @escaping @Sendable (Self) throws -> T) async throws -> T {
        try await executor(forChanges: false).run { try call(self) }
    }

    /// The result of `call`, which changes (and reads) through this value, run in the
    /// database's turn for changes.
    ///
    /// - Throws: What `call` throws; `CancellationError` when the task was cancelled before
    ///   `call` started; ``GridError/storage(_:)`` of kind `busy` when its turn did not come in time.
    public func changing<T: Sendable>(_ call: @escaping @Sendable (Self) throws -> T) async throws -> T {
        try await executor(forChanges: true).run { try call(self) }
    }

    /// Where the calls run: the database's executors; for a repository of an app's own that
    /// keeps no ``GridDatabase``, one executor shared by all such.
    ///
    /// - Throws: ``GridError/reentrantCall`` inside a transaction on the database (a task started
    ///   in its closure): the call would wait for the transaction, which may wait for it.
    private func executor(forChanges: Bool) throws(GridError) -> ConnectionExecutor {
        guard let database = (self as? any DatabaseHolding)?.database else { return otherRepositories }
        if CallScope.holds(database.backend) { throw .reentrantCall }
        return forChanges ? database.changes : database.reads
    }
}

/// A value whose calls go to one ``GridDatabase``.
package protocol DatabaseHolding {
    /// The database the value reads and changes.
    var database: GridDatabase { get }
}

/// Where the `async` forms of repositories that keep no ``GridDatabase`` run.
let otherRepositories = ConnectionExecutor(location: "a repository without a database",
                                           waitLimitMilliseconds: GridDatabase.queueWaitLimitMilliseconds)

extension GridDatabase: AsyncCallable, DatabaseHolding {
    package var database: GridDatabase { self }
}
