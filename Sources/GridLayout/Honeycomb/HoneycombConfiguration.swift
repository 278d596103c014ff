/// The geometry of a honeycomb: cell size, spacing, orientation and which item sits in the center.
public struct HoneycombConfiguration: Hashable, Sendable {
    /// Whether cells form horizontal rows or vertical columns.
    public enum Orientation: String, CaseIterable, Sendable {
        /// Rows of cells, each row offset by half a cell; hexagons point up (as the original).
        case pointyTop = "pointy-top"
        /// Columns of cells, each column offset by half a cell; hexagons have flat tops.
        case flatTop = "flat-top"
    }

    /// Which item takes the center cell.
    public enum CenterItem: String, CaseIterable, Sendable {
        /// Item 0 in the center, then the spiral outwards.
        case first
        /// The last item in the center, then items 0, 1, ... outwards, as the original layout did.
        case last
    }

    /// Where each ring starts.
    public enum RingOrder: String, CaseIterable, Sendable {
        /// Each ring starts straight to the right of the center (pointy-top rows; below it
        /// for flat-top columns) and goes round clockwise on screen.
        case standard
        /// Each ring starts one side (60°) further round, at the lower right of the center,
        /// as the original iOS layout's ring 1 did; then clockwise, as `standard`.
        case original
    }

    /// A cell's width across its flat sides: the distance between the flats that face its neighbours.
    public let elementWidth: Double
    /// The gap between neighbouring cells' facing sides.
    public let itemSpacing: Double
    /// Rows or columns.
    public let orientation: Orientation
    /// Which item is in the center.
    public let centerItem: CenterItem
    /// Where each ring starts.
    public let ringOrder: RingOrder
    /// How cells shrink near a viewport's edges when no other curve is asked for.
    public let scalingCurve: EdgeScaling.Curve

    /// The largest cell width and spacing: every entry point (the initializer, documents, the
    /// command line) accepts the same ranges, a width above 0 and a spacing from 0, both up to this.
    public static let maximumLength = 1_000_000.0

    /// Creates a configuration.
    ///
    /// - Throws: ``LayoutConfigurationError/invalidGeometry(_:)`` unless `elementWidth` is
    ///   above 0 and `itemSpacing` at least 0, both at most ``maximumLength``.
    public init(elementWidth: Double = 60, itemSpacing: Double = 6, orientation: Orientation = .pointyTop,
                centerItem: CenterItem = .first, ringOrder: RingOrder = .standard,
                scalingCurve: EdgeScaling.Curve = .linear) throws(LayoutConfigurationError) {
        guard elementWidth.isFinite, elementWidth > 0, elementWidth <= Self.maximumLength else {
            throw .invalidGeometry("a honeycomb cell's width must be a positive number up to 1000000, not \(LayoutConfigurationError.format(elementWidth))")
        }
        guard itemSpacing.isFinite, itemSpacing >= 0, itemSpacing <= Self.maximumLength else {
            throw .invalidGeometry("the spacing between honeycomb cells must be a number from 0 to 1000000, not \(LayoutConfigurationError.format(itemSpacing))")
        }
        self.elementWidth = elementWidth
        // `-0` as `0`: one spacing of nothing, whichever way it was spelled.
        self.itemSpacing = itemSpacing + 0
        self.orientation = orientation
        self.centerItem = centerItem
        self.ringOrder = ringOrder
        self.scalingCurve = scalingCurve
    }

    /// The distance between the centers of neighbouring cells: `elementWidth + itemSpacing`.
    public var centerDistance: Double { elementWidth + itemSpacing }
}
