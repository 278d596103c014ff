import GridLayout

/// How a new grid starts: its columns, direction, default size and sections.
///
/// The defaults are those of `gridstore init`: type `more` (6 columns), vertical, every
/// item `small`, one section of 12 items.
public struct GridOptions: Sendable, Hashable {
    /// The number of columns: 4 is type `less`, 6 is `more`, any other count is custom.
    public var columns: Int
    /// The direction the grid grows in.
    public var direction: ScrollDirection
    /// The size of items that have none set.
    public var defaultSize: TileSize
    /// The number of items in each section.
    public var sectionItemCounts: [Int]
    /// For a honeycomb grid, its geometry (it then has one section of all the items); `nil` for tiles.
    public var honeycomb: HoneycombConfiguration?

    /// Creates options; see the type's description for the defaults.
    public init(columns: Int = LayoutType.more.columns, direction: ScrollDirection = .vertical,
                defaultSize: TileSize = .small, sectionItemCounts: [Int] = [12]) {
        self.columns = columns
        self.direction = direction
        self.defaultSize = defaultSize
        self.sectionItemCounts = sectionItemCounts
    }

    /// Creates options for a honeycomb grid of `itemCount` items.
    public init(honeycomb: HoneycombConfiguration, itemCount: Int) {
        self.init(sectionItemCounts: [itemCount])
        self.honeycomb = honeycomb
    }

    /// Creates options for a standard type.
    public init(type: LayoutType, direction: ScrollDirection = .vertical, defaultSize: TileSize = .small,
                sectionItemCounts: [Int] = [12]) {
        self.init(columns: type.columns, direction: direction, defaultSize: defaultSize, sectionItemCounts: sectionItemCounts)
    }

    /// Checks the counts against gridstore's limits before anything is allocated for them.
    ///
    /// - Throws: ``GridError/invalidItemCount(_:)`` for a negative count or one over
    ///   ``GridLimits/maximumItems``, and ``GridError/limitExceeded(_:)`` for too many sections
    ///   or items in all.
    public func validate() throws(GridError) {
        guard sectionItemCounts.count <= GridLimits.maximumSections else {
            throw .limitExceeded("a grid has at most \(GridLimits.maximumSections) sections, not \(sectionItemCounts.count)")
        }
        var total = 0
        for count in sectionItemCounts {
            guard count >= 0, count <= GridLimits.maximumItems else { throw .invalidItemCount(count) }
            total += count  // cannot overflow: each count is at most the limit, and there are at most 10,000
        }
        guard total <= GridLimits.maximumItems else {
            throw .limitExceeded("a grid holds at most \(GridLimits.maximumItems) items, not \(total)")
        }
    }
}
