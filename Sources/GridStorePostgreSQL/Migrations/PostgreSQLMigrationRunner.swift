import GridStore

extension MigrationSet {
    /// gridstore's own PostgreSQL schema: the files of `migrations/postgresql/` this build was compiled with.
    public static let gridStorePostgreSQL = MigrationSet(embedded: embeddedMigrations)
}

/// Applies a ``MigrationSet`` to a PostgreSQL database, with the same ledger rules as the
/// SQLite runner: the `schema_migrations` table records each applied file's version, name
/// and SHA-256, a migration and its ledger row commit together, and a database whose
/// applied files changed, that a newer gridstore migrated, or that lacks an older migration
/// is refused before anything is written.
///
/// Concurrent migrators (several app servers starting at once) take turns on an advisory
/// lock that each migration's transaction takes first, and each re-reads the ledger under
/// it, so every migration is applied exactly once.
package struct PostgreSQLMigrationRunner: Sendable {
    /// The advisory lock key migrators share: the ASCII bytes `GRID`.
    package static let advisoryLockKey = "1196575044"

    /// The migrations to apply.
    package let migrations: MigrationSet

    package init(migrations: MigrationSet) {
        self.migrations = migrations
    }

    /// Reads the ledger and compares it with the set, without writing.
    package func status(of connection: PostgreSQLConnection) throws -> MigrationStatus {
        MigrationStatus(ledger: try readLedger(connection), migrations: migrations)
    }

    /// Applies every pending migration, in version order.
    ///
    /// - Returns: The migrations this call applied; empty when the database was up to date.
    /// - Throws: ``MigrationError`` when the ledger and the set disagree or a migration fails
    ///   (it is rolled back; earlier ones stay applied); ``PostgreSQLError`` otherwise.
    @discardableResult
    package func migrate(_ connection: PostgreSQLConnection) throws -> [Migration] {
        let initial = try status(of: connection)
        if let problem = initial.problem { throw problem }
        guard !initial.pending.isEmpty else { return [] }
        var applied: [Migration] = []
        var lookedAgain: Int?
        while true {
            connection.begin()
            do {
                // A transaction's advisory lock, not a session's: behind a pooler in transaction
                // mode a session lock would stay on a server session after this connection left it.
                try connection.execute("SELECT pg_advisory_xact_lock($1)", [Self.advisoryLockKey])
                // Another migrator may have applied some while this one waited for the lock.
                let current = try status(of: connection)
                if let problem = current.problem { throw problem }
                guard let migration = current.pending.first else {
                    try connection.executeScript("COMMIT")
                    return applied
                }
                do {
                    try apply(migration, to: connection)
                } catch where lookedAgain != migration.version && !((error as? PostgreSQLError)?.isConnectionFailure ?? false) {
                    // The server may have looked the catalogs up for this transaction before the wait
                    // (a table another migrator created meanwhile then seems missing, so its migration
                    // seems pending): once more, in a new transaction, which sees what was committed.
                    connection.discardQueued()
                    _ = try? connection.executeScript("ROLLBACK")
                    lookedAgain = migration.version
                    continue
                }
                try connection.executeScript("COMMIT")
                applied.append(migration)
            } catch {
                connection.discardQueued()
                if connection.isOpen { _ = try? connection.executeScript("ROLLBACK") }
                throw error
            }
        }
    }

    private func apply(_ migration: Migration, to connection: PostgreSQLConnection) throws {
        try connection.executeScript("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version    integer     PRIMARY KEY,
                name       text        NOT NULL,
                checksum   text        NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
        if let failure = Self.failure(running: migration.sql, on: connection) {
            guard !failure.isConnectionFailure else { throw failure }
            throw MigrationError.failed(fileName: migration.fileName,
                                        reason: "\(failure.message) (SQLSTATE \(failure.sqlState ?? "?"))")
        }
        try connection.execute("INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                               [String(migration.version), migration.name, migration.checksum])
    }

    /// Runs `sql`, returning the error it fails with, if any.
    private static func failure(running sql: String, on connection: PostgreSQLConnection) -> PostgreSQLError? {
        do {
            try connection.executeScript(sql)
            return nil
        } catch {
            return error
        }
    }

    private func readLedger(_ connection: PostgreSQLConnection) throws -> [MigrationStatus.AppliedMigration] {
        let exists = try connection.execute("SELECT to_regclass('schema_migrations') IS NOT NULL")
        guard exists.count == 1, exists.string(0, 0) == "t" else { return [] }
        let rows = try connection.execute("""
            SELECT version, name, checksum, to_char(applied_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
            FROM schema_migrations ORDER BY version
            """)
        return (0..<rows.count).map { row in
            MigrationStatus.AppliedMigration(version: Int(rows.int(row, 0)), name: rows.string(row, 1),
                                             checksum: rows.string(row, 2), appliedAt: rows.string(row, 3))
        }
    }
}
