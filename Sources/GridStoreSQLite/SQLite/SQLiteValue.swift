import GridStore
/// A value SQLite stores: its five storage classes.
package enum SQLiteValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A 64-bit floating point number.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])
}

/// A Swift value that can be bound to a statement parameter.
package protocol SQLiteValueConvertible {
    /// The value as SQLite stores it.
    var sqliteValue: SQLiteValue { get }
}

extension SQLiteValue: SQLiteValueConvertible {
    package var sqliteValue: SQLiteValue { self }
}

extension Int: SQLiteValueConvertible {
    package var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Int64: SQLiteValueConvertible {
    package var sqliteValue: SQLiteValue { .integer(self) }
}

extension Int32: SQLiteValueConvertible {
    package var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Bool: SQLiteValueConvertible {
    package var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
}

extension Double: SQLiteValueConvertible {
    package var sqliteValue: SQLiteValue { .real(self) }
}

extension String: SQLiteValueConvertible {
    package var sqliteValue: SQLiteValue { .text(self) }
}

extension Substring: SQLiteValueConvertible {
    package var sqliteValue: SQLiteValue { .text(String(self)) }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
    package var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
}
