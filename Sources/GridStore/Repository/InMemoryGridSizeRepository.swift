import Synchronization

/// A ``GridSizeRepository`` that keeps its grid in memory: for tests, previews and
/// tools that do not need to persist sizes.
public final class InMemoryGridSizeRepository: GridSizeRepository {
    private let state: Mutex<GridSnapshot>

    /// Creates a grid named `name` with `options`.
    ///
    /// - Throws: ``GridError`` for an invalid name or options.
    public init(name: String = "default", options: GridOptions = GridOptions()) throws {
        try GridLimits.validate(name: name)
        try options.validate()
        state = Mutex(try GridSnapshot(name: name, revision: 0, content: GridContent(options)))
    }

    public func snapshot() throws -> GridSnapshot {
        state.withLock { $0 }
    }

    @discardableResult
    public func update(_ body: (inout GridEditor) throws -> Void) throws -> GridSnapshot {
        try state.withLock { current in
            var editor = GridEditor(current)
            try body(&editor)
            var new = editor.snapshot
            new.revision = current.revision + 1
            current = new
            return new
        }
    }
}
