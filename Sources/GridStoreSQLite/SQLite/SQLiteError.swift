import CSQLite
import GridStore

/// An error reported by SQLite.
///
/// It carries SQLite's result code, SQLite's own message and the SQL that was
/// running, and prints as one line:
///
/// ```
/// SQLite error 19 (constraint failed): CHECK constraint failed: size IN (...) — in `INSERT INTO ...`
/// ```
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code, for example `SQLITE_CONSTRAINT_CHECK` (275).
    public let extendedResultCode: Int32

    /// SQLite's message for the failure.
    public let message: String

    /// The SQL that was running when the failure happened, if any.
    public let sql: String?

    /// The operating system's error number behind the failure (`errno`, such as `EMFILE`), or 0.
    public let systemErrorCode: Int32

    /// Creates an error from a result code, a message, the SQL that failed and the system's error number.
    public init(extendedResultCode: Int32, message: String, sql: String? = nil, systemErrorCode: Int32 = 0) {
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
        self.systemErrorCode = systemErrorCode
    }

    /// The primary result code, for example `SQLITE_CONSTRAINT` (19).
    public var resultCode: Int32 { extendedResultCode & 0xFF }

    /// Whether the database stayed locked by another connection for longer than the busy timeout.
    public var isBusy: Bool { resultCode == SQLITE_BUSY || resultCode == SQLITE_LOCKED }

    /// Whether the file is not an SQLite database at all.
    public var isNotADatabase: Bool { resultCode == SQLITE_NOTADB }

    /// Whether a write was refused because the file or its folder is read-only.
    public var isReadOnly: Bool { resultCode == SQLITE_READONLY }

    /// Whether a statement was stopped because it ran past its time limit (`SQLITE_INTERRUPT`).
    public var isInterrupted: Bool { resultCode == SQLITE_INTERRUPT }

    /// Whether a write found no room (`SQLITE_FULL`): the disk, or a table's ids, are used up.
    public var isFull: Bool { resultCode == SQLITE_FULL }

    /// Whether a constraint (`CHECK`, `UNIQUE`, `FOREIGN KEY`, ...) refused a write.
    public var isConstraintViolation: Bool { resultCode == SQLITE_CONSTRAINT }

    public var description: String {
        let name = String(cString: sqlite3_errstr(extendedResultCode))
        var line = "SQLite error \(resultCode) (\(name)): \(message)"
        // SQLite's own message says a full disk (`SQLITE_FULL`); an I/O error says nothing of why.
        if !isFull, let reason = FileSystem.writeFailureReason(systemErrorCode, isIOError: resultCode == SQLITE_IOERR) {
            line += ": \(reason)"
        }
        if let sql {
            line += " — in `\(Self.singleLine(sql))`"
        }
        return line
    }

    /// Collapses white space so a multi-line statement prints on one line, shortened if long.
    static func singleLine(_ sql: String, limit: Int = 200) -> String {
        let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
        let joined = words.joined(separator: " ")
        guard joined.count > limit else { return joined }
        return String(joined.prefix(limit)) + "…"
    }
}

extension SQLiteError: StorageFailureDescribing {
    package var storageFailureKind: GridStorageFailure.Kind { isBusy ? .busy : .database }
}
