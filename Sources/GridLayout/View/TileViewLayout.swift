/// A tile grid laid out in a scrolling view: everything a collection view's layout (or a
/// SwiftUI `Layout`) asks of it, for one viewport and the item counts the view shows.
///
/// It never throws and never traps: a viewport that leaves no room (a first layout pass at
/// width 0) gives no frames and a zero content size, and an index path outside the view's
/// counts has no frame. The grid is reconciled with the view's counts, so a data source that
/// is ahead of or behind the stored grid is laid out as it is shown: items the grid lacks get
/// `missingItemSize`, and items the view lacks are left out.
///
/// Frames are in content coordinates, starting at (0, 0) where the insets end: the frames
/// a collection view expects, whose content insets and safe area lie outside its content size.
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
    ///     `nil` to show the grid's own. A negative count is taken as 0.
    ///   - missingItemSize: The size of the items the view shows that the grid lacks: the
    ///     grid's default size, for a stored grid.
    ///   - spacing: The gap between cells; a negative or infinite spacing is taken as 0.
    ///   - sectionInsets: The space around each section's tiles; likewise.
    public init(grid: TileGrid<Strategy>, itemCounts: [Int]? = nil, missingItemSize: TileSize = .small,
                viewport: LayoutViewport, spacing: Double = 0, sectionInsets: EdgeInsets = .zero) {
        let shown = itemCounts.map { Self.reconcile(grid, with: $0, missingItemSize: missingItemSize) } ?? grid
        self.grid = shown
        self.viewport = viewport
        let length = viewport.crossAxisLength(for: shown.configuration.direction)
        let metrics = (try? FrameMetrics(crossAxisLength: length, spacing: spacing, sectionInsets: sectionInsets))
            ?? (try? FrameMetrics(crossAxisLength: length))
        frames = metrics.flatMap { try? GridFrames(grid: shown, metrics: $0) }
    }

    /// The item count of each section, as the view shows them.
    public var itemCounts: [Int] { grid.itemCounts }

    /// The size of everything the view scrolls through: zero when there is no room.
    public var contentSize: LayoutSize { frames?.contentSize ?? .zero }

    /// The frame of the item at `path`, or `nil` for a path outside the view's counts or when
    /// there is no room: what a collection view's `layoutAttributesForItem(at:)` returns.
    public func frame(at path: GridIndexPath) -> LayoutRect? {
        guard let frames, grid.sections.indices.contains(path.section),
              (0..<grid.sections[path.section].count).contains(path.item) else { return nil }
        return frames.frame(at: path)
    }

    /// Each item whose frame overlaps `rect`, with its frame, in index-path order.
    public func frames(in rect: LayoutRect) -> [(indexPath: GridIndexPath, frame: LayoutRect)] {
        frames?.frames(in: rect) ?? []
    }

    /// The item whose frame holds `point`, or `nil` over spacing, insets or empty cells.
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

    /// The length across the scroll axis at which cells are `cellLength` long: the size to
    /// ask for when a view is offered unlimited room (a SwiftUI proposal of `nil` or infinity).
    /// A length or spacing that is negative or not finite is taken as 0.
    public static func idealCrossAxisLength(columns: Int, cellLength: Double = 80, spacing: Double = 0) -> Double {
        let columns = Double(max(1, columns))
        let cell = cellLength.isFinite ? max(0, cellLength) : 0
        let gap = spacing.isFinite ? max(0, spacing) : 0
        return columns * cell + (columns - 1) * gap
    }

    /// `grid` with `counts`: sections and items past the counts removed, and the ones missing
    /// added with `size`.
    static func reconcile(_ grid: TileGrid<Strategy>, with counts: [Int], missingItemSize size: TileSize) -> TileGrid<Strategy> {
        let counts = counts.map { max(0, $0) }
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
