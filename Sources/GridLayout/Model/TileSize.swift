/// The size of a tile: `small` (1x1 cells), `middle` (2x2) or `big` (4x2, a wide tile).
///
/// The cell spans are those of ``TileSpans/standard``; a ``GridConfiguration`` can give
/// other spans.
public enum TileSize: String, CaseIterable, Sendable, Hashable, Codable {
    /// One cell.
    case small
    /// A square of 2x2 cells.
    case middle
    /// A wide tile of 4x2 cells.
    case big

    /// The next size in the cycle small → middle → big → small.
    public func toggled() -> TileSize {
        switch self {
        case .small: .middle
        case .middle: .big
        case .big: .small
        }
    }
}
