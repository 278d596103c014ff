import GridStore
import GridStorePostgreSQL
import GridStoreSQLite

extension GridDatabase {
    /// Opens `location` for tests, benchmarks and the reliability suite, which run the same
    /// checks on both backends: a PostgreSQL connection URI, or else the path of an SQLite file.
    /// (The command line tells them apart in its own `DatabaseArgument`.)
    public convenience init(location: String, applyingMigrations: Bool = true) throws {
        if PostgreSQLLocation(location) != nil {
            try self.init(postgreSQL: location, applyingMigrations: applyingMigrations)
        } else {
            try self.init(path: location, applyingMigrations: applyingMigrations)
        }
    }
}
