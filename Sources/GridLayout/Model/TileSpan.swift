/// How many cells a tile covers: `width` across the grid's columns, `height` along its rows.
///
/// Spans are given for a vertical grid; a horizontal grid uses the same spans, transposed.
public struct TileSpan: Hashable, Sendable, CustomStringConvertible {
    private let storedWidth: UInt8
    private let storedHeight: UInt8

    /// The largest width or height a span may have.
    public static let maximumLength = 64

    /// Creates a span of `width` by `height` cells.
    ///
    /// - Precondition: Both are from 1 to ``maximumLength``. Spans from user input are
    ///   checked with a clear error by ``TileSpans/init(small:middle:big:)``.
    public init(width: Int, height: Int) {
        precondition((1...Self.maximumLength).contains(width) && (1...Self.maximumLength).contains(height),
                     "a tile span is 1 to \(Self.maximumLength) cells each way, not \(width)x\(height)")
        storedWidth = UInt8(width)
        storedHeight = UInt8(height)
    }

    /// The number of columns the tile covers.
    public var width: Int { Int(storedWidth) }

    /// The number of rows the tile covers.
    public var height: Int { Int(storedHeight) }

    /// `4x2`.
    public var description: String { "\(width)x\(height)" }
}
