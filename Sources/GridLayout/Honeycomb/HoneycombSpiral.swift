/// The order of cells in a honeycomb: the center, then ring after ring outwards.
///
/// Ring k (k ≥ 1) holds 6k cells. It starts k steps to the right of the center (for
/// pointy-top rows) and goes clockwise on screen, along six sides of k steps each. Spiral
/// position p is the p-th cell of that order; rings before ring k hold `1 + 3k(k - 1)`
/// cells.
public enum HoneycombSpiral {
    /// The number of cells in rings 0 through `ring`: `1 + 3 ring (ring + 1)`.
    public static func cellCount(throughRing ring: Int) -> Int {
        ring < 0 ? 0 : 1 + 3 * ring * (ring + 1)
    }

    /// The ring holding spiral position `position`.
    ///
    /// - Complexity: O(1).
    public static func ring(ofPosition position: Int) -> Int {
        precondition(position >= 0, "spiral positions start at 0")
        if position == 0 { return 0 }
        // The smallest k with 1 + 3k(k + 1) > position, from the quadratic formula, then exact.
        var ring = Int(((Double(position) - 1) / 3 + 0.25).squareRoot() - 0.5)
        while cellCount(throughRing: ring) <= position { ring += 1 }
        while ring > 0 && cellCount(throughRing: ring - 1) > position { ring -= 1 }
        return ring
    }

    /// The cell at spiral position `position`.
    ///
    /// - Complexity: O(1).
    public static func coordinate(ofPosition position: Int) -> HexCoordinate {
        let ring = ring(ofPosition: position)
        guard ring > 0 else { return .origin }
        let offset = position - cellCount(throughRing: ring - 1)
        let side = offset / ring
        let step = offset % ring
        var cell = HexCoordinate(q: ring, r: 0)
        for previous in 0..<side {
            cell = cell.moved(HexCoordinate.directions[previous], steps: ring)
        }
        return cell.moved(HexCoordinate.directions[side], steps: step)
    }

    /// The spiral position of `cell`.
    ///
    /// - Complexity: O(1).
    public static func position(of cell: HexCoordinate) -> Int {
        let ring = cell.ring
        guard ring > 0 else { return 0 }
        var corner = HexCoordinate(q: ring, r: 0)
        for side in 0..<6 {
            let direction = HexCoordinate.directions[side]
            // The cell is on this side if it is corner + t * direction with 0 ≤ t < ring.
            let dq = cell.q - corner.q
            let dr = cell.r - corner.r
            let steps = direction.q != 0 ? dq / direction.q : dr / direction.r
            if steps >= 0 && steps < ring && dq == direction.q * steps && dr == direction.r * steps {
                return cellCount(throughRing: ring - 1) + side * ring + steps
            }
            corner = corner.moved(direction, steps: ring)
        }
        preconditionFailure("\(cell) is on ring \(ring) but on none of its sides")
    }
}
