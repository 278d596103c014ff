import GridStore

/// Opening SQLite files.
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
extension GridDatabase {
    /// The `PRAGMA application_id` that marks a gridstore SQLite file: the ASCII bytes `GRID`.
    public static let applicationID: Int32 = SQLiteStorage.applicationID

    /// How long a write waits for another connection's lock: 10 seconds.
    public static let busyTimeoutMilliseconds: Int32 = SQLiteStorage.busyTimeoutMilliseconds

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

    /// Opens the SQLite database at `path`; when there is no file there, the database reads as an
    /// empty one and its file is made by the first change that commits: a change that is
    /// refused, or throws, leaves no file behind. For a program that should make a file only for
    /// a change that is made (a command line's first command that fails on its input).
    ///
    /// Until then the database is in memory, migrated, and nothing is made on the disk, not even
    /// a missing folder. The first change commits there and is then copied into a new file
    /// under a temporary name beside `path` (mode 0600, in WAL mode, written through to the
    /// disk), which is linked into place. Should another process make a file at `path`
    /// meanwhile, the change is not made and throws ``DatabaseFileError/cannotCreate(path:reason:)``;
    /// the database then goes on with that file, so trying the change again makes it there.
    /// Observers of its grids see changes once the file is there: the change watch looks for
    /// a missing file again within 8 seconds. Until the file is there, reads wait for a change
    /// in progress (a database in memory has one connection), and a failure to write the file
    /// (a folder that cannot be written, a full disk) closes the database, the change not made:
    /// open it again to try again.
    ///
    /// - Parameter creatingOnFirstChange: `true` for the behaviour above; `false` makes the
    ///   file now, as ``init(path:migrations:applyingMigrations:)`` does.
    /// - Throws: What ``init(path:migrations:applyingMigrations:)`` throws.
    public convenience init(path: String, migrations: MigrationSet = .gridStore, creatingOnFirstChange: Bool) throws {
        self.init(backend: try SQLiteStorage(path: path, migrations: migrations, creatingOnFirstChange: creatingOnFirstChange))
    }

    /// Opens the existing SQLite database at `path` to read only: nothing creates, migrates or
    /// writes to it (every change, migration and checkpoint is refused with
    /// ``GridError/storage(_:)`` of kind ``GridStorageFailure/Kind/databaseFile``), and the
    /// folder is left as it was found. For dry runs, and for looking at a file that must not change.
    ///
    /// - Throws: ``DatabaseFileError`` for a missing file or one that is not a gridstore
    ///   database; ``MigrationError/readOnly(pendingFileNames:)`` when its schema is older
    ///   than this gridstore reads (it is not migrated).
    public convenience init(readingOnly path: String, migrations: MigrationSet = .gridStore) throws {
        guard try Self.exists(at: path) else { throw DatabaseFileError.cannotOpen(path: path, reason: "there is no such file") }
        try self.init(readingOnly: try SQLiteStorage(path: path, migrations: migrations, applyingMigrations: false))
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

    /// Moves every change committed so far from the write-ahead log (`<path>-wal`) into the
    /// database file and empties the log: once it returns `true`, a copy of the file alone
    /// holds every committed change, until the next one. Releasing the database (its last
    /// `GridDatabase`, with the grids and repositories that hold it) does the same; call this
    /// where a program keeps its database for as long as it runs, before the file is copied
    /// or backed up on its own.
    ///
    /// - Returns: `false` when another connection (another process reading an older state,
    ///   or writing) kept part of the log for longer than the busy timeout: try again.
    /// - Throws: ``GridError/reentrantCall`` inside a call on this database;
    ///   ``GridError/storage(_:)`` of kind `closed` after ``GridDatabase/close()``;
    ///   ``DatabaseFileError/unsupported(_:)`` on PostgreSQL, whose server keeps its own files.
    public func checkpoint() throws -> Bool {
        guard let sqlite else {
            throw DatabaseFileError.unsupported("\(location) is a PostgreSQL database, whose server keeps its own files; "
                                                + "back it up with pg_dump or pg_basebackup")
        }
        try refuseIfReadOnly()
        return try sqlite.checkpoint()
    }

    /// The SQLite storage, when the database is an SQLite file: for tests and audits that read the tables.
    package var sqlite: SQLiteStorage? { backend as? SQLiteStorage }
}

extension MigrationSet {
    /// gridstore's own SQLite schema: the files of `migrations/sqlite/` this build was compiled with.
    public static let gridStore = MigrationSet(embedded: embeddedMigrations)
}
