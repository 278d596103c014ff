import GridLayout

/// A one-line description of a stored grid, for listings.
public struct GridSummary: Codable, Sendable, Hashable {
    /// The grid's name.
    public let name: String
    /// The number of columns.
    public let columns: Int
    /// The direction the grid grows in.
    public let direction: ScrollDirection
    /// The number of sections.
    public let sectionCount: Int
    /// The number of items over all sections.
    public let itemCount: Int
    /// The grid's revision.
    public let revision: Int
    /// When the grid last changed (ISO 8601, UTC).
    public let updatedAt: String

    package init(name: String, columns: Int, direction: ScrollDirection, sectionCount: Int, itemCount: Int, revision: Int,
                 updatedAt: String) {
        self.name = name
        self.columns = columns
        self.direction = direction
        self.sectionCount = sectionCount
        self.itemCount = itemCount
        self.revision = revision
        self.updatedAt = updatedAt
    }

    /// `less`, `more`, or `nil` for custom columns.
    public var type: LayoutType? { LayoutType(columns: columns) }
}
