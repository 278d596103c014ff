/// Why a grid configuration or frame geometry was rejected.
public enum LayoutConfigurationError: Codable, Error, Sendable, Equatable, CustomStringConvertible {
    /// The column count is outside 1 to ``GridConfiguration/maximumColumns``.
    case columnsOutOfRange(Int)
    /// A size's span is not 1 to ``TileSpan/maximumLength`` cells each way.
    case invalidSpan(TileSize, width: Int, height: Int)
    /// A size's span is wider than the grid.
    case spanWiderThanGrid(TileSize, width: Int, columns: Int)
    /// The small items per row, which is the column count, is not a whole number from 1 to
    /// ``GridConfiguration/maximumColumns``.
    case smallItemsPerRowInvalid(Double)
    /// An "items per row" value does not divide the columns into whole cells.
    case itemsPerRowNotWhole(TileSize, itemsPerRow: Double, columns: Int)
    /// The frame geometry leaves no room for a cell, or has negative spacing or insets.
    case invalidGeometry(String)

    public var description: String {
        switch self {
        case .columnsOutOfRange(let columns):
            return "a grid has 1 to \(GridConfiguration.maximumColumns) columns, not \(columns)"
        case .invalidSpan(let size, let width, let height):
            return "a \(size) tile must span 1 to \(TileSpan.maximumLength) cells each way, not \(width)x\(height)"
        case .spanWiderThanGrid(let size, let width, let columns):
            return "a \(size) tile spans \(width) columns but the grid has only \(columns); "
                + "use at least \(width) columns or a narrower \(size) span"
        case .smallItemsPerRowInvalid(let perRow):
            return "small items per row is the column count: a whole number from 1 to "
                + "\(GridConfiguration.maximumColumns), not \(Self.format(perRow))"
        case .itemsPerRowNotWhole(let size, let perRow, let columns):
            return "\(Self.format(perRow)) \(size) items per row would make each \(Self.format(Double(columns) / perRow)) "
                + "of \(columns) columns wide; choose a count that divides \(columns) into whole cells"
        case .invalidGeometry(let reason):
            return reason
        }
    }

    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        let hundredths = (value * 100).rounded() / 100
        return String(hundredths)
    }
}
