import GridLayout

/// A ``GridSizeRepository`` that keeps its grid in memory: for tests, previews and
/// tools that do not need to persist sizes.
public final class InMemoryGridSizeRepository: GridSizeRepository {
    private let state: Locked<GridSnapshot>

    /// Creates a grid named `name` with `options`.
    ///
    /// - Throws: ``GridError`` for an invalid name or options.
    public init(name: String = "default", options: GridOptions = GridOptions()) throws(GridError) {
        try GridLimits.validate(name: name)
        try options.validate()
        state = Locked(try GridSnapshot(name: name, revision: 0, content: GridContent(options)))
    }

    /// This instance's registration domain (see ``register(defaultSize:)``).
    private let registration = RegisteredDefaultSize()

    public func register(defaultSize: TileSize) {
        registration.register(defaultSize)
    }

    public var registeredDefaultSize: TileSize? { registration.size }

    public func snapshot() throws(GridError) -> GridSnapshot {
        registration.apply(to: state.withLock { $0 })
    }

    @discardableResult
    public func update(_ body: (inout GridEditor) throws -> Void) throws -> GridSnapshot {
        registration.apply(to: try state.withLock { current in
            let edited = try GridEditor.edit(current, assumingDefaultSize: registration.size, body)
            var new = edited.snapshot
            // As in a database: a change that changes nothing adds no revision.
            if GridChangeSet(old: current, new: new, changes: edited.changes).leavesUnchanged(current) { return current }
            new.revision = current.revision + 1
            current = new
            return new
        })
    }
}
