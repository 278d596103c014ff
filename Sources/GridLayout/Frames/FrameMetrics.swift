/// The pixel measurements that turn cells into frames: the container's width across the
/// scroll axis, the spacing between cells and the insets around each section.
public struct FrameMetrics: Hashable, Sendable {
    /// The container's length across the scroll axis: its width for a vertical grid,
    /// its height for a horizontal one.
    public let crossAxisLength: Double
    /// The gap between neighbouring cells, in both directions.
    public let spacing: Double
    /// The space around each section's tiles.
    public let sectionInsets: EdgeInsets

    /// Creates metrics.
    ///
    /// - Throws: ``LayoutConfigurationError/invalidGeometry(_:)`` for a length, spacing or
    ///   inset that is negative or not finite.
    public init(crossAxisLength: Double, spacing: Double = 0, sectionInsets: EdgeInsets = .zero)
        throws(LayoutConfigurationError) {
        let values = [crossAxisLength, spacing, sectionInsets.top, sectionInsets.left, sectionInsets.bottom, sectionInsets.right]
        guard values.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            throw .invalidGeometry("lengths, spacing and insets must be finite and not negative")
        }
        self.crossAxisLength = crossAxisLength
        self.spacing = spacing
        self.sectionInsets = sectionInsets
    }

    /// The side of a (square) cell in a grid of `columns` columns growing in `direction`:
    /// `(length - insets - (columns - 1) * spacing) / columns`.
    public func cellLength(columns: Int, direction: ScrollDirection) -> Double {
        let insets = direction == .vertical
            ? sectionInsets.left + sectionInsets.right
            : sectionInsets.top + sectionInsets.bottom
        return (crossAxisLength - insets - Double(columns - 1) * spacing) / Double(columns)
    }

    /// The length of a span of `cells` cells: `cells * cell + (cells - 1) * spacing`.
    @inline(__always)
    public func length(ofCells cells: Int, cellLength: Double) -> Double {
        Double(cells) * cellLength + Double(cells - 1) * spacing
    }
}
