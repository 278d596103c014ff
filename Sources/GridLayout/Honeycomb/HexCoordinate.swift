/// A cell of a hexagonal lattice in axial coordinates (`q`, `r`), with the third cube
/// coordinate `s = -q - r` implied.
///
/// For rows of cells ("pointy-top", the default), `q` runs along a row and `r` counts
/// rows; for columns ("flat-top"), `q` counts columns and `r` runs along one. All
/// arithmetic is on integers, so positions never drift off the lattice.
public struct HexCoordinate: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The axial column.
    public var q: Int
    /// The axial row.
    public var r: Int

    /// Creates the cell at axial (`q`, `r`).
    public init(q: Int, r: Int) {
        self.q = q
        self.r = r
    }

    /// The center cell.
    public static let origin = HexCoordinate(q: 0, r: 0)

    /// The third cube coordinate: `-q - r`.
    public var s: Int { -q - r }

    /// The ring the cell is on: its distance in steps from the center.
    public var ring: Int { max(abs(q), abs(r), abs(s)) }

    /// The six neighbour directions, in the order a ring is walked: from the ring's start
    /// (straight to the right of the center for pointy-top rows) clockwise on screen.
    public static let directions: [HexCoordinate] = [
        HexCoordinate(q: -1, r: 1), HexCoordinate(q: -1, r: 0), HexCoordinate(q: 0, r: -1),
        HexCoordinate(q: 1, r: -1), HexCoordinate(q: 1, r: 0), HexCoordinate(q: 0, r: 1),
    ]

    /// The cell `steps` cells away in `direction`.
    public func moved(_ direction: HexCoordinate, steps: Int = 1) -> HexCoordinate {
        HexCoordinate(q: q + direction.q * steps, r: r + direction.r * steps)
    }

    /// The number of steps between two cells.
    public func distance(to other: HexCoordinate) -> Int {
        HexCoordinate(q: q - other.q, r: r - other.r).ring
    }

    public var description: String { "(q: \(q), r: \(r))" }
}
