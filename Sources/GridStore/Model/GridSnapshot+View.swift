import GridLayout

extension GridSnapshot {
    /// The grid laid out in a scrolling view that shows `itemCounts` items (its data source's
    /// counts, or the grid's own when `nil`): items the grid lacks get its default size.
    /// For a grid of tiles; a honeycomb's frames are its ``honeycombLayout``'s.
    ///
    /// ```swift
    /// let layout = try sizes.snapshot().viewLayout(itemCounts: [items.count],
    ///                                              viewport: LayoutViewport(width: 390, height: 844), spacing: 8)
    /// layout.frames(in: LayoutRect(x: 0, y: 0, width: 390, height: 844))
    /// ```
    public func viewLayout(itemCounts: [Int]? = nil, viewport: LayoutViewport, spacing: Double = 0,
                           sectionInsets: EdgeInsets = .zero) -> TileViewLayout<DensePacking> {
        TileViewLayout(grid: layout, itemCounts: itemCounts, missingItemSize: defaultSize, viewport: viewport,
                       spacing: spacing, sectionInsets: sectionInsets)
    }
}
