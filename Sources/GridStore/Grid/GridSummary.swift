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
    /// How the grid is laid out: tiles, or a honeycomb (whose columns and direction mean nothing).
    public let kind: GridKind

    package init(name: String, columns: Int, direction: ScrollDirection, sectionCount: Int, itemCount: Int, revision: Int,
                 updatedAt: String, kind: GridKind = .tiles) {
        self.kind = kind
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

    private enum CodingKeys: String, CodingKey {
        case name, columns, direction, sectionCount, itemCount, revision, updatedAt, kind
    }

    /// Decodes a summary; one encoded before summaries had a kind is of tiles.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        columns = try container.decode(Int.self, forKey: .columns)
        direction = try container.decode(ScrollDirection.self, forKey: .direction)
        sectionCount = try container.decode(Int.self, forKey: .sectionCount)
        itemCount = try container.decode(Int.self, forKey: .itemCount)
        revision = try container.decode(Int.self, forKey: .revision)
        updatedAt = try container.decode(String.self, forKey: .updatedAt)
        kind = try container.decodeIfPresent(GridKind.self, forKey: .kind) ?? .tiles
    }
}
