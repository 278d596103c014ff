import GridLayout

/// `async` forms of every ``GridSizeRepository`` read and change. They do the same work on the
/// database's executors (see ``GridDatabase/queueWaitLimitMilliseconds``), so a caller on
/// Swift's cooperative pool is suspended, not blocked, while the database waits for a lock.
extension GridSizeRepository {
    public func snapshot() async throws(GridError) -> GridSnapshot {
        try await GridError.catching { try await runAsync(reading: true) { try self.snapshot() } }
    }

    @discardableResult
    public func update(_ body: @escaping @Sendable (inout GridEditor) throws -> Void) async throws -> GridSnapshot {
        try await runAsync(reading: false) { try self.update(body) }
    }

    public func size(at indexPath: GridIndexPath) async throws(GridError) -> TileSize {
        try await GridError.catching { try await runAsync(reading: true) { try self.size(at: indexPath) } }
    }

    @discardableResult
    public func toggle(at indexPath: GridIndexPath) async throws(GridError) -> TileSize {
        try await GridError.catching { try await runAsync(reading: false) { try self.toggle(at: indexPath) } }
    }

    public func set(_ size: TileSize, at indexPath: GridIndexPath) async throws(GridError) {
        try await GridError.catching { try await runAsync(reading: false) { try self.set(size, at: indexPath) } }
    }

    public func set(_ sizes: [GridIndexPath: TileSize]) async throws(GridError) {
        try await GridError.catching { try await runAsync(reading: false) { try self.set(sizes) } }
    }

    public func removeSize(at indexPath: GridIndexPath) async throws(GridError) {
        try await GridError.catching { try await runAsync(reading: false) { try self.removeSize(at: indexPath) } }
    }

    public func setDefaultSize(_ size: TileSize) async throws(GridError) {
        try await GridError.catching { try await runAsync(reading: false) { try self.setDefaultSize(size) } }
    }

    public func sectionCount() async throws(GridError) -> Int {
        try await GridError.catching { try await runAsync(reading: true) { try self.sectionCount() } }
    }

    public func itemCount(inSection section: Int) async throws(GridError) -> Int {
        try await GridError.catching { try await runAsync(reading: true) { try self.itemCount(inSection: section) } }
    }

    public func setItemCount(_ count: Int, inSection section: Int) async throws(GridError) {
        try await GridError.catching { try await runAsync(reading: false) { try self.setItemCount(count, inSection: section) } }
    }

    public func dictionaryRepresentation() async throws(GridError) -> [GridIndexPath: TileSize] {
        try await GridError.catching { try await runAsync(reading: true) { try self.dictionaryRepresentation() } }
    }

    public func removeAll() async throws(GridError) {
        try await GridError.catching { try await runAsync(reading: false) { try self.removeAll() } }
    }

    public func swap(_ first: GridIndexPath, _ second: GridIndexPath) async throws(GridError) {
        try await GridError.catching { try await runAsync(reading: false) { try self.swap(first, second) } }
    }

    public func insertItem(at indexPath: GridIndexPath) async throws(GridError) {
        try await GridError.catching { try await runAsync(reading: false) { try self.insertItem(at: indexPath) } }
    }

    public func deleteItem(at indexPath: GridIndexPath) async throws(GridError) {
        try await GridError.catching { try await runAsync(reading: false) { try self.deleteItem(at: indexPath) } }
    }

    public func moveItem(from source: GridIndexPath, to destination: GridIndexPath) async throws(GridError) {
        try await GridError.catching { try await runAsync(reading: false) { try self.moveItem(from: source, to: destination) } }
    }
}

/// A repository whose calls go to a database: its `async` forms run on the database's executors.
package protocol DatabaseBackedRepository {
    /// The database the repository's grid is in.
    var database: GridDatabase { get }
}

extension GridSizeRepository {
    /// The result of `body`, run on the database's executor for reads or for changes; for a
    /// repository of an app's own that keeps no ``GridDatabase``, on one executor shared by all such.
    func runAsync<T: Sendable>(reading: Bool, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        guard let backed = self as? any DatabaseBackedRepository else { return try await otherRepositories.run(body) }
        return try await (reading ? backed.database.reads : backed.database.changes).run(body)
    }
}

/// Where the `async` forms of repositories that keep no ``GridDatabase`` run.
let otherRepositories = ConnectionExecutor(location: "a repository without a database",
                                           waitLimitMilliseconds: GridDatabase.queueWaitLimitMilliseconds)
