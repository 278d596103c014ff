import GridLayout

/// `async` forms of ``Grid``'s reads and changes. They do the same work, queued in arrival
/// order on the database's executor for reads or for changes, each one thread of gridstore's
/// own, so a caller on Swift's cooperative pool is suspended, not blocked, while the database
/// waits for a lock; a call waits at most ``GridDatabase/queueWaitLimitMilliseconds`` for this
/// process's calls ahead of it.
extension Grid {
    /// The grid's current state.
    public func snapshot() async throws(GridError) -> GridSnapshot {
        try await GridError.catching { try await database.reads.run { try self.snapshot() } }
    }

    /// The grid's current state, never creating the grid.
    public func storedSnapshot() async throws(GridError) -> GridSnapshot {
        try await GridError.catching { try await database.reads.run { try self.storedSnapshot() } }
    }

    /// The grid's current revision, never creating the grid.
    public func currentRevision() async throws(GridError) -> Int {
        try await GridError.catching { try await database.reads.run { try self.currentRevision() } }
    }

    /// Applies the edits `body` makes, in one transaction, as one revision (see ``update(operation:_:)``).
    @discardableResult
    public func update(operation: String? = nil, _ body: @escaping @Sendable (inout GridEditor) throws -> Void) async throws -> GridSnapshot {
        try await database.changes.run { try self.update(operation: operation, body) }
    }

    /// Cycles the item's size small → middle → big → small.
    @discardableResult
    public func toggle(at path: GridIndexPath) async throws(GridError) -> GridSnapshot {
        try await GridError.catching { try await database.changes.run { try self.toggle(at: path) } }
    }

    /// Sets the item's size; `nil` returns it to the default size.
    @discardableResult
    public func setSize(_ size: TileSize?, at path: GridIndexPath) async throws(GridError) -> GridSnapshot {
        try await GridError.catching { try await database.changes.run { try self.setSize(size, at: path) } }
    }

    /// Replaces the grid's settings and sizes with `content`, as an import does.
    @discardableResult
    public func replaceContent(_ content: GridContent) async throws(GridError) -> GridSnapshot {
        try await GridError.catching { try await database.changes.run { try self.replaceContent(content) } }
    }

    /// Every grid in the database, by name.
    public static func list(in database: GridDatabase) async throws(GridError) -> [GridSummary] {
        try await GridError.catching { try await database.reads.run { try list(in: database) } }
    }

    /// Whether the grid changed since `revision`, never creating it.
    public func hasChanged(since revision: Int) async throws(GridError) -> Bool {
        try await GridError.catching { try await database.reads.run { try self.hasChanged(since: revision) } }
    }

    /// The item at `path`: its size, whether the size is its own, and its key.
    public func item(at path: GridIndexPath) async throws(GridError) -> GridItem {
        try await GridError.catching { try await database.reads.run { try self.item(at: path) } }
    }

    /// The item with the key `key`.
    public func item(forKey key: String) async throws(GridError) -> GridItem {
        try await GridError.catching { try await database.reads.run { try self.item(forKey: key) } }
    }

    /// Whether a grid named `name` exists.
    public static func exists(named name: String, in database: GridDatabase) async throws(GridError) -> Bool {
        try await GridError.catching { try await database.reads.run { try exists(named: name, in: database) } }
    }

    /// Deletes the grid named `name` with its sections, sizes and placements.
    public static func drop(named name: String, in database: GridDatabase) async throws(GridError) {
        try await GridError.catching { try await database.changes.run { try drop(named: name, in: database) } }
    }
}
