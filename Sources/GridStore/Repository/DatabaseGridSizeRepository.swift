import GridLayout

/// A ``GridSizeRepository`` that keeps one named grid in a gridstore database, like
/// `UserDefaults(suiteName:)`: an SQLite file, or a PostgreSQL server.
///
/// A write is committed (and on disk) when the call returns, and every later read sees it,
/// in this process and in others.
public final class DatabaseGridSizeRepository: GridSizeRepository {
    /// The grid the sizes belong to.
    public let grid: Grid

    /// Opens the grid `suiteName` in `database`, creating it with `options` if it is missing.
    public init(suiteName: String = "default", database: GridDatabase, creatingWith options: GridOptions = GridOptions()) throws(GridError) {
        grid = try Grid(named: suiteName, in: database, creatingWith: options)
    }

    /// This instance's registration domain (see ``register(defaultSize:)``).
    private let registration = RegisteredDefaultSize()

    public func snapshot() throws(GridError) -> GridSnapshot {
        registration.apply(to: try grid.snapshot())
    }

    @discardableResult
    public func update(_ body: (inout GridEditor) throws -> Void) throws -> GridSnapshot {
        registration.apply(to: try grid.update(seenBy: registration, body))
    }

    public func history(limit: Int?) throws(GridError) -> [GridHistoryEntry] {
        try grid.history(limit: limit)
    }

    @discardableResult
    public func undo(_ count: Int) throws(GridError) -> GridSnapshot {
        registration.apply(to: try grid.undo(count))
    }

    @discardableResult
    public func redo(_ count: Int) throws(GridError) -> GridSnapshot {
        registration.apply(to: try grid.redo(count))
    }

    public func snapshot(at revision: Int) throws(GridError) -> GridSnapshot {
        registration.apply(to: try grid.snapshot(at: revision))
    }

    @discardableResult
    public func revert(to revision: Int) throws(GridError) -> GridSnapshot {
        registration.apply(to: try grid.revert(to: revision))
    }

    public func register(defaultSize: TileSize) {
        registration.register(defaultSize)
        // What this instance's observers see changed, though the database did not.
        grid.database.watch.wake()
    }

    public var registeredDefaultSize: TileSize? { registration.size }

    /// The changes, as ``Grid/changes(pollingEvery:)`` observes them, and a newly registered default size.
    public func changes(pollingEvery interval: Duration = .milliseconds(100)) -> GridChangeSequence {
        let grid = grid, registration = registration
        return GridChangeSequence(
            interval: interval, watch: grid.database.watch, executor: grid.database.reads,
            token: {
                let version = try grid.currentVersion()
                return GridChangeSequence.Token(gridID: version.id, revision: version.revision, registeredDefault: registration.size)
            },
            load: {
                let registered = registration.size
                let (id, stored) = try grid.storedState()
                let snapshot = registration.apply(to: stored)
                return (snapshot, GridChangeSequence.Token(gridID: id, revision: snapshot.revision, registeredDefault: registered))
            })
    }
}

/// The earlier name of ``DatabaseGridSizeRepository``, from when gridstore stored only SQLite files.
public typealias SQLiteGridSizeRepository = DatabaseGridSizeRepository

extension DatabaseGridSizeRepository: DatabaseHolding {
    package var database: GridDatabase { grid.database }
}
