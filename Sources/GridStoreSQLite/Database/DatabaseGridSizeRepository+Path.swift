import GridStore

extension DatabaseGridSizeRepository {
    /// The repository of the grid `suiteName` in the SQLite file at `path`, created with
    /// `options` if missing: the form of `SQLiteGridSizeRepository` before repositories took a
    /// database of any kind.
    @available(*, deprecated, message: "open the database and pass it: DatabaseGridSizeRepository(suiteName: name, database: GridDatabase(path: path))")
    public convenience init(suiteName: String = "default", path: String, creatingWith options: GridOptions = GridOptions()) throws {
        try self.init(suiteName: suiteName, database: GridDatabase(path: path), creatingWith: options)
    }
}
