import GridStore

/// The PostgreSQL backend: a pool of connections to one server, shared safely between threads.
///
/// Reads run in `REPEATABLE READ READ ONLY` transactions, so they see one consistent state.
/// A change runs in one transaction that first locks its grid's row (`SELECT … FOR UPDATE`):
/// writers of one grid take turns, writers of different grids run in parallel, each on a
/// connection of its own. A change takes two round trips once its grid is cached: the lock
/// and the grid's header, then every write and the commit.
///
/// A serialization failure or deadlock rolls back and runs the change again, up to
/// ``maximumAttempts`` times with a growing random pause. A connection the server dropped
/// (a restart) is found out by the first round trip of a call, before anything is written,
/// and the call runs again once on a new connection. A server that is down or stopped
/// answering gives a one-line error naming it.
package final class PostgreSQLStorage: GridStorageBackend, Sendable {
    /// How many times a change is tried when the server reports a serialization failure or a deadlock.
    package static let maximumAttempts = 8

    package let location: String
    package let migrationsAppliedOnOpen: [Migration]
    let migrations: MigrationSet
    let pool: PostgreSQLConnectionPool

    /// Connects to `location`, applying pending migrations unless `applyingMigrations` is `false`.
    ///
    /// - Parameter connections: How many changes may run at once, each on its own connection.
    /// - Parameter waitLimitMilliseconds: How long a call waits for a connection of the pool.
    package init(_ location: PostgreSQLLocation, connections: Int = 1, migrations: MigrationSet = .gridStorePostgreSQL,
                 applyingMigrations: Bool = true, waitLimitMilliseconds: Int = GridDatabase.queueWaitLimitMilliseconds) throws {
        self.location = location.displayName
        self.migrations = migrations
        let connection = try PostgreSQLConnection(location)
        // Before anything of gridstore's runs there, and again over the tables migrations made.
        let runner = PostgreSQLMigrationRunner(migrations: migrations)
        let status = try runner.status(of: connection)
        if applyingMigrations, let problem = status.problem { throw problem }
        let migrating = applyingMigrations && !status.pending.isEmpty
        try Self.verifyBetweenMigrations(connection, migrating: migrating)
        migrationsAppliedOnOpen = migrating ? try runner.migrate(connection) : []
        if !migrationsAppliedOnOpen.isEmpty { try Self.verifyBetweenMigrations(connection, migrating: false) }
        // The replica id a migration minted belongs to this database: a restored dump of it is
        // another database, so it takes an id of its own before its first sync.
        if migrationsAppliedOnOpen.contains(where: { $0.sql.contains("CREATE TABLE replica") }) {
            _ = try connection.execute("UPDATE replica SET storage_identity = " + PostgreSQLGridTransaction.identity(on: connection)
                                       + " WHERE storage_identity = ''")
        }
        hasTables = migrating || !status.applied.isEmpty
        pool = PostgreSQLConnectionPool(first: connection, writers: connections,
                                        waitLimitMilliseconds: waitLimitMilliseconds)
    }

    /// Checks the schema (``PostgreSQLSchemaCheck``) while no migrator is applying a migration:
    /// under the migrators' advisory lock, shared. A migration that drops or renames a table
    /// under the check's catalog reads failed it ("could not open relation with OID", SQLSTATE
    /// XX000) when app servers start at once.
    private static func verifyBetweenMigrations(_ connection: PostgreSQLConnection, migrating: Bool) throws {
        connection.begin()
        do {
            try connection.execute("SELECT pg_advisory_xact_lock_shared($1)", [PostgreSQLMigrationRunner.advisoryLockKey])
            try PostgreSQLSchemaCheck.verify(connection, migrating: migrating)
            try connection.executeScript("COMMIT")
        } catch {
            connection.discardQueued()
            if connection.isOpen { _ = try? connection.executeScript("ROLLBACK") }
            throw error
        }
    }

    /// Whether gridstore's tables were there, or made, when the database was opened: opened
    /// without applying migrations, an empty database reads as one with no grids, and nothing
    /// is created in it.
    let hasTables: Bool

    package var parallelCalls: Int { pool.writers }

    /// The server's clock judges the changes devices send it, and is a reference for a device whose clock is slow.
    package var hasOwnClock: Bool { true }

    package func close() {
        pool.close()
    }

    package func refuseNewCalls() {
        pool.refuseNewCalls()
    }

    package func migrationStatus() throws -> MigrationStatus {
        try withConnection { try PostgreSQLMigrationRunner(migrations: migrations).status(of: $0) }
    }

    package func read<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T {
        guard hasTables else { return try pool.withoutConnection(storage: self) { try EmptyDatabase.read(body) } }
        return try pool.withConnection(for: .read, storage: self) { connection in
            try transaction(connection, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", retrying: false) {
                try body(PostgreSQLGridTransaction(connection, locksGrids: false))
            }
        }
    }

    /// One statement is one transaction of its own on the server: no `BEGIN` or `COMMIT` around it.
    package func readStatement<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T {
        guard hasTables else { return try pool.withoutConnection(storage: self) { try EmptyDatabase.read(body) } }
        return try pool.withConnection(for: .read, storage: self) { connection in
            if !connection.isOpen { try connection.reconnect() }
            return try body(PostgreSQLGridTransaction(connection, locksGrids: false))
        }
    }

    package func write<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T {
        guard hasTables else {
            try pool.refuseIfClosed()
            throw PostgreSQLDatabaseError.unsupported("\(location) has no gridstore tables, and this handle was opened without "
                                                      + "applying migrations; open it with them (any gridstore command that "
                                                      + "changes a grid does) to create them")
        }
        return try pool.withConnection(for: .write, storage: self) { connection in
            try transaction(connection, begin: "BEGIN", retrying: true) {
                try body(PostgreSQLGridTransaction(connection, locksGrids: true))
            }
        }
    }

    /// The same database of the same server, by any URI: an advisory lock a transaction holds
    /// here cannot be taken through `other` (advisory locks are per database), which needs no
    /// privilege. Transaction-level locks, so that a pooler in transaction mode keeps the server
    /// session for the test and leaves nothing on it.
    package func isSameDatabase(as other: any GridStorageBackend) throws -> Bool {
        guard let other = other as? PostgreSQLStorage, other !== self else { return other === self }
        let key = String(Int64.random(in: 1...Int64.max))
        return try withConnection { mine in
            mine.begin()
            defer { _ = try? mine.execute("ROLLBACK") }
            try mine.execute("SELECT pg_advisory_xact_lock($1)", [key])
            // One database may hold two stores, in two schemas that `search_path` chooses: the
            // same store is the same `grids` table.
            let table = "SELECT coalesce(to_regclass('grids')::oid::text, '')"
            let myTable = try mine.execute(table)
            return try other.withConnection { theirs in
                let taken = try theirs.execute("SELECT pg_try_advisory_xact_lock($1)", [key])
                guard !(taken.count == 1 && taken.string(0, 0) == "t") else { return false }
                let theirTable = try theirs.execute(table)
                return myTable.count == 1 && theirTable.count == 1 && myTable.string(0, 0) == theirTable.string(0, 0)
            }
        }
    }

    /// Runs `body` with a connection of the pool, reconnecting first if the server went away
    /// since the last call.
    ///
    /// - Throws: ``GridError/reentrantCall`` inside another call's closure on this database.
    package func withConnection<T>(for use: ConnectionUse = .read, _ body: (PostgreSQLConnection) throws -> T) throws -> T {
        return try pool.withConnection(for: use, storage: self) { connection in
            if !connection.isOpen { try connection.reconnect() }
            return try body(connection)
        }
    }

    /// Runs `body` between `begin` and `COMMIT` on `connection`, rolling back when it throws,
    /// and again when the server asks for it (`retrying`: a serialization failure, a deadlock,
    /// a grid created meanwhile) or when the connection turns out dropped at the first round trip.
    private func transaction<T>(_ connection: PostgreSQLConnection, begin: String, retrying: Bool,
                                _ body: () throws -> T) throws -> T {
        var attempt = 1
        var reconnected = false
        while true {
            if !connection.isOpen {
                try connection.reconnect()
                reconnected = true
            }
            let start = connection.roundTrips
            do {
                return try transaction(connection, begin: begin, body)
            } catch {
                // A call nested in the body brings the server's error wrapped in a GridError.
                let cause = Self.cause(of: error)
                let mayRetry = retrying && attempt < Self.maximumAttempts
                if mayRetry, let failure = cause as? PostgreSQLError, failure.isTransient {
                    Self.pause(beforeAttempt: attempt + 1)
                } else if mayRetry, cause is PostgreSQLGridTransaction.ConcurrentCreation {
                    // Another connection created the same grid first: run again, and find it.
                } else if let dropped = cause as? DroppedConnection {
                    // Dropped before this call (a server restart): its first round trip failed, so
                    // nothing of it ran. Once more, on a new connection.
                    guard !reconnected && connection.roundTrips == start + 1 else { throw dropped.failure }
                    try connection.reconnect()
                    reconnected = true
                } else {
                    throw error
                }
            }
            attempt += 1
        }
    }

    /// The backend's own error inside `error`: a call nested in a transaction's body throws what
    /// the backend threw wrapped in ``GridError/storage(_:)``.
    private static func cause(of error: any Error) -> any Error {
        if case .storage(let failure)? = error as? GridError, let underlying = failure.underlying {
            return cause(of: underlying)
        }
        return error
    }

    /// A connection failure before `COMMIT` was sent: nothing of the transaction applied.
    private struct DroppedConnection: Error {
        let failure: PostgreSQLError
    }

    /// One try of `body` between `begin` and `COMMIT`. `BEGIN` goes with the body's first
    /// statement, and the body's writes with `COMMIT`.
    private func transaction<T>(_ connection: PostgreSQLConnection, begin: String, _ body: () throws -> T) throws -> T {
        let result: T
        do {
            connection.begin(begin)
            result = try body()
        } catch let error where (Self.cause(of: error) as? PostgreSQLError)?.isConnectionFailure == true && !connection.isOpen {
            // (A connection failure while this connection is still open is another's: a call of
            // another database's made in this transaction's body. This transaction is rolled
            // back below, as for any error, and the connection goes back to the pool idle.)
            let error = Self.cause(of: error) as! PostgreSQLError
            connection.discardQueued()
            // COMMIT was never sent, so the server rolls the transaction back.
            let failure = PostgreSQLError(sqlState: error.sqlState, message: error.message + "; nothing was committed",
                                          server: error.server)
            // A server that stopped answering may still hold this transaction's locks: not tried again.
            if connection.wasAbandoned { throw failure }
            throw DroppedConnection(failure: failure)
        } catch {
            connection.discardQueued()
            if connection.isOpen { _ = try? connection.execute("ROLLBACK") }
            throw error
        }
        do {
            _ = connection.takeNotices()
            try connection.execute("COMMIT")
        } catch {
            guard error.isConnectionFailure else {
                // A write queued before COMMIT failed: the transaction is aborted, and is rolled back.
                if connection.isOpen { _ = try? connection.execute("ROLLBACK") }
                throw error
            }
            // The server may have committed before the connection broke: say so, never guess.
            throw PostgreSQLError(sqlState: "08007",
                                  message: "the connection was lost while committing, so the change may or may not "
                                      + "have been applied: \(error.message)", server: error.server)
        }
        // A COMMIT whose wait for the synchronous standby was cancelled (its statement_timeout
        // passed) succeeds with a warning: the change is on this server only.
        if let warning = connection.takeNotices().first(where: { $0.contains("synchronous replication") }) {
            throw PostgreSQLError(sqlState: "01000", message: "the change was committed here, but the synchronous standby "
                                      + "did not confirm it, so a failover now would lose it (\(warning))",
                                  server: connection.server)
        }
        return result
    }

    /// Sleeps a random 1 ms to 2^attempt ms (at most 100 ms), so retrying writers spread out.
    private static func pause(beforeAttempt attempt: Int) {
        let ceiling = min(100, 1 << min(attempt, 7))
        GridStore.Platform.sleep(milliseconds: Int.random(in: 1...ceiling))
    }
}

extension GridDatabase {
    /// Opens the PostgreSQL database at `uri`, a connection URI (`postgresql://…` or
    /// `postgres://…`) handed to libpq as it is, applying pending migrations.
    ///
    /// ```swift
    /// let server = try GridDatabase(postgreSQL: "postgresql://app@db.internal/layouts?sslmode=require")
    /// ```
    ///
    /// - Parameter applyingMigrations: Whether to apply pending migrations now.
    /// - Throws: ``PostgreSQLDatabaseError/unsupported(_:)`` when `uri` is not a PostgreSQL connection
    ///   URI, ``PostgreSQLError`` when the server cannot be reached, and ``MigrationError``
    ///   when the schema cannot be brought up to date.
    /// - Parameter connections: How many changes may run at once, each on a connection of its
    ///   own (at least 1); reads use an idle one, or one more. Callers past that wait their turn,
    ///   in order, at most ``queueWaitLimitMilliseconds``.
    public convenience init(postgreSQL uri: String, connections: Int = 1, applyingMigrations: Bool = true) throws {
        self.init(backend: try Self.storage(uri, connections: connections, applyingMigrations: applyingMigrations))
    }

    /// The storage of the server database at `uri`, its URI and pool size checked first.
    private static func storage(_ uri: String, connections: Int, applyingMigrations: Bool) throws -> PostgreSQLStorage {
        guard let server = PostgreSQLLocation(uri) else {
            // Not echoed: a mistyped scheme would print a password.
            throw PostgreSQLDatabaseError.unsupported("the location is not a PostgreSQL connection URI (postgresql://… or postgres://…)")
        }
        guard server.poolMode != nil else {
            // Named only when it is a plain word: the text could hold a password's piece or a line break.
            let given = server.poolModeText ?? ""
            let named = !given.isEmpty && given.count <= 32 && given.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "_") }
            throw PostgreSQLDatabaseError.unsupported("the URI's pool_mode is \(named ? "\"\(given)\"" : "not a mode gridstore knows"); "
                                                + "gridstore knows session (the default) and transaction")
        }
        guard connections >= 1 else {
            throw PostgreSQLDatabaseError.unsupported("a database needs at least 1 connection, not \(connections)")
        }
        return try PostgreSQLStorage(server, connections: connections, applyingMigrations: applyingMigrations)
    }

    /// Opens the PostgreSQL database at `uri` to read only: nothing creates, migrates or writes
    /// to it (every change is refused with ``GridError/storage(_:)`` of kind
    /// ``GridStorageFailure/Kind/databaseFile`` before it reaches the server). For dry runs.
    ///
    /// - Throws: What ``init(postgreSQL:connections:applyingMigrations:)`` throws;
    ///   ``MigrationError/readOnly(pendingFileNames:)`` when the database's schema is older than
    ///   this gridstore reads, or has none (it is not migrated).
    public convenience init(readingOnlyPostgreSQL uri: String, connections: Int = 1) throws {
        try self.init(readingOnly: Self.storage(uri, connections: connections, applyingMigrations: false))
    }

    /// The PostgreSQL storage, when the database is on a server: for tests and audits.
    package var postgreSQL: PostgreSQLStorage? { backend as? PostgreSQLStorage }
}
