/// A grid of tiles in sections, packed after every change.
///
/// Each section is packed on its own, as if it were a grid of its own; the sections
/// are stacked along the scroll axis (see ``GridFrames`` for their pixel positions).
/// Every edit re-packs only from the first item it affects, and the result always
/// equals packing the whole grid afresh.
///
/// ```swift
/// var grid = TileGrid(configuration: GridConfiguration(type: .less), sections: [[.small, .middle, .big]])
/// grid.sections[0][2]                          // (0, 2, 4x2)
/// grid.setSize(.small, at: GridIndexPath(item: 1))
/// grid.sections[0].extent                      // 3
/// ```
public struct TileGrid<Strategy: PackingStrategy>: Sendable {
    /// The columns, spans and direction.
    @inlinable public var configuration: GridConfiguration { storedConfiguration }
    @usableFromInline var storedConfiguration: GridConfiguration

    /// The strategy that places each tile.
    public let strategy: Strategy

    /// The sections, in order.
    @inlinable public var sections: [TileGridSection<Strategy>] { storedSections }
    @usableFromInline var storedSections: [TileGridSection<Strategy>]

    /// Creates a grid with the sizes of each section's items, and packs it.
    @inlinable
    public init(configuration: GridConfiguration, strategy: Strategy, sections: [[TileSize]] = []) {
        storedConfiguration = configuration
        self.strategy = strategy
        storedSections = sections.map { TileGridSection(sizes: $0, configuration: configuration, strategy: strategy) }
    }

    /// The size of the item at `path`.
    public func size(at path: GridIndexPath) -> TileSize {
        sections[path.section].sizes[path.item]
    }

    /// The cell rectangle of the item at `path`, in the grid's orientation.
    public func placement(at path: GridIndexPath) -> CellRect {
        sections[path.section][path.item]
    }

    /// The number of items in every section.
    public var itemCounts: [Int] { sections.map(\.count) }

    // MARK: Editing

    /// Sets the size of the item at `path` and re-packs its section from it.
    ///
    /// - Complexity: O(*m* - *i*) for the *m* items of the section and the item's index *i*,
    ///   plus the search of the re-placed tiles (``TilePacker/replaceSubrange(_:with:)``).
    @inlinable
    public mutating func setSize(_ size: TileSize, at path: GridIndexPath) {
        replaceItems(path.item..<(path.item + 1), inSection: path.section, with: [size])
    }

    /// Inserts an item of `size` at `path`, moving later items of its section up by one.
    ///
    /// `path.item` may equal the section's count, to append.
    ///
    /// - Complexity: O(*m* - *i*) for the *m* items of the section and the index *i*, plus
    ///   the search of the re-placed tiles.
    @inlinable
    public mutating func insertItem(_ size: TileSize, at path: GridIndexPath) {
        replaceItems(path.item..<path.item, inSection: path.section, with: [size])
    }

    /// Removes the item at `path`, moving later items of its section down by one.
    ///
    /// - Returns: The removed item's size.
    /// - Complexity: O(*m* - *i*) for the *m* items of the section and the index *i*, plus
    ///   the search of the re-placed tiles.
    @discardableResult
    @inlinable
    public mutating func removeItem(at path: GridIndexPath) -> TileSize {
        let size = size(at: path)
        replaceItems(path.item..<(path.item + 1), inSection: path.section, with: [])
        return size
    }

    /// Moves the item at `source` to `destination`, as a collection view's drag and drop does.
    ///
    /// `destination` is the item's index path after the move.
    ///
    /// - Complexity: O(*m* - min(*source*, *destination*)) within a section of *m* items;
    ///   between sections, a remove and an insert. Plus the search of the re-placed tiles.
    @inlinable
    public mutating func moveItem(from source: GridIndexPath, to destination: GridIndexPath) {
        guard source != destination else { return }
        if source.section == destination.section {
            let low = min(source.item, destination.item)
            let high = max(source.item, destination.item)
            var moved = Array(sections[source.section].sizes[low...high])
            if source.item < destination.item {
                moved.append(moved.removeFirst())
            } else {
                moved.insert(moved.removeLast(), at: 0)
            }
            replaceItems(low..<(high + 1), inSection: source.section, with: moved)
        } else {
            let size = removeItem(at: source)
            insertItem(size, at: destination)
        }
    }

    /// Replaces the items in `range` of `section` with items of `newSizes`, re-packing the
    /// section from `range.lowerBound`.
    ///
    /// - Complexity: O(*m* - `range.lowerBound` + `newSizes.count`) for the section's *m*
    ///   items, plus the search of the re-placed tiles.
    @inlinable
    public mutating func replaceItems(_ range: Range<Int>, inSection section: Int, with newSizes: [TileSize]) {
        storedSections[section].replaceSubrange(range, with: newSizes, spans: storedConfiguration.spans)
    }

    /// Inserts a section of items with `sizes` at `index`, moving later sections up by one.
    ///
    /// - Complexity: Packing its *k* items (O(*k* + rows)), plus O(*s*) for the grid's *s* sections.
    public mutating func insertSection(_ sizes: [TileSize], at index: Int) {
        storedSections.insert(TileGridSection(sizes: sizes, configuration: configuration, strategy: strategy), at: index)
    }

    /// Removes the section at `index`, moving later sections down by one.
    ///
    /// - Complexity: O(*s*) for the grid's *s* sections.
    public mutating func removeSection(at index: Int) {
        storedSections.remove(at: index)
    }

    /// Changes the columns, spans or direction, re-packing every section.
    ///
    /// - Complexity: Packing every item afresh: O(*n* + rows) for the grid's *n* items.
    public mutating func reconfigure(_ newConfiguration: GridConfiguration) {
        guard newConfiguration != configuration else { return }
        storedConfiguration = newConfiguration
        storedSections = storedSections.map { TileGridSection(sizes: $0.sizes, configuration: newConfiguration, strategy: strategy) }
    }
}

extension TileGrid where Strategy == DensePacking {
    /// Creates a densely packed grid with the sizes of each section's items.
    public init(configuration: GridConfiguration, sections: [[TileSize]] = []) {
        self.init(configuration: configuration, strategy: DensePacking(), sections: sections)
    }
}
