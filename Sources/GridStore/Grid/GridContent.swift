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

    /// Creates content.
    public init(columns: Int, direction: ScrollDirection = .vertical, defaultSize: TileSize = .small, sections: [[TileSize?]]) {
        self.columns = columns
        self.direction = direction
        self.defaultSize = defaultSize
        self.sections = sections
    }

    /// The content of a new grid made with `options`: every item has the default size.
    public init(_ options: GridOptions) {
        self.init(columns: options.columns, direction: options.direction, defaultSize: options.defaultSize,
                  sections: options.sectionItemCounts.map { Array(repeating: nil, count: max(0, $0)) })
    }

    /// Checks the limits and the configuration.
    func validatedConfiguration() throws(GridError) -> GridConfiguration {
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
}
