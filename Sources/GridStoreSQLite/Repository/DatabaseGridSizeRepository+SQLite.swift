import GridStore

extension DatabaseGridSizeRepository {
    /// Opens the grid `suiteName` in the SQLite file at `path`, creating both as needed.
    ///
    /// - Throws: ``GridError/storage(_:)`` when the file cannot be used (see ``DatabaseFileError``).
    public convenience init(suiteName: String = "default", path: String) throws(GridError) {
        let database = try GridError.catching { try GridDatabase(path: path) }
        try self.init(suiteName: suiteName, database: database)
    }
}
