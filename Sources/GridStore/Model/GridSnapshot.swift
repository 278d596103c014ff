import GridLayout

/// How a grid places its items.
public enum GridKind: String, CaseIterable, Sendable, Hashable, Codable {
    /// Tiles of three sizes, densely packed in rows or columns.
    case tiles
    /// Items on hexagonal rings around a center item (see ``HoneycombLayout``).
    case honeycomb
}

/// A grid's state at one revision: its settings, every item's size and the packed layout.
///
/// Snapshots are values: later changes to the grid do not affect one you hold.
public struct GridSnapshot: Sendable {
    /// The grid's name.
    public let name: String
    /// The revision: it grows by one with every change to the grid.
    public internal(set) var revision: Int
    /// The size of items without a size of their own.
    public internal(set) var defaultSize: TileSize
    /// The packed tiles of every section, with their sizes.
    public internal(set) var layout: TileGrid<DensePacking>
    /// The sizes set explicitly; `nil` where an item has the default size.
    var explicitSizes: [[TileSize?]]
    /// Each section's item keys: empty for a section whose items have none, else one per item
    /// (`nil` for an item without a key). There is one entry per section.
    var itemKeys: [[String?]]

    /// The honeycomb's geometry, for a honeycomb grid; `nil` for a grid of tiles.
    public internal(set) var honeycomb: HoneycombConfiguration?

    /// - Parameter packing: Whether to pack the tiles; when `false` the layout has no sections
    ///   (an editor that packs once at the end, see ``GridEditor/packedSnapshot``).
    init(name: String, revision: Int, configuration: GridConfiguration, defaultSize: TileSize, explicitSizes: [[TileSize?]],
         keys: [[String?]] = [], honeycomb: HoneycombConfiguration? = nil, packing: Bool = true) {
        self.name = name
        self.revision = revision
        self.defaultSize = defaultSize
        self.explicitSizes = explicitSizes
        itemKeys = explicitSizes.indices.map { section in
            section < keys.count && keys[section].contains(where: { $0 != nil }) ? keys[section] : []
        }
        self.honeycomb = honeycomb
        layout = TileGrid(configuration: configuration,
                          sections: packing ? explicitSizes.map { $0.map { $0 ?? defaultSize } } : [])
    }

    /// A new grid's state: `content` at revision `revision`.
    ///
    /// - Throws: ``GridError`` when the content breaks a limit or its configuration is invalid.
    init(name: String, revision: Int, content: GridContent, packing: Bool = true) throws(GridError) {
        // Keys as every way in stores them (see ``GridLimits/canonical(_:)``), before they are checked.
        var content = content
        if content.keys.contains(where: { !$0.isEmpty }) {
            content.keys = content.keys.map { $0.map { $0.map(GridLimits.canonical) } }
        }
        self.init(name: name, revision: revision, configuration: try content.validatedConfiguration(),
                  defaultSize: content.defaultSize, explicitSizes: content.sections, keys: content.keys,
                  honeycomb: content.honeycomb, packing: packing)
    }

    /// The same grid with `size` for the items that have no size of their own, re-packed.
    func withDefaultSize(_ size: TileSize) -> GridSnapshot {
        GridSnapshot(name: name, revision: revision, configuration: configuration, defaultSize: size,
                     explicitSizes: explicitSizes, keys: itemKeys, honeycomb: honeycomb)
    }

    /// How the grid is laid out.
    public var kind: GridKind { honeycomb == nil ? .tiles : .honeycomb }

    /// The honeycomb layout of a honeycomb grid's items (its one section); `nil` for tiles.
    public var honeycombLayout: HoneycombLayout? {
        honeycomb.map { HoneycombLayout(itemCount: explicitSizes.first?.count ?? 0, configuration: $0) }
    }

    /// The columns, spans and direction.
    public var configuration: GridConfiguration { layout.configuration }

    /// The number of columns (rows, for a horizontal grid).
    public var columns: Int { configuration.columns }

    /// `less` for 4 columns, `more` for 6, `nil` for a custom count.
    public var type: LayoutType? { configuration.type }

    /// The direction the grid grows in.
    public var direction: ScrollDirection { configuration.direction }

    /// The number of items in each section.
    public var itemCounts: [Int] {
        // A closure, not `\.count`: a key path costs a process its instantiation at first use.
        explicitSizes.map { $0.count }
    }

    /// The number of items over all sections.
    public var totalItemCount: Int { explicitSizes.reduce(0) { $0 + $1.count } }

    /// The size of the item at `path`: its own, or the default.
    ///
    /// - Throws: ``GridError`` when the item does not exist.
    public func size(at path: GridIndexPath) throws(GridError) -> TileSize {
        try validate(path)
        return layout.size(at: path)
    }

    /// The size set for the item at `path`, or `nil` when it has the default size.
    public func explicitSize(at path: GridIndexPath) throws(GridError) -> TileSize? {
        try validate(path)
        return explicitSizes[path.section][path.item]
    }

    /// Every size set explicitly, by index path.
    public var explicitSizesByPath: [GridIndexPath: TileSize] {
        var result: [GridIndexPath: TileSize] = [:]
        for (section, sizes) in explicitSizes.enumerated() {
            for (item, size) in sizes.enumerated() {
                if let size { result[GridIndexPath(item: item, section: section)] = size }
            }
        }
        return result
    }

    // MARK: Keys

    /// The key of the item at `path`, or `nil` when it has none.
    ///
    /// - Throws: ``GridError`` when the item does not exist.
    public func key(at path: GridIndexPath) throws(GridError) -> String? {
        try validate(path)
        let keys = itemKeys[path.section]
        return keys.isEmpty ? nil : keys[path.item]
    }

    /// The index path of the item with the key `key`, or `nil` when no item has it.
    ///
    /// - Complexity: O(*n*) in the grid's items with keys.
    public func indexPath(forKey key: String) -> GridIndexPath? {
        for (section, keys) in itemKeys.enumerated() {
            if let item = keys.firstIndex(of: key) { return GridIndexPath(item: item, section: section) }
        }
        return nil
    }

    /// The index path of the item with the key `key`.
    ///
    /// - Throws: ``GridError/keyNotFound(_:grid:)`` when no item has it.
    public func requireIndexPath(forKey key: String) throws(GridError) -> GridIndexPath {
        guard let path = indexPath(forKey: key) else { throw .keyNotFound(key, grid: name) }
        return path
    }

    /// The size of the item with the key `key`: its own, or the default.
    ///
    /// - Throws: ``GridError/keyNotFound(_:grid:)`` when no item has it.
    public func size(forKey key: String) throws(GridError) -> TileSize {
        try size(at: requireIndexPath(forKey: key))
    }

    /// The keys of the items of `section`, one per item, `nil` for an item without a key.
    ///
    /// - Throws: ``GridError`` when the section does not exist.
    public func keys(inSection section: Int) throws(GridError) -> [String?] {
        try validate(section: section)
        let keys = itemKeys[section]
        return keys.isEmpty ? Array(repeating: nil, count: explicitSizes[section].count) : keys
    }

    /// ``itemKeys`` with an empty array for every section whose items have no key, so that two
    /// states with the same keys compare equal however they were edited.
    var normalizedItemKeys: [[String?]] {
        itemKeys.map { $0.contains { $0 != nil } ? $0 : [] }
    }

    /// Whether any item of the grid has a key.
    public var hasKeys: Bool { itemKeys.contains { $0.contains { $0 != nil } } }

    /// The cell rectangle of the item at `path`; for a horizontal grid `x` runs along the scroll axis.
    public func placement(at path: GridIndexPath) throws(GridError) -> CellRect {
        try validate(path)
        return layout.placement(at: path)
    }

    /// Throws unless an item exists at `path`.
    func validate(_ path: GridIndexPath) throws(GridError) {
        try validate(section: path.section)
        let count = explicitSizes[path.section].count
        guard path.item >= 0, path.item < count else {
            throw .itemOutOfRange(path, itemCount: count, allowsEnd: false)
        }
    }

    /// Throws unless `section` exists.
    func validate(section: Int) throws(GridError) {
        guard section >= 0, section < explicitSizes.count else {
            throw .sectionOutOfRange(section, sectionCount: explicitSizes.count)
        }
    }
}
