/// What a tile grid looks like: its column count, the span of each tile size and the
/// direction it grows in.
///
/// ```swift
/// let phone = GridConfiguration(type: .more)                      // 6 columns, standard spans
/// let wide = try GridConfiguration(columns: 8, direction: .horizontal)
/// ```
public struct GridConfiguration: Hashable, Sendable {
    /// The most columns a grid may have.
    public static let maximumColumns = 64

    /// The number of columns (rows, for a horizontal grid).
    public let columns: Int
    /// The cell span of each tile size.
    public let spans: TileSpans
    /// The direction the grid grows in.
    public let direction: ScrollDirection

    /// Creates a configuration, checking that every span fits the columns.
    ///
    /// - Throws: ``LayoutConfigurationError`` for a column count outside 1 to
    ///   ``maximumColumns`` or a span wider than the grid.
    public init(columns: Int, spans: TileSpans = .standard, direction: ScrollDirection = .vertical)
        throws(LayoutConfigurationError) {
        guard (1...Self.maximumColumns).contains(columns) else { throw .columnsOutOfRange(columns) }
        for size in TileSize.allCases where spans[size].width > columns {
            throw .spanWiderThanGrid(size, width: spans[size].width, columns: columns)
        }
        self.columns = columns
        self.spans = spans
        self.direction = direction
    }

    /// Creates a configuration for a standard type (`less`: 4 columns, `more`: 6) with standard spans.
    public init(type: LayoutType, direction: ScrollDirection = .vertical) {
        columns = type.columns
        spans = .standard
        self.direction = direction
    }

    /// The standard type with this many columns, or `nil` for a custom count.
    public var type: LayoutType? { LayoutType(columns: columns) }
}
