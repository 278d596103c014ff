import GridLayout

/// A store of tile sizes by index path, shaped like `UserDefaults`: read a size, set it,
/// remove it, register a default.
///
/// It replaces the original iOS layout's `UserDefaults` keys
/// (`r:<row>_s:<section>_grid_item_size`). Unlike those keys, sizes follow their items
/// when items are inserted, deleted or moved, every change is atomic, and the packed
/// layout is kept with the sizes. Index paths address the items that exist: a path past
/// a section's end is refused with ``GridError/itemOutOfRange(_:itemCount:allowsEnd:)``.
///
/// Two implementations share one behaviour (and one test suite):
/// ``DatabaseGridSizeRepository`` keeps one named grid in a database (an SQLite file or a
/// PostgreSQL server), like `UserDefaults(suiteName:)`; ``InMemoryGridSizeRepository`` keeps
/// it in memory. Both are
/// safe to use from many threads at once.
///
/// Everything is built on ``snapshot()``, ``update(_:)`` and the registration domain
/// (``register(defaultSize:)``, ``registeredDefaultSize``); the others have default
/// implementations in terms of them.
///
/// ```swift
/// let sizes = try DatabaseGridSizeRepository(path: "/tmp/sizes.sqlite")   // import GridStoreSQLite
/// try sizes.set(.big, at: GridIndexPath(item: 2))
/// try sizes.size(at: GridIndexPath(item: 2))        // .big
/// try sizes.insertItem(at: GridIndexPath(item: 0))  // the big tile is now item 3
/// ```
public protocol GridSizeRepository: AsyncCallable {
    /// The grid's current state: sizes, settings and packed layout.
    func snapshot() throws(GridError) -> GridSnapshot

    /// Applies the edits `body` makes as one atomic change and one revision.
    @discardableResult
    func update(_ body: (inout GridEditor) throws -> Void) throws -> GridSnapshot

    /// The item's size: the one set for it, or the registered default.
    func size(at indexPath: GridIndexPath) throws(GridError) -> TileSize

    /// Sets the item's size.
    func set(_ size: TileSize, at indexPath: GridIndexPath) throws(GridError)

    /// Sets many sizes in one atomic change, re-packing once.
    func set(_ sizes: [GridIndexPath: TileSize]) throws(GridError)

    /// Removes the item's own size, so it has the default size again.
    func removeSize(at indexPath: GridIndexPath) throws(GridError)

    /// Registers the size of items that have none of their own, for this repository instance
    /// only, as `UserDefaults.register(defaults:)` does: nothing is written, no revision is
    /// added, no observer is woken, other instances and processes do not see it, and it is
    /// gone when the instance is. Free to call at every launch. ``snapshot()`` packs with it.
    func register(defaultSize: TileSize) throws(GridError)

    /// The size ``register(defaultSize:)`` registered in this instance, if any.
    var registeredDefaultSize: TileSize? { get }

    /// Sets the grid's stored default size: the size of items without one of their own, for
    /// every instance and process, as one change and one revision.
    func setDefaultSize(_ size: TileSize) throws(GridError)

    /// The number of sections.
    func sectionCount() throws(GridError) -> Int

    /// The number of items in `section`.
    ///
    /// - Throws: ``GridError/sectionOutOfRange(_:sectionCount:)`` when there is no such section.
    func itemCount(inSection section: Int) throws(GridError) -> Int

    /// Makes `section` hold `count` items, as the app's data source says: new items at the end
    /// get the default size; removed items take their sizes with them.
    func setItemCount(_ count: Int, inSection section: Int) throws(GridError)

    /// The grid's changes as this instance sees them: the current state, then one
    /// ``GridChange`` whenever it changes, by any process, or when this instance registers
    /// another default size. See ``GridChangeSequence``.
    func changes(pollingEvery interval: Duration) -> GridChangeSequence

    /// Every size set explicitly, by index path; with a registered default size (see
    /// ``register(defaultSize:)``), every other item too, with that size, as
    /// `UserDefaults.dictionaryRepresentation()` includes the registration domain.
    func dictionaryRepresentation() throws(GridError) -> [GridIndexPath: TileSize]

    /// Removes every item's own size.
    func removeAll() throws(GridError)

    /// Exchanges the sizes of two items (the original's drag and drop).
    func swap(_ first: GridIndexPath, _ second: GridIndexPath) throws(GridError)

    /// Inserts an item with the default size; later items of the section, and their sizes, move up by one.
    func insertItem(at indexPath: GridIndexPath) throws(GridError)

    /// Deletes an item; later items of the section, and their sizes, move down by one.
    func deleteItem(at indexPath: GridIndexPath) throws(GridError)

    /// Moves an item with its size; `destination` is its index path after the move.
    func moveItem(from source: GridIndexPath, to destination: GridIndexPath) throws(GridError)

    /// The grid's history entries, newest first, at most `limit` (see ``Grid/history(limit:)``).
    func history(limit: Int?) throws(GridError) -> [GridHistoryEntry]
    /// Takes back the last `count` changes not undone yet, as one new revision (see ``Grid/undo(_:)``).
    @discardableResult
    func undo(_ count: Int) throws(GridError) -> GridSnapshot
    /// Re-applies the last `count` changes undone since the last change (see ``Grid/redo(_:)``).
    @discardableResult
    func redo(_ count: Int) throws(GridError) -> GridSnapshot
    /// The grid as it was at `revision` (see ``Grid/snapshot(at:)``).
    func snapshot(at revision: Int) throws(GridError) -> GridSnapshot
    /// Makes the state at `revision` current, as one new revision (see ``Grid/revert(to:)``).
    @discardableResult
    func revert(to revision: Int) throws(GridError) -> GridSnapshot
}

extension GridSizeRepository {
    /// ``update(_:)`` for a `body` that throws only ``GridError`` (the editor's refusals), as typed throws.
    @discardableResult
    package func editing(_ body: (inout GridEditor) throws -> Void) throws(GridError) -> GridSnapshot {
        try GridError.catching { try update(body) }
    }

    public func size(at indexPath: GridIndexPath) throws(GridError) -> TileSize {
        try snapshot().size(at: indexPath)
    }

    /// Cycles the item's size small → middle → big → small in one change, as the original's
    /// `toggleSize(forIndexPath:)` did.
    ///
    /// - Returns: The item's new size.
    @discardableResult
    public func toggle(at indexPath: GridIndexPath) throws(GridError) -> TileSize {
        var size = TileSize.small
        _ = try editing { size = try $0.toggle(at: indexPath) }
        return size
    }

    public func set(_ size: TileSize, at indexPath: GridIndexPath) throws(GridError) {
        try editing { try $0.setSize(size, at: indexPath) }
    }

    public func set(_ sizes: [GridIndexPath: TileSize]) throws(GridError) {
        try editing { try $0.setSizes(sizes.lazy.map { ($0.key, $0.value) }) }
    }

    public func removeSize(at indexPath: GridIndexPath) throws(GridError) {
        try editing { try $0.setSize(nil, at: indexPath) }
    }

    /// The changes, checked by reading the whole state every `interval` (a repository with a
    /// cheaper check, such as ``DatabaseGridSizeRepository``, provides its own).
    public func changes(pollingEvery interval: Duration = .milliseconds(100)) -> GridChangeSequence {
        let load: @Sendable () throws -> (GridSnapshot, GridChangeSequence.Token) = {
            let snapshot = try self.snapshot()
            return (snapshot, GridChangeSequence.Token(revision: snapshot.revision, registeredDefault: self.registeredDefaultSize))
        }
        return GridChangeSequence(interval: interval, token: { try load().1 }, load: load)
    }

    public func setDefaultSize(_ size: TileSize) throws(GridError) {
        try editing { try $0.setDefaultSize(size) }
    }

    public func sectionCount() throws(GridError) -> Int {
        try snapshot().itemCounts.count
    }

    public func itemCount(inSection section: Int) throws(GridError) -> Int {
        let counts = try snapshot().itemCounts
        guard counts.indices.contains(section) else { throw GridError.sectionOutOfRange(section, sectionCount: counts.count) }
        return counts[section]
    }

    public func setItemCount(_ count: Int, inSection section: Int) throws(GridError) {
        try editing { try $0.setItemCount(count, inSection: section) }
    }

    /// Sets every section's item count to the data source's, in one change: call it before a
    /// collection view's `reloadData()`. When the counts are already the grid's it only reads,
    /// taking no write lock and writing nothing.
    ///
    /// - Returns: The grid after the change.
    @discardableResult
    public func setItemCounts(_ counts: [Int]) throws(GridError) -> GridSnapshot {
        let current = try snapshot()
        guard current.itemCounts != counts else { return current }
        return try editing { try $0.setItemCounts(counts) }
    }

    public func dictionaryRepresentation() throws(GridError) -> [GridIndexPath: TileSize] {
        let snapshot = try snapshot()
        guard let registered = registeredDefaultSize else { return snapshot.explicitSizesByPath }
        var sizes: [GridIndexPath: TileSize] = [:]
        for (section, items) in snapshot.explicitSizes.enumerated() {
            for (item, size) in items.enumerated() {
                sizes[GridIndexPath(item: item, section: section)] = size ?? registered
            }
        }
        return sizes
    }

    public func removeAll() throws(GridError) {
        try editing { try $0.resetSizes() }
    }

    public func swap(_ first: GridIndexPath, _ second: GridIndexPath) throws(GridError) {
        try editing { try $0.swapItems(first, second) }
    }

    public func insertItem(at indexPath: GridIndexPath) throws(GridError) {
        try editing { try $0.insertItem(at: indexPath) }
    }

    public func deleteItem(at indexPath: GridIndexPath) throws(GridError) {
        try editing { try $0.deleteItem(at: indexPath) }
    }

    public func moveItem(from source: GridIndexPath, to destination: GridIndexPath) throws(GridError) {
        try editing { try $0.moveItem(from: source, to: destination) }
    }
}
