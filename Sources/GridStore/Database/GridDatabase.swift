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

    /// Opens the database of `backend`.
    package init(backend: any GridStorageBackend) {
        self.backend = backend
        changes = ConnectionExecutor(location: backend.location, waitLimitMilliseconds: Self.queueWaitLimitMilliseconds,
                                     width: backend.parallelCalls)
        reads = ConnectionExecutor(location: backend.location, waitLimitMilliseconds: Self.queueWaitLimitMilliseconds,
                                   width: backend.parallelCalls)
    }

    /// Runs `body` in a read transaction of the backend: the one way the engine reads.
    ///
    /// - Throws: What `body` throws; ``GridError/reentrantCall`` inside another call's
    ///   transaction on this database.
    package func storageRead<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T {
        try CallScope.refuseNested(in: self)
        return try whileOpen { try CallScope.holding(self) { try backend.read(body) } }
    }

    /// Runs `body`, one read of one statement, as ``GridStorageBackend/readStatement(_:)`` does.
    package func storageReadStatement<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T {
        try CallScope.refuseNested(in: self)
        return try whileOpen { try CallScope.holding(self) { try backend.readStatement(body) } }
    }

    /// Runs `body` in a write transaction of the backend: the one way the engine writes.
    ///
    /// - Throws: What `body` throws; ``GridError/reentrantCall`` inside another call's
    ///   transaction on this database.
    package func storageWrite<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T {
        try CallScope.refuseNested(in: self)
        return try whileOpen { try CallScope.holding(self) { try backend.write(body) } }
    }

    /// The change signal all observers of the database's grids share, made at the first
    /// observation (a process that observes nothing pays nothing for it).
    package var watch: DatabaseChangeWatch {
        watchStorage.withLock { watch in
            if let watch { return watch }
            // Weakly: a released database's backend closes (and checkpoints) at once.
            let made = DatabaseChangeWatch { [weak backend] in try backend?.makeChangeSignal() }
            watch = made
            return made
        }
    }
    private let watchStorage = Mutex<DatabaseChangeWatch?>(nil)

    deinit {
        changes.stop()
        reads.stop()
        watchStorage.withLock { $0 }?.stop()
    }

    // MARK: Closing

    /// How many calls are using the backend, and whether the database was closed.
    private let lifecycle = PlatformLock()
    private nonisolated(unsafe) var activeCalls = 0
    private nonisolated(unsafe) var closed = false

    /// Runs `body`, which uses the backend, unless the database was closed; ``close()`` waits
    /// for it to end.
    ///
    /// - Throws: ``GridError/storage(_:)`` of kind ``GridStorageFailure/Kind/closed`` after
    ///   ``close()``; what `body` throws.
    package func whileOpen<T>(_ body: () throws -> T) throws -> T {
        try lifecycle.withLock {
            guard !closed else {
                throw GridError.storage(GridStorageFailure(kind: .closed, message: "the database \(location) was closed; open it again"))
            }
            activeCalls += 1
        }
        defer {
            lifecycle.withLock {
                activeCalls -= 1
                if activeCalls == 0 { lifecycle.broadcast() }
            }
        }
        return try body()
    }

    /// Closes the database: waits for the calls in progress to end, ends observation, and
    /// closes every connection, releasing every lock on the file (after moving the
    /// write-ahead log into it where no other process needs it) or every server session.
    /// Later calls on it, and on its grids and repositories, throw ``GridError/storage(_:)`` of
    /// kind ``GridStorageFailure/Kind/closed``, and observations end with that error. Closing
    /// twice does nothing.
    ///
    /// A database also closes when its last reference goes; `close()` is for the moment it must
    /// be closed, for example an iOS app moving to the background with its file in a shared
    /// container (a suspended app holding a lock on such a file is killed).
    ///
    /// - Throws: ``GridError/reentrantCall`` inside a call's closure on this database, which
    ///   could never end while `close()` waited for it.
    public func close() throws(GridError) {
        try CallScope.refuseNested(in: self)
        let first = lifecycle.withLock {
            defer { closed = true }
            while activeCalls > 0 { _ = lifecycle.wait() }
            return !closed
        }
        guard first else { return }
        changes.stop()
        reads.stop()
        watchStorage.withLock { $0 }?.stop(waiting: true)
        backend.close()
    }

    /// Whether this database and `other` are one database (a file under two paths, one server
    /// database under two URIs).
    package func isSameDatabase(as other: GridDatabase) throws -> Bool {
        try whileOpen { try other.whileOpen { try backend.isSameDatabase(as: other.backend) } }
    }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { lifecycle.withLock { closed } }

    /// Where the database is: a file path, or a PostgreSQL connection URI without its password.
    public var location: String { backend.location }

    /// The migrations that opening this database applied; empty when it was up to date.
    public var migrationsAppliedOnOpen: [Migration] { backend.migrationsAppliedOnOpen }

    /// Where the database stands against gridstore's migrations, read without writing.
    public func migrationStatus() throws -> MigrationStatus {
        try whileOpen { try backend.migrationStatus() }
    }
}
