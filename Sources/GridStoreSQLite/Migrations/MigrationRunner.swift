import GridStore
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
/// Migrations belong to a namespace, as GRDB's `DatabaseMigrator` identifies its
/// migrations: gridstore's are `gridstore`; an app keeps its own tables in the same file
/// with its own set under its own name (see ``GridDatabase/migrate(_:)``). Each namespace
/// has its own versions in the one ledger, and a runner looks only at its own namespace's
/// rows, so an app's migrations never make gridstore refuse the file, nor the reverse.
///
/// ```swift
/// let connection = try SQLiteConnection(path: path)
/// let applied = try MigrationRunner(migrations: .gridStore).migrate(connection)
/// let appTables = try MigrationSet(files: [("0001_notes.sql", "CREATE TABLE notes (body TEXT) STRICT;")])
/// try MigrationRunner(namespace: "notes_app", migrations: appTables).migrate(connection)
/// ```
public struct MigrationRunner: Sendable {
    /// The name of the ledger table.
    public static let ledgerTable = "schema_migrations"

    /// gridstore's own namespace.
    public static let gridStoreNamespace = MigrationStatus.gridStoreNamespace

    /// The namespace the migrations are recorded under.
    public let namespace: String

    /// The migrations to apply.
    public let migrations: MigrationSet

    /// A value written to `PRAGMA application_id` in every migration transaction, if any; a
    /// runner that stamps the file also sets `PRAGMA user_version` to the version applied.
    public let applicationID: Int32?

    /// Creates a runner for `migrations`, optionally stamping the file with `applicationID`.
    ///
    /// - Parameter namespace: The name the migrations are recorded under: 1 to 64 ASCII
    ///   letters, digits, `_`, `-` or `.`.
    /// - Precondition: `namespace` is valid (see ``isValid(namespace:)``); a bad one is a
    ///   programmer's error, as a bad format string is.
    public init(namespace: String = MigrationRunner.gridStoreNamespace, migrations: MigrationSet, applicationID: Int32? = nil) {
        precondition(Self.isValid(namespace: namespace),
                     "'\(namespace)' is not a migration namespace: use 1 to 64 ASCII letters, digits, _, - or .")
        self.namespace = namespace
        self.migrations = migrations
        self.applicationID = applicationID
    }

    /// Whether `namespace` can name a namespace: 1 to 64 ASCII letters, digits, `_`, `-` or `.`.
    public static func isValid(namespace: String) -> Bool {
        (1...64).contains(namespace.utf8.count) && namespace.utf8.allSatisfy { byte in
            (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    /// Reads the ledger and compares it with the set, without writing.
    package func status(of connection: SQLiteConnection) throws -> MigrationStatus {
        try connection.transaction(.deferred) { try currentStatus(connection) }
    }

    /// Reads the ledger once, for gridstore's own runner: the status, as ``status(of:)`` gives
    /// it, and whether the ledger records an app's migrations beside gridstore's.
    package func ledger(of connection: SQLiteConnection) throws -> (status: MigrationStatus, recordsAppMigrations: Bool) {
        precondition(namespace == Self.gridStoreNamespace, "only gridstore's own runner tells an app's migrations from its own")
        return try connection.transaction(.deferred) {
            let ledger = try readLedger(connection)
            return (MigrationStatus(ledger: ledger.own, migrations: migrations, namespace: namespace), ledger.othersRecorded)
        }
    }

    /// Applies every pending migration, in version order.
    ///
    /// - Parameter knownStatus: The status the caller just read with ``status(of:)`` or
    ///   ``ledger(of:)``, so that opening a database reads its ledger once; each migration still re-reads it under the
    ///   write lock before it applies.
    /// - Returns: The migrations this call applied; empty when the database was up to date
    ///   (or another process applied them first).
    /// - Throws: ``MigrationError`` when the ledger and the set disagree (nothing is written),
    ///   when a migration fails (it is rolled back; earlier ones stay applied), or when
    ///   the database is read-only; ``SQLiteError`` when SQLite fails otherwise.
    @discardableResult
    package func migrate(_ connection: SQLiteConnection, knownStatus: MigrationStatus? = nil) throws -> [Migration] {
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
        try Self.prepareLedger(connection)
        do {
            try connection.executeScript(migration.sql)
        } catch let error as SQLiteError {
            throw MigrationError.failed(fileName: migration.fileName, reason: error.message)
        }
        try connection.execute(
            "INSERT INTO \(Self.ledgerTable) (namespace, version, name, checksum, applied_at) "
                + "VALUES (?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
            [namespace, migration.version, migration.name, migration.checksum])
        // PRAGMA values cannot be bound; both are integers this type controls.
        if let applicationID {
            try connection.execute("PRAGMA user_version = \(migration.version)")
            try connection.execute("PRAGMA application_id = \(applicationID)")
        }
        if let violation = try connection.fetchOne("PRAGMA foreign_key_check", [], { $0.string(at: 0) }) {
            throw MigrationError.failed(fileName: migration.fileName,
                                        reason: "it leaves rows of table \(violation) without the rows they refer to")
        }
    }

    private func currentStatus(_ connection: SQLiteConnection) throws -> MigrationStatus {
        MigrationStatus(ledger: try readLedger(connection).own, migrations: migrations, namespace: namespace)
    }

    /// The ledger as gridstore builds it now, and as earlier builds did (without namespaces).
    private enum LedgerShape { case missing, unnamespaced, namespaced }

    private static func ledgerShape(_ connection: SQLiteConnection) throws -> LedgerShape {
        let columns = try connection.fetchAll("SELECT name FROM pragma_table_info(?)", [ledgerTable]) { $0.string(at: 0) }
        if columns.isEmpty { return .missing }
        return columns.contains("namespace") ? .namespaced : .unnamespaced
    }

    /// Creates the ledger, or gives the one an earlier build made its namespace column (its
    /// rows are gridstore's), inside the migration's transaction.
    private static func prepareLedger(_ connection: SQLiteConnection) throws {
        func create(_ name: String) -> String {
            """
            CREATE TABLE \(name) (
                namespace  TEXT    NOT NULL,
                version    INTEGER NOT NULL CHECK (version > 0),
                name       TEXT    NOT NULL,
                checksum   TEXT    NOT NULL,
                applied_at TEXT    NOT NULL,
                PRIMARY KEY (namespace, version)
            ) STRICT, WITHOUT ROWID;
            """
        }
        switch try ledgerShape(connection) {
        case .namespaced:
            return
        case .missing:
            try connection.executeScript(create(ledgerTable))
        case .unnamespaced:
            let upgrading = ledgerTable + "_upgrading"
            try connection.executeScript(create(upgrading) + """
                INSERT INTO \(upgrading) (namespace, version, name, checksum, applied_at)
                    SELECT '\(gridStoreNamespace)', version, name, checksum, applied_at FROM \(ledgerTable);
                DROP TABLE \(ledgerTable);
                ALTER TABLE \(upgrading) RENAME TO \(ledgerTable);
                """)
        }
    }

    /// This runner's namespace's rows of the ledger, in version order, and whether it holds
    /// another namespace's rows too (a ledger without namespaces holds gridstore's alone, and
    /// is read as holding no other).
    private func readLedger(_ connection: SQLiteConnection) throws -> (own: [MigrationStatus.AppliedMigration], othersRecorded: Bool) {
        switch try Self.ledgerShape(connection) {
        case .missing:
            return ([], false)
        case .unnamespaced:
            // gridstore's rows alone: none of another runner's namespace.
            guard namespace == Self.gridStoreNamespace else { return ([], false) }
            return (try connection.fetchAll("SELECT version, name, checksum, applied_at FROM \(Self.ledgerTable) ORDER BY version") { row in
                MigrationStatus.AppliedMigration(
                    version: row.int(at: 0), name: row.string(at: 1), checksum: row.string(at: 2), appliedAt: row.string(at: 3))
            }, false)
        case .namespaced:
            // Every namespace's rows in one read (a few dozen), where opening also asked for the namespaces apart.
            let rows = try connection.fetchAll(
                "SELECT namespace, version, name, checksum, applied_at FROM \(Self.ledgerTable) ORDER BY version"
            ) { row in
                (namespace: row.string(at: 0), migration: MigrationStatus.AppliedMigration(
                    version: row.int(at: 1), name: row.string(at: 2), checksum: row.string(at: 3), appliedAt: row.string(at: 4)))
            }
            let own = rows.filter { $0.namespace == namespace }.map(\.migration)
            let othersRecorded = own.count < rows.count
            return (own, othersRecorded)
        }
    }
}
