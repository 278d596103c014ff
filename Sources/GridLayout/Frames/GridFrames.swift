/// The pixel frames of a ``TileGrid``'s tiles, its content size, and a fast query for the
/// tiles in a rectangle.
///
/// Cells are square. For a container whose length across the scroll axis is `length`,
/// a cell's side is `(length - insets - (columns - 1) * spacing) / columns`, and a span of
/// k cells is `k * cell + (k - 1) * spacing` long, as in the original iOS layout. Sections
/// follow each other along the scroll axis, each surrounded by the section insets.
///
/// ```swift
/// let grid = TileGrid(configuration: GridConfiguration(type: .less), sections: [[.big, .small]])
/// let frames = try GridFrames(grid: grid, metrics: FrameMetrics(crossAxisLength: 320, spacing: 8))
/// frames.cellLength                            // 74
/// frames.frame(at: GridIndexPath(item: 0))     // (0, 0, 320x156)
/// frames.items(in: LayoutRect(x: 0, y: 160, width: 320, height: 10))   // [section 0, item 1]
/// ```
public struct GridFrames<Strategy: PackingStrategy>: Sendable {
    /// The measurements the frames were made with.
    public let metrics: FrameMetrics
    /// The side of one cell.
    public let cellLength: Double
    /// The size of everything: the container's cross-axis length by the sections' total length.
    public let contentSize: LayoutSize
    /// Each section's area, insets included.
    public let sectionFrames: [LayoutRect]

    private let grid: TileGrid<Strategy>
    private let rowIndexes: [RowIndex]
    private let tallestSpan: Int

    /// Computes the frames of `grid`'s tiles.
    ///
    /// - Throws: ``LayoutConfigurationError/invalidGeometry(_:)`` when the insets and
    ///   spacing leave no room for a cell.
    /// - Complexity: O(n + rows), for n items.
    public init(grid: TileGrid<Strategy>, metrics: FrameMetrics) throws(LayoutConfigurationError) {
        let configuration = grid.configuration
        let cell = metrics.cellLength(columns: configuration.columns, direction: configuration.direction)
        guard cell > 0 else {
            throw .invalidGeometry("a container \(LayoutConfigurationError.format(metrics.crossAxisLength)) long leaves no room "
                + "for \(configuration.columns) columns with spacing \(LayoutConfigurationError.format(metrics.spacing)) and the insets")
        }
        self.grid = grid
        self.metrics = metrics
        cellLength = cell
        tallestSpan = TileSize.allCases.map { configuration.spans[$0].height }.max() ?? 1

        let insets = metrics.sectionInsets
        let vertical = configuration.direction == .vertical
        var frames: [LayoutRect] = []
        var offset = 0.0
        for section in grid.sections {
            let tiles = section.extent > 0 ? metrics.length(ofCells: section.extent, cellLength: cell) : 0
            if vertical {
                let height = insets.top + tiles + insets.bottom
                frames.append(LayoutRect(x: 0, y: offset, width: metrics.crossAxisLength, height: height))
                offset += height
            } else {
                let width = insets.left + tiles + insets.right
                frames.append(LayoutRect(x: offset, y: 0, width: width, height: metrics.crossAxisLength))
                offset += width
            }
        }
        sectionFrames = frames
        contentSize = vertical
            ? LayoutSize(width: metrics.crossAxisLength, height: offset)
            : LayoutSize(width: offset, height: metrics.crossAxisLength)
        rowIndexes = grid.sections.map { RowIndex(packer: $0.packer) }
    }

    /// The frame of the item at `path`.
    ///
    /// - Complexity: O(1).
    public func frame(at path: GridIndexPath) -> LayoutRect {
        frame(of: grid.sections[path.section].packer[path.item], inSection: path.section)
    }

    /// The frame of a rectangle of packing cells (vertical orientation) in `section`.
    private func frame(of cells: CellRect, inSection section: Int) -> LayoutRect {
        let step = cellLength + metrics.spacing
        let insets = metrics.sectionInsets
        let sectionFrame = sectionFrames[section]
        let across = Double(cells.x) * step
        let along = Double(cells.y) * step
        let acrossLength = metrics.length(ofCells: cells.width, cellLength: cellLength)
        let alongLength = metrics.length(ofCells: cells.height, cellLength: cellLength)
        if grid.configuration.direction == .vertical {
            return LayoutRect(x: insets.left + across, y: sectionFrame.minY + insets.top + along,
                              width: acrossLength, height: alongLength)
        }
        return LayoutRect(x: sectionFrame.minX + insets.left + along, y: insets.top + across,
                          width: alongLength, height: acrossLength)
    }

    /// The items whose frames overlap `rect` (touching is not overlapping), by index path.
    ///
    /// A rectangle with a negative size or a coordinate that is not finite has no items, as in
    /// ``HoneycombLayout/items(in:)``; a rectangle far larger than the content costs no more
    /// than the content.
    ///
    /// - Complexity: O(s + r + k log k) for s sections, r rows crossing `rect` and k items
    ///   found: only tiles starting near those rows are examined, never every item.
    public func items(in rect: LayoutRect) -> [GridIndexPath] {
        guard rect.size.width >= 0, rect.size.height >= 0,
              rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else { return [] }
        var found: [GridIndexPath] = []
        let vertical = grid.configuration.direction == .vertical
        let step = cellLength + metrics.spacing
        for (section, sectionFrame) in sectionFrames.enumerated() where sectionFrame.intersects(rect) {
            let index = rowIndexes[section]
            guard index.rowCount > 0 else { continue }
            // The query's span along the scroll axis, relative to the section's first row.
            let start = vertical ? rect.minY - sectionFrame.minY - metrics.sectionInsets.top
                                 : rect.minX - sectionFrame.minX - metrics.sectionInsets.left
            let end = start + (vertical ? rect.size.height : rect.size.width)
            // Clamped to the section's rows before conversion, so no query can overflow an Int.
            let rows = Double(index.rowCount)
            let firstRow = max(0, Int(min(max(start / step, 0), rows).rounded(.down)) - (tallestSpan - 1))
            let lastRow = min(index.rowCount - 1, Int(min(max(end / step, 0), rows).rounded(.down)))
            guard firstRow <= lastRow else { continue }
            let packer = grid.sections[section].packer
            var hits: [Int] = []
            for item in index.items(startingInRows: firstRow...lastRow)
            where frame(of: packer[item], inSection: section).intersects(rect) {
                hits.append(item)
            }
            hits.sort()
            found.append(contentsOf: hits.lazy.map { GridIndexPath(item: $0, section: section) })
        }
        return found
    }

    /// Each item whose frame overlaps `rect`, with its frame: what a collection-view layout's
    /// `layoutAttributesForElements(in:)` returns, in index-path order.
    ///
    /// - Complexity: As ``items(in:)``.
    public func frames(in rect: LayoutRect) -> [(indexPath: GridIndexPath, frame: LayoutRect)] {
        items(in: rect).map { ($0, frame(at: $0)) }
    }

    /// The item whose frame holds `point` (a frame's right and bottom edges are outside it), or
    /// `nil` over spacing, insets or empty cells: what a tap at `point` hits.
    ///
    /// - Complexity: As ``items(in:)`` for a rectangle of one point.
    public func item(at point: LayoutPoint) -> GridIndexPath? {
        guard point.x.isFinite, point.y.isFinite else { return nil }
        // A rectangle around the point overlaps the frame that holds it; the frames it finds are then tested exactly.
        let probe = LayoutRect(x: point.x - 0.5, y: point.y - 0.5, width: 1, height: 1)
        return items(in: probe).first { path in
            let frame = frame(at: path)
            return point.x >= frame.minX && point.x < frame.maxX && point.y >= frame.minY && point.y < frame.maxY
        }
    }
}

/// The items of a section grouped by the row their tile starts in (a compressed row index).
private struct RowIndex: Sendable {
    /// `items[rowStarts[r]..<rowStarts[r + 1]]` are the items starting in row r.
    private let rowStarts: [Int32]
    private let items: [Int32]

    init<Strategy>(packer: TilePacker<Strategy>) {
        let rows = packer.extent
        var counts = [Int32](repeating: 0, count: rows + 1)
        for rect in packer { counts[rect.y + 1] += 1 }
        for row in 0..<rows { counts[row + 1] += counts[row] }
        var next = counts
        var items = [Int32](repeating: 0, count: packer.count)
        for (item, rect) in packer.enumerated() {
            items[Int(next[rect.y])] = Int32(item)
            next[rect.y] += 1
        }
        rowStarts = counts
        self.items = items
    }

    var rowCount: Int { rowStarts.count - 1 }

    func items(startingInRows rows: ClosedRange<Int>) -> some Sequence<Int> {
        items[Int(rowStarts[rows.lowerBound])..<Int(rowStarts[rows.upperBound + 1])].lazy.map { Int($0) }
    }
}
