import CSQLite
import GridStore

/// An open connection to an SQLite database file.
///
/// A connection is used from one thread at a time; wrap it in a lock to share
/// it (``GridDatabase`` does). It closes when the last reference goes away.
///
/// ```swift
/// let connection = try SQLiteConnection(path: "/tmp/example.sqlite")
/// try connection.transaction(.immediate) {
///     try connection.execute("INSERT INTO notes(text) VALUES (?)", ["hello"])
/// }
/// ```
package final class SQLiteConnection {
    /// How a connection opens its file.
    package enum OpenMode: Sendable {
        /// Read and write an existing file; fail if it is missing.
        case readWrite
        /// Read and write, creating the file if it is missing.
        case readWriteCreate
        /// Read only.
        case readOnly
    }

    let handle: OpaquePointer
    /// The statements kept for reuse, by their text and its length in bytes: a list, not a
    /// dictionary, whose first use in a process makes the Swift runtime search the binary's
    /// conformance records for `String: Hashable` (about 150,000 instructions, at every start of
    /// the command line). A connection keeps at most the 80 or so fixed texts gridstore runs;
    /// a lookup compares lengths, and texts only where they are equal, which costs less than
    /// hashing a text.
    private var statementCache: [(length: Int, sql: String, statement: SQLiteStatement)] = []

    /// The most statements a connection keeps: more means a text built with varying content
    /// (numbers, lists) reached the cache, which would then grow without bound.
    static let maximumCachedStatements = 256
    private let clock = SQLiteOperationClock()

    /// The path the connection was opened with.
    package let path: String

    /// Opens the database at `path` (`":memory:"` for a private in-memory database). A path
    /// that starts with `file:` is a file of that name, not an SQLite URI.
    ///
    /// - Throws: ``SQLiteError`` when SQLite cannot open the file.
    /// `path` as SQLite is given it: a file name, never an SQLite URI, even where SQLite is
    /// built to read `file:` names as URIs (`file:x?immutable=1` names the file of exactly that name).
    package static func fileName(_ path: String) -> String {
        path.hasPrefix("file:") ? "./" + path : path
    }

    package init(path: String, mode: OpenMode = .readWriteCreate) throws(SQLiteError) {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(Self.fileName(path), &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteCall.error(code, handle)
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        self.path = path
    }

    deinit {
        close()
    }

    /// Whether ``close()`` has not run.
    private var isOpen = true

    /// Finalizes the cached statements and closes the connection; nothing may use it afterwards.
    package func close() {
        guard isOpen else { return }
        isOpen = false
        statementCache.removeAll()
        // With every statement finalized, closing cannot fail for a reason left to handle here.
        _ = sqlite3_close_v2(handle)
    }

    // MARK: Settings

    /// Turns on SQLite's defences for database files from elsewhere: defensive mode (no
    /// writes to the schema table, no shadow-table tricks), an untrusted schema (SQL in the
    /// file's defaults and indexes may only call harmless functions), and neither triggers nor
    /// views: no trigger in the file fires on this connection's statements, and none of them
    /// reads through a view (creating either still works, for migrations).
    package func enableDefensiveMode() throws(SQLiteError) {
        try SQLiteCall.check(csqlite_db_config_flag(handle, SQLITE_DBCONFIG_DEFENSIVE, 1), handle)
        try SQLiteCall.check(csqlite_db_config_flag(handle, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0), handle)
        try SQLiteCall.check(csqlite_db_config_flag(handle, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0), handle)
        try SQLiteCall.check(csqlite_db_config_flag(handle, SQLITE_DBCONFIG_ENABLE_VIEW, 0), handle)
    }

    /// Runs `body`, stopping any statement still running `milliseconds` after it began
    /// with an ``SQLiteError`` whose ``SQLiteError/isInterrupted`` is `true`.
    ///
    /// No file can then hang a caller, whatever SQL it holds.
    package func withTimeLimit<T>(milliseconds: Int, _ body: () throws -> T) rethrows -> T {
        if clock.deadline == .max {
            // Checked every few thousand virtual-machine instructions, not per statement.
            sqlite3_progress_handler(handle, 4_096, { context in
                Unmanaged<SQLiteOperationClock>.fromOpaque(context!).takeUnretainedValue().isPastDeadline ? 1 : 0
            }, Unmanaged.passUnretained(clock).toOpaque())
        }
        let outer = clock.deadline
        clock.deadline = min(outer, SQLiteOperationClock.now() + milliseconds)
        defer { clock.deadline = outer }
        return try body()
    }

    /// Sets how long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    package func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Keeps the write-ahead log and shared-memory files when the last connection closes
    /// (after checkpointing and emptying the log), instead of deleting them.
    ///
    /// A process that opens the database for one change then does not create and delete
    /// the two files each time, and readers can open the database in a folder they cannot
    /// write to.
    package func persistWriteAheadLog() throws(SQLiteError) {
        var on: Int32 = 1
        try SQLiteCall.check(sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &on), handle)
    }

    /// Leaves checkpoints to commits when the connection closes: closing then takes no exclusive
    /// lock, so a reader that opens the database at that moment (a plain `sqlite3` without a
    /// busy timeout) never sees "database is locked".
    ///
    /// The log is still moved into the file by passive checkpoints, which never block readers
    /// (see ``checkpointPassively()``).
    package func skipCheckpointOnClose() throws(SQLiteError) {
        try SQLiteCall.check(csqlite_db_config_flag(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1), handle)
    }

    /// Undoes ``skipCheckpointOnClose()``: closing the last connection to the file checkpoints
    /// the log and, unless it is kept (``persistWriteAheadLog()``), removes the `-wal` and `-shm` files.
    package func checkpointOnClose() throws(SQLiteError) {
        try SQLiteCall.check(csqlite_db_config_flag(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0), handle)
    }

    /// Copies committed changes from the write-ahead log into the database file as far as no
    /// reader still needs the log, without waiting for or blocking anyone (`PASSIVE`).
    package func checkpointPassively() {
        _ = sqlite3_wal_checkpoint_v2(handle, "main", SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }

    /// Copies committed changes from the write-ahead log into the database file and, when no
    /// reader still uses the log, empties it (`TRUNCATE`), so the next process to open the
    /// database has no log to scan. Waits for nobody: with a reader on the log it stops after
    /// the copy, and it never takes the database-file lock a closing checkpoint takes.
    package func checkpointAndEmptyLog() {
        // A closed connection's handle is freed: closing a database whose first change could not
        // make its file finds its connection closed already.
        guard isOpen else { return }
        sqlite3_busy_timeout(handle, 0)
        _ = sqlite3_wal_checkpoint_v2(handle, "main", SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
    }

    /// Moves the whole write-ahead log into the database file and empties it, waiting for
    /// other connections' locks as the busy timeout allows.
    ///
    /// - Returns: `false` when another connection kept part of the log (a reader of an older
    ///   state, or a writer) past the busy timeout.
    package func checkpointWholeLog() -> Bool {
        sqlite3_wal_checkpoint_v2(handle, "main", SQLITE_CHECKPOINT_TRUNCATE, nil, nil) == SQLITE_OK
    }

    /// Whether the connection can only read, because of its open mode or the file's permissions.
    package var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Whether no transaction is open.
    package var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// The number of rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    package var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The row id of the last successful `INSERT`.
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    // MARK: Statements

    /// Compiles one SQL statement.
    ///
    /// - Throws: ``SQLiteError`` when the SQL does not compile.
    package func prepare(_ sql: String) throws -> SQLiteStatement {
        try prepare(sql, flags: 0)
    }

    private func prepare(_ sql: String, flags: UInt32) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw code == SQLITE_OK
                ? SQLiteError(extendedResultCode: SQLITE_MISUSE, message: "no SQL statement", sql: sql)
                : SQLiteCall.error(code, handle, sql: sql)
        }
        return SQLiteStatement(handle: statement, sql: sql)
    }

    /// A compiled statement for `sql`, kept for reuse by this connection.
    ///
    /// Use it for statements that run often; the statement is reset before it is returned.
    ///
    /// - Complexity: O(*s*) comparisons of lengths for the *s* statements kept, which are the
    ///   fixed texts gridstore runs, and of the texts of equal length.
    package func cachedStatement(_ sql: String) throws -> SQLiteStatement {
        let length = sql.utf8.count
        for cached in statementCache where cached.length == length && cached.sql == sql {
            cached.statement.reset()
            return cached.statement
        }
        assert(statementCache.count < Self.maximumCachedStatements, "a statement built with varying text reached the cache: \(sql)")
        // Kept for the connection's life: SQLite then allocates it outside its lookaside memory.
        let statement = try prepare(sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
        statementCache.append((length, sql, statement))
        return statement
    }

    /// Runs one statement with `arguments`, ignoring any rows it returns; the statement is
    /// compiled for this call only.
    package func execute(_ sql: String, _ arguments: [any SQLiteValueConvertible] = []) throws {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Runs one statement with `arguments` as ``execute(_:_:)`` does, with a statement kept
    /// for reuse (see ``cachedStatement(_:)``): for statements that run often.
    package func executeCached(_ sql: String, _ arguments: [any SQLiteValueConvertible] = []) throws {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        while try statement.step() {}
    }

    /// Runs every statement in `script`, in order, without arguments.
    ///
    /// - Throws: ``SQLiteError`` naming the statement that failed; earlier statements stay applied
    ///   unless the caller's transaction rolls back.
    package func executeScript(_ script: String) throws {
        try script.withCString { start in
            var cursor: UnsafePointer<CChar>? = start
            while let current = cursor, current.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, current, -1, &statement, &tail)
                guard code == SQLITE_OK else {
                    let failed = Self.leadingStatement(of: String(cString: current))
                    throw SQLiteCall.error(code, handle, sql: failed)
                }
                cursor = tail
                guard let statement else { continue }  // white space or a comment
                defer { sqlite3_finalize(statement) }
                var stepCode = sqlite3_step(statement)
                while stepCode == SQLITE_ROW { stepCode = sqlite3_step(statement) }
                guard stepCode == SQLITE_DONE else {
                    throw SQLiteCall.error(sqlite3_extended_errcode(handle), handle,
                                           sql: String(cString: sqlite3_sql(statement)))
                }
            }
        }
    }

    /// Runs a query and returns the first row read by `read`, or `nil` when there is none.
    package func fetchOne<T>(_ sql: String, _ arguments: [any SQLiteValueConvertible] = [],
                            _ read: (SQLiteStatement) throws -> T) throws -> T? {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        return try statement.step() ? read(statement) : nil
    }

    /// Runs a query and returns every row read by `read`.
    package func fetchAll<T>(_ sql: String, _ arguments: [any SQLiteValueConvertible] = [],
                            _ read: (SQLiteStatement) throws -> T) throws -> [T] {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        var rows: [T] = []
        while try statement.step() { rows.append(try read(statement)) }
        return rows
    }

    /// Runs a query and calls `body` with the statement at each row, to read it in place.
    package func forEachRow(_ sql: String, _ arguments: [any SQLiteValueConvertible] = [],
                            _ body: (SQLiteStatement) throws -> Void) throws {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        while try statement.step() { try body(statement) }
    }

    /// The first statement of a script, for error messages.
    private static func leadingStatement(of script: String) -> String {
        let trimmed = script.drop(while: { $0.isWhitespace })
        if let end = trimmed.firstIndex(of: ";") { return String(trimmed[...end]) }
        return String(trimmed)
    }
}
