/// One object of a database's schema as SQLite records it in `sqlite_schema`: its type, name,
/// the table it belongs to, and the SQL that defines it.
///
/// The `MigrationEmbedder` plugin applies gridstore's SQLite migrations to an empty database
/// at build time and records the objects each one leaves, so that opening a file can compare
/// the file's definitions with them without running any migration.
package struct SchemaObject: Hashable, Sendable {
    /// `table`, `index`, `view` or `trigger`.
    package var type: String
    /// The object's name.
    package var name: String
    /// The table or view the object belongs to (its own name for a table or view).
    package var table: String
    /// The `CREATE` statement SQLite keeps for the object; `nil` for the indexes SQLite makes
    /// for a table's `UNIQUE` and `PRIMARY KEY` constraints.
    package var sql: String?

    /// Creates an object.
    package init(type: String, name: String, table: String, sql: String?) {
        self.type = type
        self.name = name
        self.table = table
        self.sql = sql
    }
}
