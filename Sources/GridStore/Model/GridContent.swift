import GridLayout

/// Everything that defines a grid but its name and revision: what export writes and import reads.
public struct GridContent: Sendable, Hashable {
    /// The number of columns.
    public var columns: Int
    /// The direction the grid grows in.
    public var direction: ScrollDirection
    /// The size of items without a size of their own.
    public var defaultSize: TileSize
    /// Each section's items: their own size, or `nil` for the default size.
    public var sections: [[TileSize?]]
    /// For a honeycomb grid, its geometry; `nil` for a grid of tiles.
    public var honeycomb: HoneycombConfiguration?
    /// Each section's item keys, one per item (`nil` for an item without a key). A section
    /// past the end of this array, or whose array is empty, has no keys; a key names one item
    /// of the grid.
    public var keys: [[String?]] = []

    /// Creates the content of a grid of tiles.
    public init(columns: Int, direction: ScrollDirection = .vertical, defaultSize: TileSize = .small, sections: [[TileSize?]]) {
        self.columns = columns
        self.direction = direction
        self.defaultSize = defaultSize
        self.sections = sections
    }

    /// Creates the content of a honeycomb grid of `itemCount` items.
    public init(honeycomb: HoneycombConfiguration, itemCount: Int) {
        self.init(columns: LayoutType.more.columns, sections: [Array(repeating: nil, count: Self.allocatable(itemCount))])
        self.honeycomb = honeycomb
    }

    /// The content of a new grid made with `options`: every item has the default size.
    public init(_ options: GridOptions) {
        if let honeycomb = options.honeycomb {
            self.init(honeycomb: honeycomb, itemCount: options.sectionItemCounts.reduce(0, +))
            return
        }
        self.init(columns: options.columns, direction: options.direction, defaultSize: options.defaultSize,
                  sections: options.sectionItemCounts.map { Array(repeating: nil, count: Self.allocatable($0)) })
    }

    /// A count to allocate for: one over the limit at most, so that a huge count is refused by
    /// ``validatedConfiguration()`` rather than exhausting memory first. (``GridOptions/validate()``
    /// refuses it with the count it had.)
    private static func allocatable(_ count: Int) -> Int {
        min(max(0, count), GridLimits.maximumItems + 1)
    }

    /// Checks the limits and the configuration.
    func validatedConfiguration() throws(GridError) -> GridConfiguration {
        if honeycomb != nil {
            guard sections.count == 1, sections[0].allSatisfy({ $0 == nil }) else {
                throw .notTiles(operation: "have sections or sizes", grid: nil)
            }
        }
        try validateKeys()
        guard sections.count <= GridLimits.maximumSections else {
            throw .limitExceeded("a grid has at most \(GridLimits.maximumSections) sections, not \(sections.count)")
        }
        let total = sections.reduce(0) { $0 + $1.count }
        guard total <= GridLimits.maximumItems else {
            throw .limitExceeded("a grid holds at most \(GridLimits.maximumItems) items, not \(total)")
        }
        do {
            return try GridConfiguration(columns: columns, direction: direction)
        } catch {
            throw .invalidConfiguration(error)
        }
    }

    /// Checks that every key is valid, belongs to an item, and names one item only.
    private func validateKeys() throws(GridError) {
        guard !keys.isEmpty else { return }
        guard keys.count <= sections.count else {
            throw .limitExceeded("keys are given for \(keys.count) sections, but the grid has \(sections.count)")
        }
        var seen = Set<String>()
        for (section, sectionKeys) in keys.enumerated() where !sectionKeys.isEmpty {
            guard sectionKeys.count == sections[section].count else {
                throw .limitExceeded("section \(section) has \(sections[section].count) item(s) but "
                                     + "\(sectionKeys.count) key(s); give one key (or null) per item")
            }
            for key in sectionKeys {
                guard let key else { continue }
                try GridLimits.validate(key: key)
                guard seen.insert(key).inserted else { throw .repeatedKey(key) }
            }
        }
    }
}
