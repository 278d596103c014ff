/// Items on a honeycomb: concentric hexagonal rings around a center item, for any count.
///
/// Positions come from exact axial coordinates (``HoneycombSpiral``): item 0 in the center
/// (or the last item, with ``HoneycombConfiguration/CenterItem/last``), then ring after
/// ring, the outermost ring partial when the count is not `1 + 3k(k + 1)`. Neighbouring
/// centers are `elementWidth + itemSpacing` apart; a cell is a regular hexagon
/// `elementWidth` across its flat sides, and its frame is that hexagon's bounding box.
/// The content starts at (0, 0): no frame has a negative coordinate.
///
/// ```swift
/// let layout = HoneycombLayout(itemCount: 19, configuration: try HoneycombConfiguration(elementWidth: 60, itemSpacing: 6))
/// layout.coordinate(ofItem: 7)            // (q: 2, r: 0): the start of ring 2
/// layout.frame(ofItem: 0)                 // the center cell's frame
/// layout.item(at: LayoutPoint(x: 10, y: 10))   // nil: a corner of the content is a gap
/// ```
public struct HoneycombLayout: Sendable {
    /// The number of items.
    public let itemCount: Int
    /// The geometry.
    public let configuration: HoneycombConfiguration

    /// The content's size: the bounding box of every frame.
    public let contentSize: LayoutSize

    /// The content position of the center cell's center.
    private let origin: LayoutPoint

    /// `√3 / 2`: the ratio between row spacing and center distance.
    static let rowFactor = 3.0.squareRoot() / 2

    /// The most items a honeycomb lays out: 2^40, far beyond any screen, and small enough that
    /// no cell count or coordinate overflows.
    public static let maximumItemCount = 1 << 40

    /// Lays out `itemCount` items; a count above ``maximumItemCount`` lays out that many.
    ///
    /// - Precondition: `itemCount` is not negative (a programmer's error, as a negative array count is).
    /// - Complexity: O(√n): only the two outermost rings decide the content's size.
    public init(itemCount: Int, configuration: HoneycombConfiguration) {
        precondition(itemCount >= 0, "a honeycomb has 0 or more items")
        let itemCount = min(itemCount, Self.maximumItemCount)
        self.itemCount = itemCount
        self.configuration = configuration
        guard itemCount > 0 else {
            contentSize = .zero
            origin = LayoutPoint(x: 0, y: 0)
            return
        }
        // The extremes are on the last full ring or the partial one beyond it.
        let outer = HoneycombSpiral.ring(ofPosition: itemCount - 1)
        let first = HoneycombSpiral.cellCount(throughRing: outer - 2)
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for position in first..<itemCount {
            let cell = HoneycombSpiral.coordinate(ofPosition: Self.cellPosition(ofOrderPosition: position, configuration.ringOrder))
            let center = Self.unshiftedCenter(cell, configuration: configuration)
            minX = min(minX, center.x)
            maxX = max(maxX, center.x)
            minY = min(minY, center.y)
            maxY = max(maxY, center.y)
        }
        let size = Self.cellSize(configuration)
        origin = LayoutPoint(x: size.width / 2 - minX, y: size.height / 2 - minY)
        contentSize = LayoutSize(width: maxX - minX + size.width, height: maxY - minY + size.height)
    }

    // MARK: Items and cells

    /// The spiral position of `item`.
    @inline(__always)
    func spiralPosition(ofItem item: Int) -> Int {
        guard configuration.centerItem == .last else { return item }
        return item == itemCount - 1 ? 0 : item + 1
    }

    /// The item at spiral position `position`.
    @inline(__always)
    func item(atSpiralPosition position: Int) -> Int {
        guard configuration.centerItem == .last else { return position }
        return position == 0 ? itemCount - 1 : position - 1
    }

    /// The position in ``HoneycombSpiral``'s order of the cell at `position` in `order`: the
    /// same for `standard`; for `original`, one side further round the same ring.
    @inline(__always)
    static func cellPosition(ofOrderPosition position: Int, _ order: HoneycombConfiguration.RingOrder) -> Int {
        guard order == .original, position > 0 else { return position }
        let ring = HoneycombSpiral.ring(ofPosition: position)
        let base = HoneycombSpiral.cellCount(throughRing: ring - 1)
        return base + (position - base + ring) % (6 * ring)
    }

    /// The position in `order` of the cell at `position` in ``HoneycombSpiral``'s order.
    @inline(__always)
    static func orderPosition(ofCellPosition position: Int, _ order: HoneycombConfiguration.RingOrder) -> Int {
        guard order == .original, position > 0 else { return position }
        let ring = HoneycombSpiral.ring(ofPosition: position)
        let base = HoneycombSpiral.cellCount(throughRing: ring - 1)
        return base + (position - base + 5 * ring) % (6 * ring)
    }

    /// The cell of `item`.
    ///
    /// - Precondition: `item` is from 0 to `itemCount - 1`: an index out of range is a
    ///   programming error and traps, as an array's does.
    /// - Complexity: O(1).
    public func coordinate(ofItem item: Int) -> HexCoordinate {
        precondition(item >= 0 && item < itemCount, "item \(item) is outside 0..<\(itemCount)")
        return HoneycombSpiral.coordinate(ofPosition: Self.cellPosition(ofOrderPosition: spiralPosition(ofItem: item),
                                                                         configuration.ringOrder))
    }

    /// The item in `cell`, or `nil` when the cell is beyond the last item.
    ///
    /// - Complexity: O(1).
    public func item(at cell: HexCoordinate) -> Int? {
        let position = Self.orderPosition(ofCellPosition: HoneycombSpiral.position(of: cell), configuration.ringOrder)
        return position < itemCount ? item(atSpiralPosition: position) : nil
    }

    /// The ring of `item`: 0 for the center.
    ///
    /// - Complexity: O(1).
    public func ring(ofItem item: Int) -> Int {
        coordinate(ofItem: item).ring
    }

    // MARK: Geometry

    /// The size of every frame: `elementWidth` across the flats, `2 / √3` times that across the points.
    static func cellSize(_ configuration: HoneycombConfiguration) -> LayoutSize {
        let across = configuration.elementWidth
        let pointToPoint = across / rowFactor
        return configuration.orientation == .pointyTop
            ? LayoutSize(width: across, height: pointToPoint)
            : LayoutSize(width: pointToPoint, height: across)
    }

    /// A cell's center relative to the center cell's.
    @inline(__always)
    static func unshiftedCenter(_ cell: HexCoordinate, configuration: HoneycombConfiguration) -> LayoutPoint {
        let distance = configuration.centerDistance
        switch configuration.orientation {
        case .pointyTop:
            return LayoutPoint(x: distance * (Double(cell.q) + Double(cell.r) / 2), y: distance * rowFactor * Double(cell.r))
        case .flatTop:
            return LayoutPoint(x: distance * rowFactor * Double(cell.q), y: distance * (Double(cell.r) + Double(cell.q) / 2))
        }
    }

    /// The center of `cell` in content coordinates.
    ///
    /// - Complexity: O(1).
    public func center(of cell: HexCoordinate) -> LayoutPoint {
        let unshifted = Self.unshiftedCenter(cell, configuration: configuration)
        return LayoutPoint(x: unshifted.x + origin.x, y: unshifted.y + origin.y)
    }

    /// The frame of `item`: its hexagon's bounding box.
    ///
    /// - Precondition: `item` is from 0 to `itemCount - 1` (out of range, it traps as an array does).
    /// - Complexity: O(1).
    public func frame(ofItem item: Int) -> LayoutRect {
        frame(of: coordinate(ofItem: item))
    }

    /// The frame of the hexagon at `cell`.
    ///
    /// - Complexity: O(1).
    public func frame(of cell: HexCoordinate) -> LayoutRect {
        let center = center(of: cell)
        let size = Self.cellSize(configuration)
        return LayoutRect(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height)
    }

    /// Every item's frame, in item order.
    ///
    /// - Complexity: O(n), walking the rings cell by cell without division or trigonometry.
    public func frames() -> [LayoutRect] {
        var frames = [LayoutRect](repeating: LayoutRect(x: 0, y: 0, width: 0, height: 0), count: itemCount)
        let size = Self.cellSize(configuration)
        walkSpiral { item, cell in
            let center = self.center(of: cell)
            frames[item] = LayoutRect(x: center.x - size.width / 2, y: center.y - size.height / 2,
                                      width: size.width, height: size.height)
        }
        return frames
    }

    /// Every item's cell, in item order.
    ///
    /// - Complexity: O(n).
    public func cells() -> [HexCoordinate] {
        var cells = [HexCoordinate](repeating: .origin, count: itemCount)
        walkSpiral { item, cell in cells[item] = cell }
        return cells
    }

    /// Calls `body` with each item and its cell, in spiral order, stepping from cell to cell.
    private func walkSpiral(_ body: (_ item: Int, _ cell: HexCoordinate) -> Void) {
        var position = 0
        var cell = HexCoordinate.origin
        var ring = 0
        var side = 0
        var step = 0
        // The original order starts each ring one side further round.
        let firstSide = configuration.ringOrder == .original ? 1 : 0
        while position < itemCount {
            body(item(atSpiralPosition: position), cell)
            position += 1
            // Along the current side, or on to the next ring's start.
            if ring == 0 || (side == 5 && step == ring - 1) {
                ring += 1
                side = 0
                step = 0
                cell = HexCoordinate(q: ring, r: 0).moved(HexCoordinate.directions[0], steps: ring * firstSide)
            } else {
                cell = cell.moved(HexCoordinate.directions[(side + firstSide) % 6])
                step += 1
                if step == ring {
                    side += 1
                    step = 0
                }
            }
        }
    }

    /// Whether `point` is inside the hexagon of `cell` (its edges included).
    ///
    /// - Complexity: O(1).
    public func contains(_ point: LayoutPoint, in cell: HexCoordinate) -> Bool {
        let center = center(of: cell)
        var dx = abs(point.x - center.x)
        var dy = abs(point.y - center.y)
        if configuration.orientation == .flatTop { swap(&dx, &dy) }
        // A pointy-top hexagon: vertical flat sides, and four slanted sides whose normals
        // are 60° apart. Its apothem (half the width across the flats) is elementWidth / 2.
        let apothem = configuration.elementWidth / 2
        return dx <= apothem && dx / 2 + dy * Self.rowFactor <= apothem
    }

    /// The cell whose center is nearest `point`.
    ///
    /// A coordinate that is not a number counts as the center's; coordinates are clamped to
    /// 2^40 cells from the center, so no point, however far, overflows.
    ///
    /// - Complexity: O(1).
    public func nearestCell(to point: LayoutPoint) -> HexCoordinate {
        let distance = configuration.centerDistance
        let limit = Double(Self.maximumItemCount) * distance
        func clamped(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, -limit), limit) }
        let x = clamped(point.x - origin.x), y = clamped(point.y - origin.y)
        // Fractional axial coordinates, then cube rounding.
        let fq: Double, fr: Double
        switch configuration.orientation {
        case .pointyTop:
            fr = y / (distance * Self.rowFactor)
            fq = x / distance - fr / 2
        case .flatTop:
            fq = x / (distance * Self.rowFactor)
            fr = y / distance - fq / 2
        }
        let fs = -fq - fr
        var q = fq.rounded(), r = fr.rounded()
        let s = fs.rounded()
        let dq = abs(q - fq), dr = abs(r - fr), ds = abs(s - fs)
        if dq > dr && dq > ds {
            q = -r - s
        } else if dr > ds {
            r = -q - s
        }
        return HexCoordinate(q: Int(q), r: Int(r))
    }

    /// The item whose hexagon contains `point`, or `nil` in the gaps between cells and
    /// outside the honeycomb.
    ///
    /// - Complexity: O(1).
    public func item(at point: LayoutPoint) -> Int? {
        guard itemCount > 0, point.x.isFinite, point.y.isFinite,
              abs(point.x) < 1e15, abs(point.y) < 1e15 else { return nil }
        let cell = nearestCell(to: point)
        guard let item = item(at: cell), contains(point, in: cell) else { return nil }
        return item
    }

    /// The items whose frames overlap `rect` (touching is not overlapping), in item order.
    ///
    /// - Complexity: O(c + k log k) for the c cells whose frames could reach `rect` and k
    ///   items found; the rest of the honeycomb is never visited.
    public func items(in rect: LayoutRect) -> [Int] {
        guard itemCount > 0, rect.size.width >= 0, rect.size.height >= 0,
              rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else { return [] }
        let bounds = LayoutRect(x: 0, y: 0, width: contentSize.width, height: contentSize.height)
        guard rect.intersects(bounds) else { return [] }
        // Clip to the content, so a huge rectangle costs no more than the honeycomb.
        let minX = max(rect.minX, 0), maxX = min(rect.maxX, contentSize.width)
        let minY = max(rect.minY, 0), maxY = min(rect.maxY, contentSize.height)
        let size = Self.cellSize(configuration)
        let distance = configuration.centerDistance
        let along = distance * Self.rowFactor  // between rows (pointy-top) or columns (flat-top)
        var found: [Int] = []
        switch configuration.orientation {
        case .pointyTop:
            // Rows whose cells' frames can reach the rectangle, then the cells in each row.
            let firstRow = Int(((minY - origin.y - size.height / 2) / along).rounded(.down))
            let lastRow = Int(((maxY - origin.y + size.height / 2) / along).rounded(.up))
            for r in firstRow...lastRow {
                let shift = Double(r) / 2
                let firstQ = Int(((minX - origin.x - size.width / 2) / distance - shift).rounded(.down))
                let lastQ = Int(((maxX - origin.x + size.width / 2) / distance - shift).rounded(.up))
                collect(q: firstQ...lastQ, r: r...r, rect: rect, into: &found)
            }
        case .flatTop:
            let firstColumn = Int(((minX - origin.x - size.width / 2) / along).rounded(.down))
            let lastColumn = Int(((maxX - origin.x + size.width / 2) / along).rounded(.up))
            for q in firstColumn...lastColumn {
                let shift = Double(q) / 2
                let firstR = Int(((minY - origin.y - size.height / 2) / distance - shift).rounded(.down))
                let lastR = Int(((maxY - origin.y + size.height / 2) / distance - shift).rounded(.up))
                collect(q: q...q, r: firstR...lastR, rect: rect, into: &found)
            }
        }
        found.sort()
        return found
    }

    private func collect(q qs: ClosedRange<Int>, r rs: ClosedRange<Int>, rect: LayoutRect, into found: inout [Int]) {
        for r in rs {
            for q in qs {
                let cell = HexCoordinate(q: q, r: r)
                if let item = item(at: cell), frame(of: cell).intersects(rect) { found.append(item) }
            }
        }
    }

    /// The scale of `item` in `viewport`, from its center's depth inside the viewport.
    ///
    /// - Complexity: O(1).
    public func scale(ofItem item: Int, in viewport: LayoutRect, scaling: EdgeScaling) -> Double {
        scaling.scale(at: frame(ofItem: item).center, in: viewport)
    }
}
