import Synchronization
/// An open gridstore database: an SQLite file (through `GridStoreSQLite`) or a PostgreSQL
/// server (through `GridStorePostgreSQL`). ``Grid`` and the repositories work the same on either.
///
/// Each backend module adds the initializers that open its kind of database:
/// `GridDatabase(path:)` an SQLite file, `GridDatabase(postgreSQL:)` a server.
///
/// ```swift
/// let database = try GridDatabase(path: "/tmp/grids.sqlite")
/// let grids = try Grid.list(in: database)
/// ```
///
/// One `GridDatabase` holds one connection (and one for reading), shared safely between threads;
/// on PostgreSQL it can hold a pool of them (`GridDatabase(postgreSQL:connections:)`).
public final class GridDatabase: Sendable {
    /// The storage the grids are read from and written to.
    package let backend: any GridStorageBackend

    /// Where `async` changes queue and run, one per connection at a time.
    package let changes: ConnectionExecutor
    /// Where `async` reads queue and run, one per connection at a time: never behind a change
    /// that waits for another process's lock.
    package let reads: ConnectionExecutor

    /// How long a call may wait for this process's earlier calls on the same connections:
    /// one that has not started by then fails, having done nothing (checked when the call ahead
    /// of it ends). 10 seconds, as long as a write waits for another connection's lock.
    public static let queueWaitLimitMilliseconds = 10_000

    /// How many sync bundles this instance merged reading only the rows they name
    /// (``SyncSide/applyByRows(_:grid:in:clockReference:)``), not the whole sync state: for tests.
    package let mergesByRows = Atomic(0)

    /// Whether the database was opened to be read only: every change, migration and
    /// checkpoint is refused before it reaches the backend.
    public let isReadOnly: Bool

    /// Opens the database of `backend`; with `readOnly`, one that every change is refused on.
    package init(backend: any GridStorageBackend, readOnly: Bool = false) {
        self.backend = backend
        isReadOnly = readOnly
        changes = ConnectionExecutor(location: backend.location, waitLimitMilliseconds: Self.queueWaitLimitMilliseconds,
                                     width: backend.parallelCalls)
        reads = ConnectionExecutor(location: backend.location, waitLimitMilliseconds: Self.queueWaitLimitMilliseconds,
                                   width: backend.parallelCalls)
    }

    /// A new, empty database in memory, gone with the instance: for tests, previews, and for
    /// trying a change before a file is made for it. Every call works as on a file, through the
    /// same checks, history and sync.
    public static func inMemory() -> GridDatabase {
        GridDatabase(backend: MemoryStorage())
    }

    /// Runs `body` in a read transaction of the backend: the one way the engine reads.
    ///
    /// - Throws: What `body` throws; ``GridError/reentrantCall`` inside another call's
    ///   transaction on this database; ``GridError/storage(_:)`` of kind `closed` after ``close()``.
    package func storageRead<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T {
        try backend.read(body)
    }

    /// Runs `body`, one read of one statement, as ``GridStorageBackend/readStatement(_:)`` does.
    package func storageReadStatement<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T {
        try backend.readStatement(body)
    }

    /// Runs `body` in a write transaction of the backend: the one way the engine writes.
    ///
    /// - Throws: What `body` throws; ``GridError/reentrantCall`` inside another call's
    ///   transaction on this database; ``GridError/storage(_:)`` of kind `closed` after ``close()``.
    package func storageWrite<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T {
        if isReadOnly {
            // A call nested in another's transaction is refused as such, before it is refused as a change.
            if CallScope.holds(backend) { throw GridError.reentrantCall }
            try refuseIfReadOnly()
        }
        return try backend.write(body)
    }

    /// Opens the database of `backend` to read only, as it is: refused when its schema is not
    /// the one this gridstore reads (migrations pending, or a ledger gridstore does not know).
    ///
    /// - Throws: ``MigrationError`` (``MigrationError/readOnly(pendingFileNames:)`` for
    ///   pending migrations, which a database opened to read only never applies).
    package convenience init(readingOnly backend: any GridStorageBackend) throws {
        self.init(backend: backend, readOnly: true)
        let status = try migrationStatus()
        if let problem = status.problem { throw problem }
        guard status.pending.isEmpty else { throw MigrationError.readOnly(pendingFileNames: status.pending.map(\.fileName)) }
    }

    /// Throws, without touching the database, when it was opened to be read only.
    ///
    /// - Throws: ``GridError/storage(_:)`` of kind ``GridStorageFailure/Kind/databaseFile``.
    package func refuseIfReadOnly() throws(GridError) {
        guard isReadOnly else { return }
        throw .storage(GridStorageFailure(kind: .databaseFile, message: "\(location) was opened to be read only; nothing is written to it"))
    }

    /// The change signal all observers of the database's grids share, made at the first
    /// observation (a process that observes nothing pays nothing for it). After ``close()`` it
    /// is a stopped one, which makes no signal and opens nothing.
    package var watch: DatabaseChangeWatch {
        watchStorage.withLock { storage in
            if let watch = storage.watch { return watch }
            // Weakly: a released database's backend closes (and checkpoints) at once.
            let made = DatabaseChangeWatch { [weak backend] in try backend?.makeChangeSignal() }
            if storage.closed { made.stop() } else { storage.watch = made }
            return made
        }
    }
    // A pthread lock, as the engine's others: ThreadSanitizer sees its ordering, and took two
    // observers made at once under Synchronization's Mutex (a futex it does not follow) for a race.
    private let watchStorage = Locked<(watch: DatabaseChangeWatch?, closed: Bool)>((nil, false))

    deinit {
        changes.stop()
        reads.stop()
        watchStorage.withLock { $0.watch }?.stop()
    }

    // MARK: Closing

    /// How far closing has gone: the backend refuses calls once it has begun (``close()`` tells it first).
    private let lifecycle = PlatformLock()
    private nonisolated(unsafe) var state = LifecycleState.open

    private enum LifecycleState {
        case open, closing, closed
    }

    /// Closes the database: refuses new calls, waits for the calls in progress to end, ends
    /// observation, and closes every connection, releasing every lock on the file (after moving
    /// the write-ahead log into it where no other process needs it) or every server session.
    /// Later calls on it, and on its grids and repositories, throw ``GridError/storage(_:)`` of
    /// kind ``GridStorageFailure/Kind/closed``, and observations end with that error. A second
    /// `close()` returns once the first has finished.
    ///
    /// It blocks the calling thread while it waits: for the calls in progress (a change waits at
    /// most the 10-second busy timeout for another process's lock), and for observation's own
    /// connection to close, at most a tenth of a second unless that connection is being opened
    /// just then. Call it off the main thread, or from a detached task.
    ///
    /// A database also closes when its last reference goes; `close()` is for the moment it must
    /// be closed, for example an iOS app moving to the background with its file in a shared
    /// container (a suspended app holding a lock on such a file is killed).
    ///
    /// - Throws: ``GridError/reentrantCall`` inside a call's closure on this database, which
    ///   could never end while `close()` waited for it.
    public func close() throws(GridError) {
        if CallScope.holds(backend) { throw .reentrantCall }
        let first = lifecycle.withLock { () -> Bool in
            switch state {
            case .open:
                state = .closing
                return true
            case .closing:
                while state != .closed { _ = lifecycle.wait() }
                return false
            case .closed:
                return false
            }
        }
        guard first else { return }
        backend.refuseNewCalls()
        changes.stop()
        reads.stop()
        watchStorage.withLock { storage in
            storage.closed = true
            return storage.watch
        }?.stop(waiting: true)
        // The backend refuses later calls, and closes each connection after the calls that
        // asked for it before.
        backend.close()
        lifecycle.withLock {
            state = .closed
            lifecycle.broadcast()
        }
    }

    /// Whether this database and `other` are one database (a file under two paths, one server
    /// database under two URIs).
    package func isSameDatabase(as other: GridDatabase) throws -> Bool {
        try refuseIfClosing()
        try other.refuseIfClosing()
        return try backend.isSameDatabase(as: other.backend)
    }

    /// Throws what a call after ``close()`` throws, for a call that asks the backend nothing of
    /// its connections.
    private func refuseIfClosing() throws(GridError) {
        if lifecycle.withLock({ state != .open }) {
            throw .storage(GridStorageFailure(kind: .closed, message: "the database \(location) was closed; open it again"))
        }
    }

    /// Whether ``close()`` has finished: every connection is closed.
    public var isClosed: Bool { lifecycle.withLock { state == .closed } }

    /// Where the database is: a file path, or a PostgreSQL connection URI without its password.
    public var location: String { backend.location }

    /// The migrations that opening this database applied; empty when it was up to date.
    public var migrationsAppliedOnOpen: [Migration] { backend.migrationsAppliedOnOpen }

    /// Where the database stands against gridstore's migrations, read without writing.
    public func migrationStatus() throws -> MigrationStatus {
        try backend.migrationStatus()
    }
}
