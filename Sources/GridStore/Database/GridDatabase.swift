
/// An open gridstore database: an SQLite file, or (through `GridStorePostgreSQL`) a
/// PostgreSQL server. ``Grid`` and the repositories work the same on either.
///
/// `GridDatabase(path:)` opens an SQLite file, creating it if it is missing, refusing files
/// that are not gridstore's own (leaving them untouched), and applying pending migrations.
/// The file is in WAL mode with `synchronous=FULL`: readers never wait for the writer, and
/// a committed change survives a power loss. A new file is built complete under a
/// temporary name and then linked into place with mode 0600.
///
/// ```swift
/// let database = try GridDatabase(path: "/tmp/grids.sqlite")
/// let grids = try Grid.list(in: database)
/// ```
///
/// One `GridDatabase` holds one connection, shared safely between threads.
public final class GridDatabase: Sendable {
    /// The `PRAGMA application_id` that marks a gridstore SQLite file: the ASCII bytes `GRID`.
    public static let applicationID: Int32 = SQLiteStorage.applicationID

    /// How long a write waits for another connection's lock: 10 seconds.
    public static let busyTimeoutMilliseconds: Int32 = SQLiteStorage.busyTimeoutMilliseconds

    /// The storage the grids are read from and written to.
    package let backend: any GridStorageBackend

    /// The grids a change is running on, with the threads running them: a change of the same grid
    /// asked for inside that change's closure is refused, since it would be overwritten.
    /// (Arrays of the few threads, not sets: a `Set<UInt>` costs every process a search of the
    /// runtime's conformance records when it is first made.)
    package let gridsBeingChanged = Locked<[String: [UInt]]>([:])

    /// Opens the database of `backend`.
    package init(backend: any GridStorageBackend) {
        self.backend = backend
    }

    /// Opens the SQLite database at `path`, creating it if it does not exist.
    ///
    /// - Parameters:
    ///   - path: The file; missing parent folders are created with mode 0700.
    ///   - migrations: The schema to bring the database to; gridstore's own by default.
    ///   - applyingMigrations: Whether to apply pending migrations now. When `false`, an
    ///     existing file is opened as it is and a missing one is not created.
    /// - Throws: ``DatabaseFileError`` for a path that is not a gridstore database,
    ///   ``MigrationError`` when the schema cannot be brought up to date, and
    ///   ``SQLiteError`` for other SQLite failures.
    public convenience init(path: String, migrations: MigrationSet = .gridStore, applyingMigrations: Bool = true) throws {
        self.init(backend: try SQLiteStorage(path: path, migrations: migrations, applyingMigrations: applyingMigrations))
    }

    /// Opens the SQLite database at the default location (see ``DatabaseLocation``).
    public convenience init() throws {
        try self.init(path: DatabaseLocation.standard)
    }

    /// Whether an SQLite database file exists at `path`.
    ///
    /// - Throws: ``DatabaseFileError/isDirectory(path:)`` when `path` is a directory.
    public static func exists(at path: String) throws -> Bool {
        switch FileSystem.entry(at: path) {
        case .missing: return false
        case .directory: throw DatabaseFileError.isDirectory(path: path)
        case .file, .other: return true
        }
    }

    /// Where the database is: a file path, or a PostgreSQL connection URI without its password.
    public var location: String { backend.location }

    /// The migrations that opening this database applied; empty when it was up to date.
    public var migrationsAppliedOnOpen: [Migration] { backend.migrationsAppliedOnOpen }

    /// Where the database stands against gridstore's migrations, read without writing.
    public func migrationStatus() throws -> MigrationStatus {
        try backend.migrationStatus()
    }

    /// The SQLite storage, when the database is an SQLite file: for tests and audits that read the tables.
    package var sqlite: SQLiteStorage? { backend as? SQLiteStorage }
}
