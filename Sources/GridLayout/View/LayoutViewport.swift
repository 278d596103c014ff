/// The room a scrolling view gives a grid: the view's size, less the insets its content keeps
/// clear of (for a collection view, its adjusted content insets: the content insets and the
/// safe area).
public struct LayoutViewport: Hashable, Sendable {
    /// The view's size (a collection view's `bounds.size`).
    public var size: LayoutSize
    /// The space the content keeps clear of on each side.
    public var insets: EdgeInsets

    /// Creates a viewport of `size`, with `insets` kept clear.
    public init(size: LayoutSize, insets: EdgeInsets = .zero) {
        self.size = size
        self.insets = insets
    }

    /// Creates a viewport `width` by `height`, with `insets` kept clear.
    public init(width: Double, height: Double, insets: EdgeInsets = .zero) {
        self.init(size: LayoutSize(width: width, height: height), insets: insets)
    }

    /// The longest length a viewport gives a grid across its scroll axis: 1,000,000,000 points.
    public static var maximumLength: Double { 1_000_000_000 }

    /// The length across a grid's scroll axis left for its tiles: the width less the left and
    /// right insets for a vertical grid, the height less the top and bottom insets for a
    /// horizontal one (negative insets, which a collection view may have, add to it). It is 0
    /// when nothing is left (a view's first layout pass, before it has a size), when a value
    /// is not finite, and beyond ``maximumLength``.
    public func crossAxisLength(for direction: ScrollDirection) -> Double {
        let length = direction == .vertical
            ? size.width - insets.left - insets.right
            : size.height - insets.top - insets.bottom
        return length.isFinite && length > 0 && length <= Self.maximumLength ? length : 0
    }
}
