import CSQLite
import GridStore

/// The one place where SQLite result codes become Swift errors.
///
/// Every `sqlite3_*` call whose result code matters goes through ``check(_:_:sql:)``.
enum SQLiteCall {
    /// Throws a ``SQLiteError`` unless `code` is one of the success codes.
    @inline(__always)
    static func check(_ code: Int32, _ db: OpaquePointer?, sql: String? = nil) throws(SQLiteError) {
        switch code {
        case SQLITE_OK, SQLITE_ROW, SQLITE_DONE:
            return
        default:
            throw error(code, db, sql: sql)
        }
    }

    /// The error for a failed call, with SQLite's message for the connection.
    static func error(_ code: Int32, _ db: OpaquePointer?, sql: String? = nil) -> SQLiteError {
        let message: String
        if let db, let text = sqlite3_errmsg(db) {
            message = String(cString: text)
        } else {
            message = String(cString: sqlite3_errstr(code))
        }
        return SQLiteError(extendedResultCode: code, message: message, sql: sql, systemErrorCode: db.map { sqlite3_system_errno($0) } ?? 0)
    }
}
