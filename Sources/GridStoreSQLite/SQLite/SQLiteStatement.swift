import CSQLite
import GridStore

/// A prepared SQL statement: bind parameters, step through rows, read columns.
///
/// A statement is finalized when the last reference to it goes away. Use it
/// from one thread at a time, like the connection that prepared it.
///
/// ```swift
/// let statement = try connection.prepare("SELECT name FROM grids WHERE revision > ?")
/// try statement.bind([5])
/// while try statement.step() {
///     print(statement.string(at: 0))
/// }
/// ```
package final class SQLiteStatement {
    let handle: OpaquePointer

    /// The SQL text the statement was prepared from.
    package let sql: String

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit {
        // Finalizing returns the last step's error, which step() already reported.
        _ = sqlite3_finalize(handle)
    }

    // MARK: Binding

    /// Resets the statement and binds `arguments` to its parameters, in order.
    ///
    /// - Throws: ``SQLiteError`` when the count does not match the statement's parameters.
    package func bind(_ arguments: [any SQLiteValueConvertible]) throws {
        reset()
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.count == expected else {
            throw SQLiteError(
                extendedResultCode: SQLITE_RANGE,
                message: "expected \(expected) argument(s), got \(arguments.count)",
                sql: sql)
        }
        for (offset, argument) in arguments.enumerated() {
            try bind(argument.sqliteValue, at: Int32(offset + 1))
        }
    }

    /// Binds `value` to the parameter at a 1-based `index`.
    package func bind(_ value: SQLiteValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, index, real)
        case .text(var text):
            // An explicit byte count keeps text with embedded NUL characters whole.
            code = text.withUTF8 { bindTextCode(UnsafeRawBufferPointer($0), at: index) }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { buffer in
                sqlite3_bind_blob64(handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                    sqlite3_uint64(buffer.count), csqlite_transient())
            }
        }
        try SQLiteCall.check(code, sqlite3_db_handle(handle), sql: sql)
    }

    /// Binds an integer to the parameter at a 1-based `index`, without boxing.
    @inline(__always)
    package func bind(_ value: Int, at index: Int32) throws {
        try SQLiteCall.check(sqlite3_bind_int64(handle, index, Int64(value)), sqlite3_db_handle(handle), sql: sql)
    }

    /// Binds constant text to the parameter at a 1-based `index`, without copying it.
    @inline(__always)
    package func bind(_ text: StaticString, at index: Int32) throws {
        let code = text.withUTF8Buffer { bytes in
            // SQLITE_STATIC (a null destructor): the string lives as long as the program.
            sqlite3_bind_text64(handle, index, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                                sqlite3_uint64(bytes.count), nil, UInt8(SQLITE_UTF8))
        }
        try SQLiteCall.check(code, sqlite3_db_handle(handle), sql: sql)
    }

    /// Binds UTF-8 bytes as text to the parameter at a 1-based `index`.
    package func bindText(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        try SQLiteCall.check(bindTextCode(bytes, at: index), sqlite3_db_handle(handle), sql: sql)
    }

    /// Binds text with an explicit byte count, so embedded NUL characters are kept
    /// and an empty string stays an empty string rather than `NULL`.
    private func bindTextCode(_ bytes: UnsafeRawBufferPointer, at index: Int32) -> Int32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            return sqlite3_bind_text64(handle, index, "", 0, csqlite_transient(), UInt8(SQLITE_UTF8))
        }
        return sqlite3_bind_text64(handle, index, base.assumingMemoryBound(to: CChar.self),
                                   sqlite3_uint64(bytes.count), csqlite_transient(), UInt8(SQLITE_UTF8))
    }

    // MARK: Stepping

    /// Advances to the next row.
    ///
    /// - Returns: `true` when a row is available, `false` when the statement is done.
    @discardableResult
    package func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            // The statement's own error code is the extended one after sqlite3_step with prepare_v2.
            let error = SQLiteCall.error(sqlite3_extended_errcode(sqlite3_db_handle(handle)), sqlite3_db_handle(handle), sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to completion, ignoring any rows.
    package func run() throws {
        while try step() {}
        reset()
    }

    /// Rewinds the statement so it can run again; bindings are kept.
    package func reset() {
        // Resetting returns the last step's error, which step() already reported.
        _ = sqlite3_reset(handle)
    }

    // MARK: Reading columns

    /// The number of columns in each row.
    package var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of the column at a 0-based `index`.
    package func columnName(at index: Int32) -> String {
        String(cString: sqlite3_column_name(handle, index))
    }

    /// Whether the current row's column at a 0-based `index` is `NULL`.
    package func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// The current row's column at a 0-based `index` as an integer.
    @inline(__always)
    package func int(at index: Int32) -> Int {
        Int(sqlite3_column_int64(handle, index))
    }

    /// The current row's column at a 0-based `index` as a floating point number.
    package func double(at index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// The current row's column at a 0-based `index` as text (empty for `NULL`).
    package func string(at index: Int32) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Calls `body` with the UTF-8 bytes of the current row's text column, without copying.
    ///
    /// The bytes are valid only inside `body`.
    @inline(__always)
    package func withUTF8<T>(at index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        let text = sqlite3_column_text(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeBufferPointer(start: text, count: text == nil ? 0 : count))
    }

    /// The current row's column at a 0-based `index` as a value of its storage class.
    package func value(at index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: return .text(string(at: index))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}
