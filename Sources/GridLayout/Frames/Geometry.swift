/// A point in pixels (or points), with y growing downwards.
public struct LayoutPoint: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate.
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public var description: String { "(\(x), \(y))" }
}

/// A width and a height.
public struct LayoutSize: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The horizontal extent.
    public var width: Double
    /// The vertical extent.
    public var height: Double

    /// Creates a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Zero by zero.
    public static let zero = LayoutSize(width: 0, height: 0)

    public var description: String { "\(width)x\(height)" }
}

/// A rectangle: an origin (its top-left corner) and a size.
public struct LayoutRect: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner.
    public var origin: LayoutPoint
    /// The width and height.
    public var size: LayoutSize

    /// Creates a rectangle from its top-left corner and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = LayoutPoint(x: x, y: y)
        size = LayoutSize(width: width, height: height)
    }

    /// The left edge.
    public var minX: Double { origin.x }
    /// The top edge.
    public var minY: Double { origin.y }
    /// The right edge.
    public var maxX: Double { origin.x + size.width }
    /// The bottom edge.
    public var maxY: Double { origin.y + size.height }
    /// The center.
    /// The empty rectangle at the origin.
    public static let zero = LayoutRect(x: 0, y: 0, width: 0, height: 0)

    public var center: LayoutPoint { LayoutPoint(x: origin.x + size.width / 2, y: origin.y + size.height / 2) }

    /// Whether the rectangles overlap in an area (touching edges do not count).
    public func intersects(_ other: LayoutRect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    /// Whether `point` is inside, edges included.
    public func contains(_ point: LayoutPoint) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

    public var description: String { "(\(origin.x), \(origin.y), \(size.width)x\(size.height))" }
}

/// Space around a section's tiles, as a collection view's section insets.
public struct EdgeInsets: Codable, Hashable, Sendable {
    /// Space above.
    public var top: Double
    /// Space on the left.
    public var left: Double
    /// Space below.
    public var bottom: Double
    /// Space on the right.
    public var right: Double

    /// Creates insets.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same space on every side.
    public init(all value: Double) {
        self.init(top: value, left: value, bottom: value, right: value)
    }

    /// No insets.
    public static let zero = EdgeInsets()
}
