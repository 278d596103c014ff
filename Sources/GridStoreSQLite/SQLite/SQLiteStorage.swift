#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite
import Synchronization
import GridStore

/// The SQLite backend: one gridstore database file and one connection to it, shared
/// safely between threads.
///
/// Opening a path creates the database if it is missing, refuses files that are not
/// gridstore's own (leaving them untouched), configures the connection and applies
/// pending migrations. Every connection gets the same settings:
///
/// - `journal_mode=WAL`: readers never block the writer and the writer never blocks readers;
/// - `synchronous=FULL`: a committed transaction survives a power loss, not just a crash;
/// - a busy timeout of ``busyTimeoutMilliseconds``: a writer waits for another process's
///   write lock that long before failing;
/// - `foreign_keys=ON`: deleting a grid deletes its sections, sizes and placements;
/// - a persistent write-ahead log, so short-lived processes do not create and delete the
///   `-wal` and `-shm` files each time; it is moved into the database by checkpoints that
///   wait for nobody (every 1,000 pages, and, emptying it, when a connection that wrote goes
///   away), never by the checkpoint SQLite runs when the last connection closes, whose
///   database-file lock a reader could run into.
///
/// A new file is built complete under a temporary name and then linked into place, so
/// no process ever sees a half-created database; it has mode 0600, like the property
/// lists of Foundation's `UserDefaults`.
package final class SQLiteStorage: GridStorageBackend, @unchecked Sendable {
    // @unchecked: `connection` is only used in a turn of `main`, `readerConnection` only in one
    // of `reader` (it is read and set by the call holding it).
    /// The `PRAGMA application_id` that marks a gridstore file: the ASCII bytes `GRID`.
    package static let applicationID: Int32 = DatabaseFileError.gridStoreApplicationID

    /// The page size of new database files: 16 KiB, so that a change's placement chunks
    /// take few pages (measured: a toggle in a 10,000-item grid is about 0.8 ms faster
    /// than with SQLite's default 4 KiB).
    static let pageSize = 16_384

    /// How long a write waits for another connection's lock: 10 seconds.
    package static let busyTimeoutMilliseconds: Int32 = 10_000

    /// The start of the names new database files are built under: `.gridstore-new-<pid>-<random>`.
    static let temporaryPrefix = ".gridstore-new-"

    /// How long one operation (a read, a change, opening and migrating) may run before its
    /// statements are stopped: 60 seconds, far above the largest import's few seconds, so no
    /// file can hang a command.
    package static let operationTimeLimitMilliseconds = 60_000

    /// The path of the database file.
    package let path: String

    package var location: String { path }

    package let migrationsAppliedOnOpen: [Migration]

    /// The main connection, used for changes and, when it is free, for reads. Replaced only
    /// when a database made on its first change is linked into place, in a turn of both.
    private var connection: SQLiteConnection
    /// The turns of the main connection.
    private let main = ConnectionScheduler()
    /// The turns of this process's writers of the file, which every database of the file in
    /// the process shares (see ``FileSchedulers``): a write takes its turn there, then on
    /// ``main``. `nil` while the database is not at its path yet.
    private let fileWriters = Locked<ConnectionScheduler?>(nil)
    /// A second connection, opened the first time a read finds the main one busy (a change
    /// waiting for another process's lock), so reads never queue behind a waiting change
    /// (except in a database in memory until its first change, which has only the main one).
    private var readerConnection: SQLiteConnection?
    /// The turns of the second connection.
    private let reader = ConnectionScheduler()
    /// The file the connection opened, to notice it being deleted or replaced; `nil` while the
    /// database is not at its path yet. Read in a turn of either connection, set in a turn of both.
    private var identity: FileIdentity?
    /// Whether the database is in memory until its first change commits, for one made on its
    /// first change (``GridDatabase/init(path:migrations:creatingOnFirstChange:)``): the change
    /// then writes the file. Read in a turn of either connection, set in a turn of both.
    private var isInMemory = false
    /// Whether closing removes the `-wal` and `-shm` files, which were not beside the file when
    /// it was opened to be read as it is (without migrations): a reader leaves the folder as it found it.
    private let removesLogOnClose: Bool

    /// Whether a write was committed through this connection, so its log is checkpointed at the end.
    private let hasWritten = Atomic(false)

    /// The migrations this database is brought to.
    let migrations: MigrationSet

    /// Whose file it is.
    let ownership: Ownership

    /// Whose file the database is.
    package enum Ownership: Sendable {
        /// gridstore's own file, stamped with its `application_id`; created when missing.
        case gridStoreFile
        /// An existing database of an application that gridstore's tables were put into: its
        /// `application_id` and `user_version` are the application's, and left alone.
        case embeddedInApplicationDatabase
    }

    /// Opens the database at `path`, creating it if it does not exist (see ``GridDatabase/init(path:migrations:applyingMigrations:)``).
    ///
    /// - Parameter creatingOnFirstChange: Whether a missing file is a database in memory until
    ///   its first change commits, which then writes the file (nothing, not even its folder, is
    ///   made before), rather than made now.
    package init(path: String, migrations: MigrationSet = .gridStore, applyingMigrations: Bool = true,
                 ownership: Ownership = .gridStoreFile, creatingOnFirstChange: Bool = false) throws {
        self.path = path
        self.migrations = migrations
        self.ownership = ownership
        try Self.validate(path: path)
        let embedded = ownership == .embeddedInApplicationDatabase
        let runner = MigrationRunner(migrations: migrations, applicationID: embedded ? nil : Self.applicationID)
        removesLogOnClose = !applyingMigrations && FileSystem.entry(at: path + "-wal") == .missing
            && FileSystem.entry(at: path + "-shm") == .missing
        if applyingMigrations, !embedded, creatingOnFirstChange, FileSystem.entry(at: path) == .missing {
            if let problem = FileSystem.companionNameProblem(path) { throw DatabaseFileError.cannotCreate(path: path, reason: problem) }
            let memory = try SQLiteConnection(path: ":memory:")
            try memory.enableDefensiveMode()
            try memory.execute("PRAGMA page_size = \(Self.pageSize)")
            try memory.execute("PRAGMA foreign_keys = ON")
            migrationsAppliedOnOpen = try runner.migrate(memory)
            connection = memory
            isInMemory = true
            return
        }
        var created: [Migration] = []
        if applyingMigrations, !embedded, FileSystem.entry(at: path) == .missing {
            created = try Self.createDatabase(at: path, runner: runner)
        }
        let (connection, applied) = try Self.openChecked(at: path, runner: runner, applyingMigrations: applyingMigrations,
                                                         embedded: embedded, migrations: migrations)
        migrationsAppliedOnOpen = created + applied
        self.connection = connection
        if removesLogOnClose { try? connection.checkpointOnClose() }
        identity = FileIdentity.of(path)
        if let identity { fileWriters.withLock { $0 = FileSchedulers.scheduler(for: identity) } }
        // The replica id a migration minted belongs to this file: a copy of it is another file,
        // so it takes an id of its own before its first sync, even when copied before this one's.
        if identity != nil, migrationsAppliedOnOpen.contains(where: { $0.sql.contains("CREATE TABLE replica") }) {
            try Self.withTimeLimit(connection) {
                try connection.execute("UPDATE replica SET file_identity = ? WHERE file_identity = ''",
                                       [FileIdentity.replicaText(of: path)])
            }
        }
        // Migrations write: their log is emptied at close, or every later process that only
        // reads would scan it at open.
        if !migrationsAppliedOnOpen.isEmpty { hasWritten.store(true, ordering: .relaxed) }
    }

    /// Opens the gridstore database at `path` after checking it, applying pending migrations
    /// when `applyingMigrations`: the connection and the migrations applied.
    private static func openChecked(at path: String, runner: MigrationRunner, applyingMigrations: Bool, embedded: Bool,
                                    migrations: MigrationSet) throws -> (SQLiteConnection, [Migration]) {
        // Nothing is written to a file, and nothing in it runs, before it is known to be
        // gridstore's own: its ledger and its schema are read first, so a refused file is left
        // exactly as it was.
        var status: MigrationStatus?
        let connection = try Self.openExisting(at: path, changingFile: applyingMigrations, verifyingOwnership: !embedded) { connection in
            try Self.withTimeLimit(connection) {
                let (ledger, recordsAppMigrations) = try runner.ledger(of: connection)
                if let problem = ledger.problem {
                    if applyingMigrations { throw problem }
                } else {
                    // An app's own objects are allowed beside gridstore's in its database, or in a
                    // gridstore file whose ledger records the app's migrations.
                    let shared = embedded || recordsAppMigrations
                    try SQLiteSchemaCheck.verify(connection, applied: ledger.applied.compactMap { migrations.migration(version: $0.version) },
                                                 sharedWithApp: shared)
                }
                status = ledger
            }
        }
        let applied = try Self.withTimeLimit(connection) {
            applyingMigrations ? try runner.migrate(connection, knownStatus: status) : []
        }
        return (connection, applied)
    }

    /// Writes the database in memory, whose first change just committed, to its file: copied
    /// whole into a new file under a temporary name beside ``path`` (its folder made when
    /// missing), made durable, linked into place; the database then goes on with the file.
    /// Called in a turn of ``main``.
    ///
    /// - Throws: ``DatabaseFileError/cannotCreate(path:reason:)`` when another process made a
    ///   file at the path meanwhile: the change was not made there (the database goes on with
    ///   that file, so the change can be tried again). Any other failure before the file is in
    ///   place leaves the change unmade too, and the database closed. Once the file is in place
    ///   the change is made: a failure to open it again closes the database without throwing.
    private func writeFileOfFirstChange() throws {
        guard isInMemory else { return }
        // No limit: the change has committed in memory, and the reads ahead (of a database in
        // memory, which take the second connection's turn only to learn that) end at once.
        try reader.run(for: nil, waitLimitMilliseconds: Int(Int32.max), location: path) { _ in
            isInMemory = false
            let memory = connection
            defer { memory.close() }
            let linked: Bool
            do {
                linked = try Self.writeFile(of: memory, at: path, migrations: migrations)
            } catch {
                isClosed.store(true, ordering: .releasing)
                throw error
            }
            do {
                let runner = MigrationRunner(migrations: migrations, applicationID: Self.applicationID)
                (connection, _) = try Self.openChecked(at: path, runner: runner, applyingMigrations: true, embedded: false,
                                                       migrations: migrations)
            } catch {
                isClosed.store(true, ordering: .releasing)
                if linked { return }
                throw error
            }
            identity = FileIdentity.of(path)
            let scheduler = identity.map(FileSchedulers.scheduler(for:))
            fileWriters.withLock { $0 = scheduler }
            guard linked else {
                throw DatabaseFileError.cannotCreate(path: path, reason: "another process created it while this change was being made, "
                                                     + "so the change was not made; try it again")
            }
        }
    }

    /// Copies the database of `memory` into a new file at `path`, as ``createDatabase(at:runner:)``
    /// makes one: built under a temporary name in the folder (made when missing), in WAL mode,
    /// its replica row naming the file, durable, then linked into place.
    ///
    /// - Returns: Whether it is in place; `false` when another process made a file at `path` first.
    private static func writeFile(of memory: SQLiteConnection, at path: String, migrations: MigrationSet) throws -> Bool {
        try makeFile(at: path) { temporaryPath in
            try memory.execute("VACUUM INTO ?", [SQLiteConnection.fileName(temporaryPath)])
            let file = try SQLiteConnection(path: temporaryPath, mode: .readWrite)
            defer { file.close() }
            file.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            try file.enableDefensiveMode()
            try configure(file)
            // The replica id a migration minted belongs to this file, which keeps its inode and
            // birth time when linked into place (see init).
            if migrations.migrations.contains(where: { $0.sql.contains("CREATE TABLE replica") }) {
                try file.execute("UPDATE replica SET file_identity = ? WHERE file_identity = ''", [FileIdentity.replicaText(of: temporaryPath)])
            }
            // Everything in the file on its own, written through to the disk.
            guard file.checkpointWholeLog() else {
                throw DatabaseFileError.cannotCreate(path: path, reason: "its new file could not be written whole")
            }
        }
    }

    /// Leaves the database file complete on its own after the writes of this connection (a
    /// copy of the file without its `-wal` has them) and the log empty, as far as no reader
    /// still needs it; the connection then closes without SQLite's closing checkpoint, which
    /// takes the database-file lock and so locks readers out.
    deinit {
        close()
    }

    /// Whether calls are refused: ``close()`` began, or the first change's file could not be made.
    private let isClosed = Atomic(false)
    /// Whether ``close()`` ran.
    private let closeBegan = Atomic(false)

    /// Refuses a call after ``close()``: its connections are gone.
    private func checkOpen() throws(GridError) {
        if isClosed.load(ordering: .acquiring) {
            throw .storage(GridStorageFailure(kind: .closed, message: "the database \(path) was closed; open it again"))
        }
    }

    /// Refuses later calls, then, in a turn of each connection (after the calls that asked
    /// before), checkpoints as the release does and closes it, and gives up the file's place
    /// among this process's writers.
    package func close() {
        guard !closeBegan.exchange(true, ordering: .acquiringAndReleasing) else { return }
        refuseNewCalls()
        main.runClosing(location: path) {
            if hasWritten.load(ordering: .relaxed) && !isInMemory { connection.checkpointAndEmptyLog() }
            connection.close()
        }
        reader.runClosing(location: path) {
            // A reader leaves the folder as it found it: the log files it made go with the last connection.
            if removesLogOnClose { try? readerConnection?.checkpointOnClose() }
            readerConnection?.close()
        }
        if let fileWriters = fileWriters.withLock({ $0 }) { FileSchedulers.release(fileWriters) }
    }

    package func refuseNewCalls() {
        isClosed.store(true, ordering: .releasing)
    }

    /// Runs `body` with a connection in a read transaction: it sees one consistent state of
    /// the database, and cannot write (`query_only`).
    ///
    /// It uses the main connection when it is free, else the second connection, so it never
    /// waits for a change that waits for another process.
    ///
    /// - Throws: ``GridError/reentrantCall`` inside another call's closure on this database;
    ///   ``QueueWaitTimeout`` when the reads ahead of it on the second connection kept it waiting
    ///   past the operation's time limit.
    package func readConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        if let result = try main.runIfFree(for: self, { () throws -> T in
            try checkOpen()
            return try readTransaction(on: connection, isMain: true, body)
        }) {
            return result
        }
        let limit = Self.operationTimeLimitMilliseconds
        // A database in memory has no second connection: its reads wait for the main one.
        if try reader.run(for: self, waitLimitMilliseconds: limit, location: path, { _ in isInMemory }) {
            return try main.run(for: self, waitLimitMilliseconds: limit, location: path) { _ in
                try checkOpen()
                return try readTransaction(on: connection, isMain: true, body)
            }
        }
        return try reader.run(for: self, waitLimitMilliseconds: limit, location: path) { _ in
            try checkOpen()
            return try readTransaction(on: try openReader(), isMain: false, body)
        }
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`): all of its changes are
    /// committed together, or none when it throws.
    ///
    /// This process's writers of the file take turns in arrival order before they ask SQLite.
    ///
    /// - Throws: What `body` throws; ``DatabaseFileError/readOnly(path:)`` when the file
    ///   cannot be written; ``SQLiteError`` when the write lock stays busy past the timeout;
    ///   ``GridError/reentrantCall`` inside another call's closure on this database.
    package func writeConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try withMainConnectionToWrite { connection in
            do {
                let result = try connection.transaction(.immediate) { try body(connection) }
                hasWritten.store(true, ordering: .relaxed)
                try writeFileOfFirstChange()
                return result
            } catch let error as SQLiteError where error.isReadOnly {
                throw DatabaseFileError.readOnly(path: path)
            }
        }
    }

    /// Runs `body` with the main connection, to write: in this process's turn among the file's
    /// writers, then the main connection's, with the rest of the busy timeout (which counts from
    /// the call) for SQLite's lock, within the operation's time limit, once the file is known to
    /// be the one opened and writable.
    ///
    /// - Throws: What `body` throws; ``GridError/reentrantCall`` inside a call on this database,
    ///   or a write through another database of the file; ``QueueWaitTimeout`` when a turn did
    ///   not come within the busy timeout; ``DatabaseFileError/readOnly(path:)`` when the file
    ///   cannot be written.
    private func withMainConnectionToWrite<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        func write(busyMilliseconds: Int) throws -> T {
            try checkOpen()
            connection.setBusyTimeout(milliseconds: Int32(clamping: busyMilliseconds))
            return try Self.withTimeLimit(connection) {
                try checkFile(onMainConnection: true)
                if connection.isReadOnly { throw DatabaseFileError.readOnly(path: path) }
                return try body(connection)
            }
        }
        let limit = Int(Self.busyTimeoutMilliseconds)
        guard let file = fileWriters.withLock({ $0 }) else {
            return try main.run(for: self, waitLimitMilliseconds: limit, location: path) { try write(busyMilliseconds: $0) }
        }
        return try file.run(for: self, waitLimitMilliseconds: limit, location: path) { remaining in
            // Held for this database already: the main connection's turn is its own, behind at
            // most a read of this database on it (each within the operation's time limit).
            let asked = Platform.monotonicMilliseconds()
            return try main.run(for: nil, waitLimitMilliseconds: Self.operationTimeLimitMilliseconds, location: path) { _ in
                try write(busyMilliseconds: max(1, remaining - (Platform.monotonicMilliseconds() - asked)))
            }
        }
    }

    /// Moves the whole write-ahead log into the file (see ``GridDatabase/checkpoint()``).
    package func checkpoint() throws -> Bool {
        try withConnection { connection in
            // A change may have left less of the busy timeout on the connection (its turn's rest).
            connection.setBusyTimeout(milliseconds: Self.busyTimeoutMilliseconds)
            return connection.checkpointWholeLog()
        }
    }

    /// Runs `body` with the main connection outside any transaction.
    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try main.run(for: self, waitLimitMilliseconds: Int(Self.busyTimeoutMilliseconds), location: path) { _ in
            try checkOpen()
            return try Self.withTimeLimit(connection) { try body(connection) }
        }
    }

    /// A read transaction on `connection` (the main one when `isMain`), which may not write.
    private func readTransaction<T>(on connection: SQLiteConnection, isMain: Bool, _ body: (SQLiteConnection) throws -> T) throws -> T {
        try Self.withTimeLimit(connection) {
            try checkFile(onMainConnection: isMain)
            try connection.executeCached("PRAGMA query_only = 1")
            defer { try? connection.executeCached("PRAGMA query_only = 0") }
            return try connection.transaction(.deferred) { try body(connection) }
        }
    }

    /// The second connection, opened on first use (in a turn of ``reader``).
    private func openReader() throws -> SQLiteConnection {
        if let readerConnection { return readerConnection }
        let opened = try Self.openExisting(at: path, changingFile: false, verifyingOwnership: ownership == .gridStoreFile) { _ in }
        readerConnection = opened
        return opened
    }

    /// Refuses a path that cannot name a database file before anything touches the disk.
    static func validate(path: String) throws(DatabaseFileError) {
        if path.isEmpty { throw .invalidPath(path, reason: "it is empty") }
        if path.utf8.contains(0) {
            throw .invalidPath(path.replacing("\0", with: "\\0"), reason: "it contains a NUL character, which no file name can")
        }
        if path == ":memory:" {
            throw .invalidPath(path, reason: "gridstore keeps its databases in files, and this would be a file of that name; "
                               + "for a grid kept in memory use InMemoryGridSizeRepository")
        }
    }

    /// Refuses to go on when the file at the path is no longer the one opened: deleted,
    /// or replaced (by a rename, or a new file), while this database was open.
    ///
    /// The write-ahead log at `<path>-wal` is still this connection's: on the main connection
    /// (`onMainConnection`, in its turn), it is moved into the old file and emptied at
    /// once, so a process that opens the new file does not read the old file's changes as its own.
    private func checkFile(onMainConnection: Bool) throws {
        guard let identity, FileIdentity.of(path) != identity else { return }
        if onMainConnection { connection.checkpointAndEmptyLog() }
        throw DatabaseFileError.replaced(path: path)
    }

    /// Runs `body` within ``operationTimeLimitMilliseconds``.
    private static func withTimeLimit<T>(_ connection: SQLiteConnection, _ body: () throws -> T) throws -> T {
        do {
            return try connection.withTimeLimit(milliseconds: operationTimeLimitMilliseconds, body)
        } catch let error as SQLiteError where error.isInterrupted {
            throw DatabaseFileError.timeLimitExceeded(path: connection.path, seconds: operationTimeLimitMilliseconds / 1_000)
        }
    }

    package func migrationStatus() throws -> MigrationStatus {
        try withConnection { connection in
            try MigrationRunner(migrations: migrations).status(of: connection)
        }
    }

    /// Applies an app's migrations, recorded under their own namespace, on the main connection,
    /// as this process's writers of the file take turns (see ``GridDatabase/migrate(_:)``).
    package func migrate(_ runner: MigrationRunner) throws -> [Migration] {
        try withMainConnectionToWrite { connection in
            let applied = try runner.migrate(connection)
            if !applied.isEmpty {
                hasWritten.store(true, ordering: .relaxed)
                try writeFileOfFirstChange()
            }
            return applied
        }
    }

    /// Where the database stands against an app's migrations, read without writing.
    package func migrationStatus(of runner: MigrationRunner) throws -> MigrationStatus {
        try withConnection { try runner.status(of: $0) }
    }

    package func read<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T {
        try readConnection { try body(SQLiteGridTransaction($0, path: path)) }
    }

    package func write<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T {
        try writeConnection { connection in
            let transaction = SQLiteGridTransaction(connection, path: path)
            let result = try body(transaction)
            // The file takes the mark of a send the transaction records as it commits.
            try transaction.markSend()
            return result
        }
    }

    /// The same file, by any path or link: the same device and inode.
    package func isSameDatabase(as other: any GridStorageBackend) throws -> Bool {
        try checkOpen()
        guard let other = other as? SQLiteStorage else { return false }
        if let identity = FileIdentity.of(path) { return FileIdentity.of(other.path) == identity }
        // A file its first change makes is not there yet: two such at one place are one database.
        guard FileIdentity.of(other.path) == nil, let here = FileSystem.resolvedPath(path) else { return false }
        return FileSystem.resolvedPath(other.path) == here
    }

    // MARK: Opening

    /// Opens an existing file, checks that it is a gridstore database (and passes `check`,
    /// which only reads), then configures the connection, switching the file to WAL mode
    /// only when `changingFile`.
    static func openExisting(at path: String, changingFile: Bool, verifyingOwnership: Bool = true,
                                     check: (SQLiteConnection) throws -> Void) throws -> SQLiteConnection {
        switch FileSystem.entry(at: path) {
        case .directory: throw DatabaseFileError.isDirectory(path: path)
        case .file(size: 0): throw DatabaseFileError.emptyFile(path: path)
        case .missing: throw DatabaseFileError.cannotOpen(path: path, reason: "no such file")
        case .other(let what): throw DatabaseFileError.cannotOpen(path: path, reason: "it is \(what)")
        case .file: break
        }
        // SQLite would follow a symbolic link there, or fail with a message that names neither file.
        for (suffix, name) in [("-wal", "write-ahead log"), ("-shm", "shared-memory file"), ("-journal", "rollback journal")] {
            if let what = FileSystem.nonRegularEntry(at: path + suffix) {
                throw DatabaseFileError.cannotOpen(path: path, reason: "its \(name) \(path + suffix) is \(what), where gridstore "
                                                    + "keeps a regular file; remove it")
            }
        }
        // Reading a file whose rollback journal is hot replays the journal into it: refused first.
        if hasHotJournal(path) { throw DatabaseFileError.hotJournal(path: path) }
        // What was beside the file before SQLite looked: a refused file is left as it was.
        let hadLog = FileSystem.entry(at: path + "-wal") != .missing || FileSystem.entry(at: path + "-shm") != .missing
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: path, mode: .readWrite)
        } catch {
            // The system's reason (`Permission denied`) says more than SQLite's `unable to open database file`.
            let code = error.systemErrorCode
            throw DatabaseFileError.cannotOpen(path: path, reason: FileSystem.openFilesReason(code)
                                                ?? (code != 0 ? String(cString: strerror(code)) : error.message))
        }
        connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        do {
            try connection.enableDefensiveMode()
            // Closing never moves the write-ahead log into the file: a refused file's log stays
            // beside it as it was, with whatever it holds.
            try connection.skipCheckpointOnClose()
            do {
                if verifyingOwnership {
                    try verifyOwnership(of: connection)
                } else {
                    try verifyIsDatabase(connection)
                }
                try check(connection)
            } catch {
                // The empty -wal and the -shm that reading made go again when the connection
                // closes, as SQLite removes them after its last connection (when no other has the file open).
                if !hadLog { try? connection.checkpointOnClose() }
                throw error
            }
            try configure(connection, changingFile: changingFile)
        } catch let error as SQLiteError where error.isReadOnly || error.resultCode == SQLITE_CANTOPEN {
            if let reason = FileSystem.openFilesReason(error.systemErrorCode) { throw DatabaseFileError.cannotOpen(path: path, reason: reason) }
            // Reading a WAL database needs its -wal and -shm files, which SQLite creates beside it.
            throw DatabaseFileError.cannotOpen(
                path: path, reason: "its write-ahead log files (\(path)-wal and \(path)-shm) cannot be created or opened; "
                    + "make its folder writable, or the -wal and -shm files if they exist")
        }
        return connection
    }

    /// Whether a rollback journal beside `path` is one SQLite would act on when reading the
    /// file: it is not empty and its first byte is not zero (a journal SQLite finished with is
    /// deleted, truncated, or has its header zeroed), and no other process is writing the file
    /// now (holding its reserved lock, whose journal is its own, not an interrupted one).
    private static func hasHotJournal(_ path: String) -> Bool {
        guard let first = FileSystem.leadingBytes(of: path + "-journal", count: 1)?.first, first != 0 else { return false }
        // SQLite's reserved lock is the byte after its pending byte, at 1 GiB.
        return !FileSystem.isLockedByAnotherProcess(path, at: 0x4000_0001)
    }

    /// Refuses a file that is not an SQLite database.
    private static func verifyIsDatabase(_ connection: SQLiteConnection) throws {
        do {
            _ = try connection.fetchOne("SELECT count(*) FROM sqlite_schema") { $0.int(at: 0) }
        } catch let error as SQLiteError where error.isNotADatabase {
            throw DatabaseFileError.notADatabase(path: connection.path)
        }
    }

    /// Refuses a file that is not an SQLite database or belongs to another application.
    private static func verifyOwnership(of connection: SQLiteConnection) throws {
        let applicationID: Int
        do {
            applicationID = try connection.fetchOne("PRAGMA application_id") { $0.int(at: 0) } ?? 0
        } catch let error as SQLiteError where error.isNotADatabase {
            throw DatabaseFileError.notADatabase(path: connection.path)
        }
        if applicationID == Int(Self.applicationID) { return }
        // A database that is not stamped is either another application's or an empty one;
        // gridstore stamps its files before they get their name, so neither is gridstore's.
        let tableCount = try connection.fetchOne("SELECT count(*) FROM sqlite_schema") { $0.int(at: 0) } ?? 0
        if applicationID == 0 && tableCount == 0 {
            throw DatabaseFileError.emptyFile(path: connection.path)
        }
        throw DatabaseFileError.foreignDatabase(path: connection.path, applicationID: Int32(truncatingIfNeeded: applicationID))
    }

    /// Applies the connection settings described on ``GridDatabase``; without `changingFile`
    /// only those that write nothing to the file.
    private static func configure(_ connection: SQLiteConnection, changingFile: Bool = true) throws {
        let journalMode = try connection.fetchOne("PRAGMA journal_mode") { $0.string(at: 0) }
        if journalMode != "wal" && !connection.isReadOnly && changingFile {
            try connection.execute("PRAGMA journal_mode = WAL")
        }
        try connection.execute("PRAGMA synchronous = FULL")
        try connection.execute("PRAGMA foreign_keys = ON")
        // Checkpointing empties the log to at most 4 MiB.
        try connection.execute("PRAGMA journal_size_limit = 4194304")
        // Kept only for a file gridstore may change: a reader leaves the folder as it found it.
        if changingFile { try connection.persistWriteAheadLog() }
        try connection.skipCheckpointOnClose()
    }

    /// Builds a migrated database under a temporary name beside `path`, then links it into place.
    ///
    /// If another process creates `path` first, its database is kept and this one discarded.
    /// - Returns: The migrations applied to the new file, or none when another process won.
    private static func createDatabase(at path: String, runner: MigrationRunner) throws -> [Migration] {
        var applied: [Migration] = []
        let linked = try makeFile(at: path) { temporaryPath in
            let connection = try SQLiteConnection(path: temporaryPath, mode: .readWrite)
            connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            try connection.enableDefensiveMode()
            try connection.execute("PRAGMA page_size = \(pageSize)")
            try configure(connection)
            applied = try runner.migrate(connection)
            // Move everything from the write-ahead log into the file, which is then complete on its own.
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        return linked ? applied : []
    }

    /// Makes the file at `path` as `fill` writes it into a new, empty file of mode 0600 under a
    /// temporary name in the same folder (made when missing), linked into place once it is
    /// written: no file at `path` is ever partly written, and none is replaced.
    ///
    /// - Returns: Whether the file is in place; `false` when another process made one at `path` first.
    private static func makeFile(at path: String, _ fill: (_ temporaryPath: String) throws -> Void) throws -> Bool {
        if let problem = FileSystem.companionNameProblem(path) { throw DatabaseFileError.cannotCreate(path: path, reason: problem) }
        let folder = FileSystem.parentDirectory(of: path)
        try FileSystem.createDirectories(folder)
        // A short name beside the final one, so that a long but legal file name cannot make it
        // too long; one that a killed process left (a half-built file, or a second name of a
        // finished one) is removed here.
        FileSystem.removeStaleFiles(in: folder, prefix: temporaryPrefix)
        let temporaryPath = "\(folder)/\(temporaryPrefix)\(FileSystem.processID)-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try FileSystem.createExclusively(temporaryPath, mode: 0o600)
        } catch {
            throw DatabaseFileError.cannotCreate(path: path, reason: FileSystem.lastErrorMessage())
        }
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { FileSystem.removeFile(temporaryPath + suffix) }
        }
        do {
            try fill(temporaryPath)
        } catch let error as SQLiteError {
            guard let reason = FileSystem.openFilesReason(error.systemErrorCode) else { throw error }
            throw DatabaseFileError.cannotCreate(path: path, reason: reason)
        }
        // On the disk before it has its name: a power loss never leaves a name on a partial file.
        guard FileSystem.syncFile(temporaryPath) else {
            throw DatabaseFileError.cannotCreate(path: path, reason: FileSystem.lastErrorMessage())
        }
        guard try FileSystem.linkExclusively(temporaryPath, to: path) else { return false }
        FileSystem.syncDirectory(folder)
        return true
    }
}
