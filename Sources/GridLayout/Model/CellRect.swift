/// A cell position: column `x` and row `y`, from 0.
public struct CellPosition: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The column, from 0.
    public var x: Int
    /// The row, from 0.
    public var y: Int

    /// Creates a position at column `x`, row `y`.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    /// The top-left cell.
    public static let origin = CellPosition(x: 0, y: 0)

    public var description: String { "(\(x), \(y))" }
}

/// A rectangle of whole cells: its top-left cell (`x`, `y`) and its size in cells.
public struct CellRect: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The leftmost column.
    public var x: Int
    /// The top row.
    public var y: Int
    /// The width in cells.
    public var width: Int
    /// The height in cells.
    public var height: Int

    /// Creates a rectangle of `width` by `height` cells whose top-left cell is (`x`, `y`).
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The same rectangle with columns and rows swapped.
    public var transposed: CellRect { CellRect(x: y, y: x, width: height, height: width) }

    /// Whether the two rectangles share a cell.
    public func intersects(_ other: CellRect) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }

    public var description: String { "(\(x), \(y), \(width)x\(height))" }
}
