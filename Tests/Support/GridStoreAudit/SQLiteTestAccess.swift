import GridStore
import GridStoreSQLite

/// A connection to a private in-memory database.
package func memoryConnection() throws -> SQLiteConnection {
    try SQLiteConnection(path: ":memory:")
}

/// Reads one integer with `sql`.
package func scalar(_ connection: SQLiteConnection, _ sql: String) throws -> Int {
    try connection.fetchOne(sql) { $0.int(at: 0) } ?? -1
}

/// Reads one text value with `sql`.
package func text(_ connection: SQLiteConnection, _ sql: String) throws -> String {
    try connection.fetchOne(sql) { $0.string(at: 0) } ?? ""
}

extension GridDatabase {
    /// Runs `body` with the SQLite connection in a read transaction.
    package func readSQLite<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try sqlite!.readConnection(body)
    }

    /// Runs `body` with a connection of its own, as `sqlite3` would open the file: gridstore's
    /// connections read through no view, so the views that are there for such readers are read here.
    package func readThroughViews<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try body(SQLiteConnection(path: sqlite!.path, mode: .readOnly))
    }

    /// Runs `body` with the SQLite connection in a write transaction.
    package func writeSQLite<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try sqlite!.writeConnection(body)
    }
}
