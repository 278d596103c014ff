import GridLayout

/// One item of a grid as stored, read without reading (or packing) the rest of the grid.
public struct GridItem: Sendable, Hashable {
    /// Creates an item's values.
    public init(indexPath: GridIndexPath, size: TileSize, hasOwnSize: Bool, key: String?) {
        self.indexPath = indexPath
        self.size = size
        self.hasOwnSize = hasOwnSize
        self.key = key
    }

    /// Where the item is.
    public let indexPath: GridIndexPath
    /// Its size: its own, or the grid's default.
    public let size: TileSize
    /// Whether the size is its own rather than the grid's default.
    public let hasOwnSize: Bool
    /// Its key, if it has one.
    public let key: String?
}

extension Grid {
    /// The item at `path` (or with the key `key`) as stored, read in one transaction with a few
    /// row lookups, whatever the grid's size: the grid is neither read whole nor packed, and
    /// never created.
    ///
    /// - Throws: ``GridError/gridNotFound(_:)``, ``GridError/notTiles(operation:grid:)`` for a
    ///   honeycomb, the range errors ``size(at:)`` throws, ``GridError/keyNotFound(_:grid:)``,
    ///   and ``GridError/corrupted(_:)`` for a stored value gridstore would refuse.
    public func item(at path: GridIndexPath) throws(GridError) -> GridItem {
        try readItem(at: path, key: nil)
    }

    /// The item with the key `key` as stored, read as ``item(at:)`` reads one.
    ///
    /// - Throws: ``GridError/keyNotFound(_:grid:)`` when no item has it, and what ``item(at:)`` throws.
    public func item(forKey key: String) throws(GridError) -> GridItem {
        try readItem(at: nil, key: key)
    }

    /// The item at `path`, or the one with `key` (exactly one of them is given).
    private func readItem(at path: GridIndexPath?, key: String?) throws(GridError) -> GridItem {
        try GridError.catching { try database.storageRead { try item(at: path, key: key, in: $0) } }
    }

    /// The item at `path`, or the one with `key` (exactly one of them is given), read in `transaction`.
    func item(at path: GridIndexPath?, key: String?, in transaction: any GridStorageTransaction) throws -> GridItem {
        guard let header = try transaction.header(named: name)?.header() else { throw GridError.gridNotFound(name) }
        if header.honeycomb != nil { throw GridError.notTiles(operation: "have sizes", grid: name) }
        let place = key.map { StoredItemPlace.key(GridLimits.canonical($0)) }
            ?? .index(section: path?.section ?? 0, item: path?.item ?? 0)
        let found: StoredItemRow?
        do {
            found = try transaction.storedItem(gridID: header.id, at: place)
        } catch let misplaced as any StoredStateInconsistency {
            throw GridError.corrupted("grid '\(name)' \(misplaced.description)")
        }
        // Only a key can be missing: an index path always names a place, checked below.
        guard let stored = found else { throw GridError.keyNotFound(key ?? "", grid: name) }
        let resolved = GridIndexPath(item: stored.item, section: stored.section)
        guard let count = stored.itemCount, resolved.section >= 0 else {
            throw GridError.sectionOutOfRange(resolved.section, sectionCount: try transaction.sectionItemCounts(gridID: header.id).count)
        }
        guard count >= 0, count <= GridLimits.maximumItems else {
            throw GridError.corrupted("grid '\(name)' has \(count) items in section \(resolved.section)")
        }
        guard resolved.item >= 0, resolved.item < count else {
            throw GridError.itemOutOfRange(resolved, itemCount: count, allowsEnd: false)
        }
        let own: TileSize?
        switch stored.size {
        case .none: own = nil
        case .known(let size): own = size
        case .unknown:
            throw GridError.corrupted("grid '\(name)' has an unknown size for item \(resolved.item) of section \(resolved.section)")
        }
        if let key = stored.key {
            do {
                try GridLimits.validate(key: key)
            } catch {
                throw GridError.corrupted("grid '\(name)' has an invalid key for item \(resolved.item) of section \(resolved.section)")
            }
        }
        return GridItem(indexPath: resolved, size: own ?? header.defaultSize, hasOwnSize: own != nil, key: stored.key)
    }
}
