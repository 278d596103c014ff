/// A tile grid laid out in a scrolling view: everything a collection view's layout (or a
/// SwiftUI `Layout`) asks of it, for one viewport and the item counts the view shows.
///
/// It never throws and never traps: a viewport that leaves no room (a first layout pass at
/// width 0) gives a zero content size and zero-size frames at the origin, and an index path
/// outside the view's counts has no frame. The grid is reconciled with the view's counts, so a data source that
/// is ahead of or behind the stored grid is laid out as it is shown: items the grid lacks get
/// `missingItemSize`, and items the view lacks are left out.
///
/// Frames are in content coordinates, starting at (0, 0) where the insets end: the frames
/// a collection view expects, whose content insets and safe area lie outside its content size.
///
/// A view shows at most ``GridCapacity/maximumItems`` items in at most
/// ``GridCapacity/maximumSections`` sections, as a stored grid holds: sections and items past
/// them have no frame.
///
/// ```swift
/// let grid = TileGrid(configuration: GridConfiguration(type: .less), sections: [[.big, .small]])
/// let layout = TileViewLayout(grid: grid, itemCounts: [3], viewport: LayoutViewport(width: 320, height: 480), spacing: 8)
/// layout.frame(at: GridIndexPath(item: 2))                  // the data source's third item: (82, 164, 74x74)
/// layout.isInvalidated(by: LayoutViewport(width: 480, height: 320))   // true: rotated
/// ```
public struct TileViewLayout<Strategy: PackingStrategy>: Sendable {
    /// The grid as the view shows it: the given grid with the view's item counts.
    public let grid: TileGrid<Strategy>
    /// The viewport the frames were made for.
    public let viewport: LayoutViewport
    /// The frames, or `nil` when the viewport leaves no room for a cell.
    public let frames: GridFrames<Strategy>?

    /// Lays `grid` out in `viewport`.
    ///
    /// - Parameters:
    ///   - itemCounts: The item count of each section the view shows (its data source's), or
    ///     `nil` to show the grid's own. A negative count is taken as 0, and counts past
    ///     ``GridCapacity`` are cut.
    ///   - missingItemSize: The size of the items the view shows that the grid lacks: the
    ///     grid's default size, for a stored grid.
    ///   - spacing: The gap between cells; a negative or non-finite spacing is taken as 0.
    ///   - sectionInsets: The space around each section's tiles; each negative or non-finite
    ///     inset is taken as 0.
    /// - Complexity: O(*n* + rows) for the *n* items shown (``GridFrames/init(grid:metrics:)``),
    ///   plus re-packing each section whose count `itemCounts` changes, from its first item
    ///   added or cut.
    public init(grid: TileGrid<Strategy>, itemCounts: [Int]? = nil, missingItemSize: TileSize = .small,
                viewport: LayoutViewport, spacing: Double = 0, sectionInsets: EdgeInsets = .zero) {
        let shown = itemCounts.map { Self.reconcile(grid, with: $0, missingItemSize: missingItemSize) } ?? grid
        self.grid = shown
        self.viewport = viewport
        let length = viewport.crossAxisLength(for: shown.configuration.direction)
        let insets = EdgeInsets(top: Self.length(sectionInsets.top), left: Self.length(sectionInsets.left),
                                bottom: Self.length(sectionInsets.bottom), right: Self.length(sectionInsets.right))
        let metrics = try? FrameMetrics(crossAxisLength: length, spacing: Self.length(spacing), sectionInsets: insets)
        frames = metrics.flatMap { try? GridFrames(grid: shown, metrics: $0) }
    }

    /// `value` as a length: 0 for a negative or non-finite one.
    static func length(_ value: Double) -> Double {
        value.isFinite && value > 0 ? value : 0
    }

    /// The item count of each section, as the view shows them.
    public var itemCounts: [Int] { grid.itemCounts }

    /// The size of everything the view scrolls through: zero when there is no room.
    public var contentSize: LayoutSize { frames?.contentSize ?? .zero }

    /// The frame of the item at `path`, or `nil` for a path outside the view's counts: what a
    /// collection view's `layoutAttributesForItem(at:)` returns. Where there is no room, an
    /// item the view has gets ``LayoutRect/zero``, since UIKit asks for one.
    ///
    /// - Complexity: O(1).
    public func frame(at path: GridIndexPath) -> LayoutRect? {
        guard grid.sections.indices.contains(path.section),
              (0..<grid.sections[path.section].count).contains(path.item) else { return nil }
        return frames?.frame(at: path) ?? .zero
    }

    /// Each item whose frame overlaps `rect`, with its frame, in index-path order.
    ///
    /// - Complexity: As ``GridFrames/items(in:)``: never every item.
    public func frames(in rect: LayoutRect) -> [(indexPath: GridIndexPath, frame: LayoutRect)] {
        frames?.frames(in: rect) ?? []
    }

    /// The item whose frame holds `point`, or `nil` over spacing, insets or empty cells.
    ///
    /// - Complexity: As ``GridFrames/items(in:)`` for a rectangle of one point.
    public func item(at point: LayoutPoint) -> GridIndexPath? {
        frames?.item(at: point)
    }

    /// Whether the frames are stale in `newViewport`: whether its length across the scroll axis
    /// differs (a rotation, a split view resized, the first pass with a real size). Scrolling
    /// and a change along the scroll axis (a keyboard shown) leave the frames as they are.
    public func isInvalidated(by newViewport: LayoutViewport) -> Bool {
        let direction = grid.configuration.direction
        return newViewport.crossAxisLength(for: direction) != viewport.crossAxisLength(for: direction)
    }

    /// The length across the scroll axis, section insets included, at which the cells of
    /// `configuration`'s columns are `cellLength` long: the size to ask for when a view is
    /// offered unlimited room (a SwiftUI proposal of `nil` or infinity). The viewport's own
    /// insets come on top. A length, spacing or inset that is negative or not finite is taken as
    /// 0, and so is a result beyond ``LayoutViewport/maximumLength``.
    public static func idealCrossAxisLength(for configuration: GridConfiguration, cellLength: Double = 80, spacing: Double = 0,
                                            sectionInsets: EdgeInsets = .zero) -> Double {
        let columns = Double(configuration.columns)
        let insets = configuration.direction == .vertical
            ? length(sectionInsets.left) + length(sectionInsets.right)
            : length(sectionInsets.top) + length(sectionInsets.bottom)
        let ideal = columns * length(cellLength) + (columns - 1) * length(spacing) + insets
        return ideal <= LayoutViewport.maximumLength ? ideal : 0
    }

    /// `grid` with `counts`: sections and items past the counts removed, and the ones missing
    /// added with `size`.
    static func reconcile(_ grid: TileGrid<Strategy>, with counts: [Int], missingItemSize size: TileSize) -> TileGrid<Strategy> {
        var remaining = GridCapacity.maximumItems
        let counts = counts.prefix(GridCapacity.maximumSections).map { count in
            let shown = min(max(0, count), remaining)
            remaining -= shown
            return shown
        }
        guard grid.itemCounts != counts else { return grid }
        var grid = grid
        while grid.sections.count > counts.count { grid.removeSection(at: grid.sections.count - 1) }
        for (section, count) in counts.enumerated() {
            guard section < grid.sections.count else {
                grid.insertSection(Array(repeating: size, count: count), at: section)
                continue
            }
            let current = grid.sections[section].count
            if count < current {
                grid.replaceItems(count..<current, inSection: section, with: [])
            } else if count > current {
                grid.replaceItems(current..<current, inSection: section, with: Array(repeating: size, count: count - current))
            }
        }
        return grid
    }
}
