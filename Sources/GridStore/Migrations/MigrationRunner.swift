/// Applies a ``MigrationSet`` to a database, never leaving it half-upgraded.
///
/// Each pending migration runs in its own `BEGIN IMMEDIATE` transaction together with
/// its row in the `schema_migrations` ledger, so a migration is either fully applied and
/// recorded or not at all. Before writing anything the runner checks the ledger against
/// the set and refuses a database whose applied migrations were changed, that a newer
/// build migrated, or that lacks a migration older than one it has.
///
/// Several processes may migrate one database at the same moment: the write lock
/// serializes them and each re-reads the ledger under it, so every migration is applied
/// exactly once.
///
/// ```swift
/// let connection = try SQLiteConnection(path: path)
/// let applied = try MigrationRunner(migrations: .gridStore).migrate(connection)
/// ```
public struct MigrationRunner: Sendable {
    /// The name of the ledger table.
    public static let ledgerTable = "schema_migrations"

    /// The migrations to apply.
    public let migrations: MigrationSet

    /// A value written to `PRAGMA application_id` in every migration transaction, if any.
    public let applicationID: Int32?

    /// Creates a runner for `migrations`, optionally stamping the file with `applicationID`.
    public init(migrations: MigrationSet, applicationID: Int32? = nil) {
        self.migrations = migrations
        self.applicationID = applicationID
    }

    /// Reads the ledger and compares it with the set, without writing.
    public func status(of connection: SQLiteConnection) throws -> MigrationStatus {
        try connection.transaction(.deferred) { try currentStatus(connection) }
    }

    /// Applies every pending migration, in version order.
    ///
    /// - Parameter knownStatus: The status the caller just read with ``status(of:)``, so that
    ///   opening a database reads its ledger once; each migration still re-reads it under the
    ///   write lock before it applies.
    /// - Returns: The migrations this call applied; empty when the database was up to date
    ///   (or another process applied them first).
    /// - Throws: ``MigrationError`` when the ledger and the set disagree (nothing is written),
    ///   when a migration fails (it is rolled back; earlier ones stay applied), or when
    ///   the database is read-only; ``SQLiteError`` when SQLite fails otherwise.
    @discardableResult
    public func migrate(_ connection: SQLiteConnection, knownStatus: MigrationStatus? = nil) throws -> [Migration] {
        let initial = try knownStatus ?? status(of: connection)
        if let problem = initial.problem { throw problem }
        guard !initial.pending.isEmpty else { return [] }
        if connection.isReadOnly {
            throw MigrationError.readOnly(pendingFileNames: initial.pending.map(\.fileName))
        }

        // A migration that rebuilds a table must not cascade deletes through it: foreign keys
        // are off while migrating (the pragma has no effect inside a transaction), and each
        // migration checks them before it commits.
        let foreignKeys = try connection.fetchOne("PRAGMA foreign_keys") { $0.int(at: 0) } ?? 0
        try connection.execute("PRAGMA foreign_keys = OFF")
        defer { if foreignKeys != 0 { try? connection.execute("PRAGMA foreign_keys = ON") } }
        var applied: [Migration] = []
        for migration in initial.pending {
            let didApply = try connection.transaction(.immediate) {
                // Another process may have migrated while this one waited for the lock.
                let current = try currentStatus(connection)
                if let problem = current.problem { throw problem }
                guard current.pending.contains(migration) else { return false }
                try apply(migration, to: connection)
                return true
            }
            if didApply { applied.append(migration) }
        }
        return applied
    }

    private func apply(_ migration: Migration, to connection: SQLiteConnection) throws {
        try connection.executeScript("""
            CREATE TABLE IF NOT EXISTS \(Self.ledgerTable) (
                version    INTEGER PRIMARY KEY,
                name       TEXT NOT NULL,
                checksum   TEXT NOT NULL,
                applied_at TEXT NOT NULL
            ) STRICT;
            """)
        do {
            try connection.executeScript(migration.sql)
        } catch let error as SQLiteError {
            throw MigrationError.failed(fileName: migration.fileName, reason: error.message)
        }
        try connection.execute(
            "INSERT INTO \(Self.ledgerTable) (version, name, checksum, applied_at) "
                + "VALUES (?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
            [migration.version, migration.name, migration.checksum])
        // PRAGMA values cannot be bound; both are integers this type controls.
        try connection.execute("PRAGMA user_version = \(migration.version)")
        if let applicationID {
            try connection.execute("PRAGMA application_id = \(applicationID)")
        }
        if let violation = try connection.fetchOne("PRAGMA foreign_key_check", [], { $0.string(at: 0) }) {
            throw MigrationError.failed(fileName: migration.fileName,
                                        reason: "it leaves rows of table \(violation) without the rows they refer to")
        }
    }

    private func currentStatus(_ connection: SQLiteConnection) throws -> MigrationStatus {
        MigrationStatus(ledger: try readLedger(connection), migrations: migrations)
    }

    private func readLedger(_ connection: SQLiteConnection) throws -> [MigrationStatus.AppliedMigration] {
        let hasLedger = try connection.fetchOne(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [Self.ledgerTable]) { _ in true } ?? false
        guard hasLedger else { return [] }
        return try connection.fetchAll(
            "SELECT version, name, checksum, applied_at FROM \(Self.ledgerTable) ORDER BY version"
        ) { row in
            MigrationStatus.AppliedMigration(
                version: row.int(at: 0), name: row.string(at: 1), checksum: row.string(at: 2), appliedAt: row.string(at: 3))
        }
    }
}
