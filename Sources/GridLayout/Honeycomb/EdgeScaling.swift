/// How items shrink as they near a viewport's edges: full size deeper than `edgeDistance`
/// inside the viewport, `minimumScaleFactor` at the edge and outside it, and in between
/// along `curve`.
///
/// The depth is the item's center's distance to the *nearest* edge, so the scale is
/// continuous everywhere, corners included. (The original layout tested one edge at a
/// time: a cell 69.9 pt from the left edge and 5 pt from the top got 0.999, and at 70.1 pt
/// it got 0.4.)
public struct EdgeScaling: Hashable, Sendable {
    /// The shape of the change between the edge and `edgeDistance`.
    public enum Curve: String, CaseIterable, Sendable {
        /// Straight from the minimum to 1.
        case linear
        /// An S-curve (smoothstep: 3t² - 2t³) whose slope is 0 at both ends, so the size
        /// starts and stops changing gently.
        case smooth
        /// The original iOS layout's curve: `max(minimum, depth / edgeDistance)`, so the size
        /// stays at the minimum until the depth reaches that fraction of the edge distance,
        /// then grows straight to 1. The depth is still measured to the nearest edge.
        case original
    }

    /// How deep inside the viewport an item reaches full size.
    public let edgeDistance: Double
    /// The scale at the edge and outside the viewport.
    public let minimumScaleFactor: Double
    /// The shape in between.
    public let curve: Curve

    /// Creates edge scaling; the defaults are the original layout's.
    ///
    /// - Throws: ``LayoutConfigurationError/invalidGeometry(_:)`` unless `edgeDistance` is
    ///   positive and `minimumScaleFactor` is from 0 to 1.
    public init(edgeDistance: Double = 70, minimumScaleFactor: Double = 0.4, curve: Curve = .linear)
        throws(LayoutConfigurationError) {
        guard edgeDistance.isFinite, edgeDistance > 0 else {
            throw .invalidGeometry("the edge distance must be a positive number, not \(LayoutConfigurationError.format(edgeDistance))")
        }
        guard minimumScaleFactor.isFinite, (0...1).contains(minimumScaleFactor) else {
            throw .invalidGeometry("the minimum scale factor must be from 0 to 1, not \(LayoutConfigurationError.format(minimumScaleFactor))")
        }
        self.edgeDistance = edgeDistance
        self.minimumScaleFactor = minimumScaleFactor
        self.curve = curve
    }

    /// The scale for an item centered at `point` in `viewport`.
    public func scale(at point: LayoutPoint, in viewport: LayoutRect) -> Double {
        // Positive inside: the distance to the nearest edge. Negative outside.
        let depth = min(point.x - viewport.minX, viewport.maxX - point.x, point.y - viewport.minY, viewport.maxY - point.y)
        let progress = min(1, max(0, depth / edgeDistance))
        switch curve {
        case .linear: return minimumScaleFactor + (1 - minimumScaleFactor) * progress
        case .smooth: return minimumScaleFactor + (1 - minimumScaleFactor) * progress * progress * (3 - 2 * progress)
        case .original: return max(minimumScaleFactor, progress)
        }
    }
}
