import GridStore

/// The PostgreSQL backend: one connection to a server, shared safely between threads.
///
/// Reads run in `REPEATABLE READ READ ONLY` transactions, so they see one consistent state.
/// A change runs in one transaction that first locks its grid's row (`SELECT … FOR UPDATE`):
/// writers of one grid take turns, writers of different grids run in parallel. A
/// serialization failure or deadlock rolls back and runs the change again, up to
/// ``maximumAttempts`` times with a growing random pause. A server that is down or went
/// away gives a one-line error naming it; the next call reconnects.
package final class PostgreSQLStorage: GridStorageBackend, @unchecked Sendable {
    // @unchecked: `connection` is only used while `gate` is held, `readerConnection` only while
    // `readerGate` is (it is read and set by the thread holding it).

    /// How many times a change is tried when the server reports a serialization failure or a deadlock.
    package static let maximumAttempts = 8

    package let location: String
    package let migrationsAppliedOnOpen: [Migration]
    let migrations: MigrationSet
    private let gate = ConnectionGate()
    private let connection: PostgreSQLConnection
    /// Where a second connection goes.
    private let server: PostgreSQLLocation
    /// A second connection, made the first time a read finds the main one busy (a change
    /// waiting for a row lock), so reads never queue behind a waiting change.
    private var readerConnection: PostgreSQLConnection?
    private let readerGate = ConnectionGate()

    /// Connects to `location`, applying pending migrations unless `applyingMigrations` is `false`.
    package init(_ location: PostgreSQLLocation, migrations: MigrationSet = .gridStorePostgreSQL,
                 applyingMigrations: Bool = true) throws {
        self.location = location.displayName
        self.migrations = migrations
        server = location
        connection = try PostgreSQLConnection(location)
        // Before anything of gridstore's runs there, and again over the tables migrations made.
        let runner = PostgreSQLMigrationRunner(migrations: migrations)
        let status = try runner.status(of: connection)
        if applyingMigrations, let problem = status.problem { throw problem }
        let migrating = applyingMigrations && !status.pending.isEmpty
        try PostgreSQLSchemaCheck.verify(connection, migrating: migrating)
        migrationsAppliedOnOpen = migrating ? try runner.migrate(connection) : []
        if !migrationsAppliedOnOpen.isEmpty { try PostgreSQLSchemaCheck.verify(connection) }
    }

    package func migrationStatus() throws -> MigrationStatus {
        try withConnection { try PostgreSQLMigrationRunner(migrations: migrations).status(of: $0) }
    }

    package func read<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T {
        // Inside another call's closure on this thread: join its transaction.
        if let held = gate.heldByCurrentThread {
            return try body(PostgreSQLGridTransaction(connection, locksGrids: held == .write))
        }
        if readerGate.heldByCurrentThread != nil, let readerConnection {
            return try body(PostgreSQLGridTransaction(readerConnection, locksGrids: false))
        }
        func read(_ connection: PostgreSQLConnection) throws -> T {
            if !connection.isOpen { try connection.reconnect() }
            return try self.transaction(connection, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                try body(PostgreSQLGridTransaction(connection, locksGrids: false))
            }
        }
        if let result = try gate.withLockIfAvailable(for: .read, { try read(connection) }) { return result }
        // The main connection is busy (a change may be waiting for a row lock): read through a second one.
        return try readerGate.withLock(for: .read) {
            if readerConnection == nil { readerConnection = try PostgreSQLConnection(server) }
            return try read(readerConnection!)
        }
    }

    package func write<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T {
        switch gate.heldByCurrentThread {
        case .write?: return try body(PostgreSQLGridTransaction(connection, locksGrids: true))
        case .read?: throw GridError.reentrantCall
        case nil: break
        }
        return try withConnection(for: .write) { connection in
            var attempt = 1
            while true {
                do {
                    return try transaction(connection, begin: "BEGIN") {
                        try body(PostgreSQLGridTransaction(connection, locksGrids: true))
                    }
                } catch let error as PostgreSQLError where error.isTransient && attempt < Self.maximumAttempts {
                    Self.pause(beforeAttempt: attempt + 1)
                } catch is PostgreSQLGridTransaction.ConcurrentCreation where attempt < Self.maximumAttempts {
                    // Another connection created the same grid first: run again, and find it.
                }
                attempt += 1
            }
        }
    }

    package var isInTransactionOnCurrentThread: Bool {
        gate.heldByCurrentThread != nil || readerGate.heldByCurrentThread != nil
    }

    /// The same database of the same server, by any URI: a session-level advisory lock taken here
    /// cannot be taken through `other` (advisory locks are per database), which needs no privilege.
    package func isSameDatabase(as other: any GridStorageBackend) throws -> Bool {
        guard let other = other as? PostgreSQLStorage, other !== self else { return other === self }
        let key = String(Int64.random(in: 1...Int64.max))
        return try withConnection { mine in
            try mine.execute("SELECT pg_advisory_lock($1)", [key])
            defer { _ = try? mine.execute("SELECT pg_advisory_unlock($1)", [key]) }
            return try other.withConnection { theirs in
                let taken = try theirs.execute("SELECT pg_try_advisory_lock($1)", [key])
                guard taken.count == 1, taken.string(0, 0) == "t" else { return true }
                _ = try theirs.execute("SELECT pg_advisory_unlock($1)", [key])
                return false
            }
        }
    }

    /// Runs `body` with the connection, reconnecting first if the server went away since the last call.
    package func withConnection<T>(for use: ConnectionGate.Use = .read, _ body: (PostgreSQLConnection) throws -> T) throws -> T {
        if gate.heldByCurrentThread != nil { return try body(connection) }
        return try gate.withLock(for: use) {
            if !connection.isOpen { try connection.reconnect() }
            return try body(connection)
        }
    }

    /// Runs `body` between `begin` and `COMMIT`, rolling back when it throws.
    private func transaction<T>(_ connection: PostgreSQLConnection, begin: String, _ body: () throws -> T) throws -> T {
        let result: T
        do {
            try connection.executeScript(begin)
            result = try body()
        } catch let error as PostgreSQLError where error.isConnectionFailure {
            // COMMIT was never sent, so the server rolls the transaction back.
            throw PostgreSQLError(sqlState: error.sqlState, message: error.message + "; nothing was committed", server: error.server)
        } catch {
            if connection.isOpen { _ = try? connection.executeScript("ROLLBACK") }
            throw error
        }
        do {
            try connection.executeScript("COMMIT")
        } catch {
            guard error.isConnectionFailure else { throw error }
            // The server may have committed before the connection broke: say so, never guess.
            throw PostgreSQLError(sqlState: error.sqlState,
                                  message: "the connection was lost while committing, so the change may or may not "
                                      + "have been applied: \(error.message)", server: error.server)
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
    /// - Throws: ``DatabaseFileError/unsupported(_:)`` when `uri` is not a PostgreSQL connection
    ///   URI, ``PostgreSQLError`` when the server cannot be reached, and ``MigrationError``
    ///   when the schema cannot be brought up to date.
    public convenience init(postgreSQL uri: String, applyingMigrations: Bool = true) throws {
        guard let server = PostgreSQLLocation(uri) else {
            // Not echoed: a mistyped scheme would print a password.
            throw DatabaseFileError.unsupported("the location is not a PostgreSQL connection URI (postgresql://… or postgres://…)")
        }
        self.init(backend: try PostgreSQLStorage(server, applyingMigrations: applyingMigrations))
    }

    /// The PostgreSQL storage, when the database is on a server: for tests and audits.
    package var postgreSQL: PostgreSQLStorage? { backend as? PostgreSQLStorage }
}
