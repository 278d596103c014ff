import GridStore
/// An app's own tables beside gridstore's, in one SQLite file.
///
/// An app keeps its migrations under its own namespace in the file's ledger; gridstore looks
/// only at its own, so neither refuses the other's. gridstore still refuses any trigger or
/// index, whoever made it, on its own tables.
///
/// ```swift
/// let database = try GridDatabase(path: path)                      // gridstore's file, or
/// let shared = try GridDatabase(embeddingIn: "/path/to/app.sqlite")  // the app's existing database
/// let notes = try MigrationSet(files: [("0001_notes.sql", "CREATE TABLE notes (body TEXT) STRICT;")])
/// try database.migrate(MigrationRunner(namespace: "notes_app", migrations: notes))
/// ```
extension GridDatabase {
    /// Opens the existing SQLite database of an application at `path` and adds gridstore's
    /// tables to it (applying gridstore's migrations under the `gridstore` namespace).
    ///
    /// The file keeps the application's `application_id` and `user_version`; its own tables,
    /// views, indexes and triggers are left alone, except that gridstore refuses a trigger or
    /// index on one of its own tables. The file is switched to WAL mode, as gridstore's own
    /// are. Open it this way every time: ``init(path:migrations:applyingMigrations:)`` refuses
    /// a file that carries another application's `application_id`.
    ///
    /// - Throws: ``DatabaseFileError/cannotOpen(path:reason:)`` when there is no file (it is
    ///   never created), ``DatabaseFileError/notADatabase(path:)``, ``MigrationError`` when
    ///   gridstore's tables cannot be added (a table of the same name, for example; nothing is
    ///   written then), and ``SQLiteError`` for other SQLite failures.
    public convenience init(embeddingIn path: String, migrations: MigrationSet = .gridStore) throws {
        self.init(backend: try SQLiteStorage(path: path, migrations: migrations, ownership: .embeddedInApplicationDatabase))
    }

    /// Applies an app's migrations to this database under the app's own namespace, each in its
    /// own transaction with its ledger row, as gridstore applies its own.
    ///
    /// - Returns: The migrations applied now; empty when the database was up to date.
    /// - Throws: ``MigrationError`` when the ledger's rows for the namespace disagree with
    ///   `runner`'s set (a changed file, a newer version of the app) or a migration fails (it
    ///   is rolled back); ``DatabaseFileError/unsupported(_:)`` for `runner`s of gridstore's own
    ///   namespace or a PostgreSQL database.
    @discardableResult
    public func migrate(_ runner: MigrationRunner) throws -> [Migration] {
        try refuseIfReadOnly()
        return try requireAppMigrations(runner).migrate(runner)
    }

    /// Where this database stands against an app's migrations, read without writing.
    public func migrationStatus(of runner: MigrationRunner) throws -> MigrationStatus {
        try requireAppMigrations(runner).migrationStatus(of: runner)
    }

    private func requireAppMigrations(_ runner: MigrationRunner) throws -> SQLiteStorage {
        guard runner.namespace != MigrationRunner.gridStoreNamespace else {
            throw DatabaseFileError.unsupported("gridstore applies its own migrations when it opens a database; "
                                                + "give an app's migrations a namespace of their own")
        }
        guard let sqlite else {
            throw DatabaseFileError.unsupported("an app's migrations run on SQLite databases; on PostgreSQL, "
                                                + "manage the app's own tables with the app's own tools")
        }
        return sqlite
    }
}
