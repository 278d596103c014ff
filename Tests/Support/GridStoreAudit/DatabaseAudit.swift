import GridStore
import GridStoreSQLite
import GridStorePostgreSQL

/// Whole-database checks for tests and the reliability suite.
public enum DatabaseAudit {
    /// The grid tables, in an order whose rows show every stored change.
    public static let tables = ["grids", "sections", "item_sizes", "item_keys", "placement_chunks", "honeycombs", "honeycomb_placements",
                                "history"]

    /// `PRAGMA integrity_check` and `PRAGMA foreign_key_check` as one line: `ok` when both pass.
    public static func health(path: String) -> String {
        do {
            let connection = try SQLiteConnection(path: path, mode: .readOnly)
            connection.setBusyTimeout(milliseconds: GridDatabase.busyTimeoutMilliseconds)
            let integrity = try connection.fetchAll("PRAGMA integrity_check") { $0.string(at: 0) }.joined(separator: "; ")
            let foreignKeys = try connection.fetchAll("PRAGMA foreign_key_check") { $0.string(at: 0) }
            if integrity != "ok" { return "integrity_check: \(integrity)" }
            if !foreignKeys.isEmpty { return "foreign_key_check: \(foreignKeys.count) row(s)" }
            return "ok"
        } catch {
            return "cannot check: \(error)"
        }
    }

    /// Every row of every grid table, as text, to show that something wrote nothing; `path` is a
    /// file or a `postgresql://` URI.
    public static func rows(path: String) throws -> [String] {
        if let server = PostgreSQLLocation(path) {
            let connection = try PostgreSQLConnection(server)
            return try tables.flatMap { table in
                let result = try connection.execute("SELECT t::text FROM \(table) AS t ORDER BY 1")
                return (0..<result.count).map { table + ": " + result.string($0, 0) }
            }
        }
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        connection.setBusyTimeout(milliseconds: GridDatabase.busyTimeoutMilliseconds)
        var rows: [String] = []
        try connection.transaction {
            for table in tables {
                rows += try connection.fetchAll("SELECT * FROM \(table)") { row in
                    table + ": " + (0..<Int32(row.columnCount)).map { "\(row.value(at: $0))" }.joined(separator: " | ")
                }
            }
        }
        return rows
    }

    /// The number of items in all grids.
    public static func itemCount(path: String) throws -> Int {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        return try connection.fetchOne("SELECT coalesce(sum(item_count), 0) FROM sections") { $0.int(at: 0) } ?? 0
    }
}

/// Runs SQL on a PostgreSQL database directly, as a person with `psql` would: for tests that
/// tamper with what gridstore stored.
public enum PostgreSQLScript {
    public static func run(_ sql: String, on uri: String) throws {
        guard let server = PostgreSQLLocation(uri) else { return }
        try PostgreSQLConnection(server).executeScript(sql)
    }
}
