import GridLayout

/// Items addressed by key rather than by index path: a key is a name the app gives an item
/// (its record's identifier), so that its size follows it when the app's data source reorders
/// or filters its items. A key names one item of its grid.
///
/// ```swift
/// try repository.setItems(keys: ["mail", "calendar", "news"], inSection: 0)
/// try repository.set(.big, forKey: "news")
/// try repository.setItems(keys: ["news", "mail"], inSection: 0)   // "news" stays big; "calendar" is removed
/// ```
extension GridSizeRepository {
    /// The size of the item with the key `key`.
    ///
    /// - Throws: ``GridError/keyNotFound(_:grid:)`` when no item has the key.
    public func size(forKey key: String) throws(GridError) -> TileSize {
        try snapshot().size(forKey: key)
    }

    /// Sets the size of the item with the key `key`.
    ///
    /// - Throws: ``GridError/keyNotFound(_:grid:)`` when no item has the key.
    public func set(_ size: TileSize, forKey key: String) throws(GridError) {
        try editing { try $0.setSize(size, forKey: key) }
    }

    /// Cycles the size of the item with the key `key` small → middle → big → small in one change.
    ///
    /// - Returns: The item's new size.
    /// - Throws: ``GridError/keyNotFound(_:grid:)`` when no item has the key.
    @discardableResult
    public func toggle(forKey key: String) throws(GridError) -> TileSize {
        var size = TileSize.small
        _ = try editing { size = try $0.toggle(forKey: key) }
        return size
    }

    /// Gives the item with the key `key` the default size again.
    ///
    /// - Throws: ``GridError/keyNotFound(_:grid:)`` when no item has the key.
    public func removeSize(forKey key: String) throws(GridError) {
        try editing { try $0.setSize(nil, forKey: key) }
    }

    /// The index path of the item with the key `key`, or `nil` when no item has it.
    public func indexPath(forKey key: String) throws(GridError) -> GridIndexPath? {
        try snapshot().indexPath(forKey: key)
    }

    /// The keys of the items of `section`, one per item, `nil` for an item without a key.
    public func keys(inSection section: Int) throws(GridError) -> [String?] {
        try snapshot().keys(inSection: section)
    }

    /// Makes `section` hold exactly the items with `keys`, in that order, as one change: items
    /// whose key the section holds keep their sizes, new keys get the default size, and the
    /// section's other items are removed (see ``GridEditor/setItems(keys:inSection:)``).
    public func setItems(keys: [String], inSection section: Int) throws(GridError) {
        try editing { try $0.setItems(keys: keys, inSection: section) }
    }

    /// Gives the item at `indexPath` the key `key`, or takes its key away with `nil`.
    public func setKey(_ key: String?, at indexPath: GridIndexPath) throws(GridError) {
        try editing { try $0.setKey(key, at: indexPath) }
    }
}
