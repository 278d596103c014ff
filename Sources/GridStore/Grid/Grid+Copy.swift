extension Grid {
    /// Copies grids from one database to another, on any backends, keeping their revisions.
    ///
    /// Everything is read in one transaction of `source` and written in one transaction of
    /// `target`: the target gets every grid or none. This is how grids move from an SQLite
    /// file to a PostgreSQL server and back.
    ///
    /// ```swift
    /// let file = try GridDatabase(path: "grids.sqlite")
    /// let server = try GridDatabase(location: "postgresql://app@db/layouts")
    /// try Grid.copy(from: file, to: server)
    /// ```
    ///
    /// - Parameters:
    ///   - names: The grids to copy; `nil` for all.
    ///   - replacing: Whether a grid of the same name in `target` is replaced; otherwise it is refused.
    /// - Returns: The copied grids as the target now holds them.
    /// - Throws: ``GridError/gridNotFound(_:)`` for a name `source` lacks,
    ///   ``GridError/gridExists(_:)`` for a name `target` has (unless `replacing`), and
    ///   ``GridError/storage(_:)`` for what either database reports. Nothing is written then.
    @discardableResult
    public static func copy(from source: GridDatabase, to target: GridDatabase, names: [String]? = nil,
                            replacing: Bool = false) throws(GridError) -> [GridSummary] {
        try GridError.catching { try copyGrids(from: source, to: target, names: names, replacing: replacing) }
    }

    private static func copyGrids(from source: GridDatabase, to target: GridDatabase, names: [String]?,
                                  replacing: Bool) throws -> [GridSummary] {
        let snapshots = try source.backend.read { transaction -> [GridSnapshot] in
            let wanted = try names ?? transaction.listGrids().map(\.name)
            return try wanted.map { name in
                guard let header = try transaction.header(named: name)?.header() else { throw GridError.gridNotFound(name) }
                return try GridSnapshot.load(header, name: name, from: transaction)
            }
        }
        let copied = Set(snapshots.map(\.name))
        return try target.backend.write { transaction -> [GridSummary] in
            for snapshot in snapshots {
                if try transaction.header(named: snapshot.name) != nil {
                    guard replacing else { throw GridError.gridExists(snapshot.name) }
                    _ = try transaction.deleteGrid(named: snapshot.name)
                }
                _ = try transaction.insertGrid(named: snapshot.name, GridChangeSet(inserting: snapshot))
            }
            return try transaction.listGrids().filter { copied.contains($0.name) }
        }
    }
}
