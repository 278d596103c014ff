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

extension GridSummary {
    /// The summary a stored row holds, every value checked as reading the grid would.
    ///
    /// - Throws: ``GridError/corrupted(_:)`` naming the grid and what is wrong.
    init(_ row: StoredGridSummaryRow) throws(GridError) {
        func inconsistent(_ what: String) -> GridError {
            .corrupted("grid '\(TextExcerpt.abbreviated(row.name))' has \(what)")
        }
        do {
            try GridLimits.validate(name: row.name)
        } catch {
            throw .corrupted("a grid's name is not one a grid may have: \(error)")
        }
        guard let direction = ScrollDirection(rawValue: row.direction) else { throw inconsistent("an unknown direction") }
        guard let kind = GridKind(rawValue: row.kind) else { throw inconsistent("an unknown layout kind") }
        guard (1...Int64(GridConfiguration.maximumColumns)).contains(row.columns) else {
            throw inconsistent("\(row.columns) columns")
        }
        guard row.revision >= 0, row.revision < Int64.max else { throw inconsistent("an impossible revision") }
        guard (0...Int64(GridLimits.maximumSections)).contains(row.sectionCount),
              (0...Int64(GridLimits.maximumItems)).contains(row.itemCount) else {
            throw inconsistent("\(row.sectionCount) sections of \(row.itemCount) items, more than a grid holds")
        }
        guard GridHistoryEntry.isTimestamp(row.updatedAt) else {
            throw inconsistent("a change time that is not of the form 2026-11-30T11:32:01.123Z")
        }
        self.init(name: row.name, columns: Int(row.columns), direction: direction, sectionCount: Int(row.sectionCount),
                  itemCount: Int(row.itemCount), revision: Int(row.revision), updatedAt: row.updatedAt, kind: kind)
    }
}

extension GridStorageTransaction {
    /// Every grid, by name, each row checked.
    func grids() throws -> [GridSummary] {
        try listGrids().map { row throws(GridError) in try GridSummary(row) }
    }
}
