/// The options accepted before or after any command.
struct GlobalOptions: Equatable {
    /// `--db <path>`: the database file, or a PostgreSQL connection URI.
    var databasePath: String?
    /// `--grid <name>`: the grid to work on.
    var gridName: String?

    /// The default grid's name.
    static let defaultGridName = "default"

    static let database = CommandSpec.Option(
        name: "db", valueName: "path",
        help: "The database: an SQLite file, or a postgresql:// URI (default: $GRIDSTORE_DB, "
            + "else $XDG_DATA_HOME/gridstore/gridstore.sqlite).")
    static let grid = CommandSpec.Option(
        name: "grid", valueName: "name", help: "The grid to use (default: default).")

    static func specs(includingGrid: Bool) -> [CommandSpec.Option] {
        includingGrid ? [database, grid] : [database]
    }
}
