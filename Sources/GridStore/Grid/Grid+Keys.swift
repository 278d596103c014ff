import GridLayout

/// Changes to items addressed by key (see ``GridEditor/setItems(keys:inSection:)``).
extension Grid {
    /// Cycles the size of the item with the key `key` small → middle → big → small.
    ///
    /// - Throws: ``GridError/keyNotFound(_:grid:)`` when no item has the key.
    @discardableResult
    public func toggle(forKey key: String) throws(GridError) -> GridSnapshot {
        try editing { try $0.toggle(forKey: key) }
    }

    /// Sets the size of the item with the key `key`; `nil` returns it to the default size.
    @discardableResult
    public func setSize(_ size: TileSize?, forKey key: String) throws(GridError) -> GridSnapshot {
        try editing { try $0.setSize(size, forKey: key) }
    }

    /// Makes `section` hold exactly the items with `keys`, in that order, as one revision.
    @discardableResult
    public func setItems(keys: [String], inSection section: Int) throws(GridError) -> GridSnapshot {
        try editing { try $0.setItems(keys: keys, inSection: section) }
    }
}
