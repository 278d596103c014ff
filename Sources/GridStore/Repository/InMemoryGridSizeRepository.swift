import GridLayout

/// A ``GridSizeRepository`` that keeps its grid in memory: for tests, previews and
/// tools that do not need to persist sizes. It keeps a history as a database does.
///
/// It is a database repository on a database in memory, gone with the instance: every change
/// goes through the same pipeline, checks and history as on SQLite or PostgreSQL.
public final class InMemoryGridSizeRepository: GridSizeRepository, DatabaseHolding {
    /// The repository on the memory database.
    private let stored: DatabaseGridSizeRepository

    /// Creates a grid named `name` with `options`.
    ///
    /// - Throws: ``GridError`` for an invalid name or options.
    public init(name: String = "default", options: GridOptions = GridOptions()) throws(GridError) {
        stored = try DatabaseGridSizeRepository(suiteName: name, database: GridDatabase(backend: MemoryStorage()),
                                                creatingWith: options)
        // Made now, as the grid of an in-memory repository always exists.
        _ = try stored.grid.snapshot()
    }

    package var database: GridDatabase { stored.database }

    public func register(defaultSize: TileSize) {
        stored.register(defaultSize: defaultSize)
    }

    public var registeredDefaultSize: TileSize? { stored.registeredDefaultSize }

    public func snapshot() throws(GridError) -> GridSnapshot {
        try stored.snapshot()
    }

    @discardableResult
    public func update(_ body: (inout GridEditor) throws -> Void) throws -> GridSnapshot {
        try stored.update(body)
    }

    public func history(limit: Int?) throws(GridError) -> [GridHistoryEntry] {
        try stored.history(limit: limit)
    }

    @discardableResult
    public func undo(_ count: Int) throws(GridError) -> GridSnapshot {
        try stored.undo(count)
    }

    @discardableResult
    public func redo(_ count: Int) throws(GridError) -> GridSnapshot {
        try stored.redo(count)
    }

    public func snapshot(at revision: Int) throws(GridError) -> GridSnapshot {
        try stored.snapshot(at: revision)
    }

    @discardableResult
    public func revert(to revision: Int) throws(GridError) -> GridSnapshot {
        try stored.revert(to: revision)
    }

    /// The changes, checked by reading the revision alone every `interval`.
    public func changes(pollingEvery interval: Duration = .milliseconds(100)) -> GridChangeSequence {
        stored.changes(pollingEvery: interval)
    }

    /// How many history entries the repository keeps (1000 unless set).
    public func historyRetention() -> Int {
        (try? stored.grid.historyRetention()) ?? GridHistory.defaultKeep
    }

    /// Sets how many history entries the repository keeps, deleting older ones now.
    public func setHistoryRetention(_ keep: Int) throws(GridError) {
        try stored.grid.setHistoryRetention(keep)
    }
}
