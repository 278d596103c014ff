import GridLayout
import GridStore
import GridStoreSQLite
import GridStorePostgreSQL

/// A grid as its tables hold it, read with plain SQL rather than through ``GridStore/Grid``,
/// so tests and the reliability suite can check what gridstore wrote.
public struct StoredGrid: Equatable, Sendable {
    /// The grid's revision.
    public var revision: Int
    /// The column count.
    public var columns: Int
    /// `vertical` or `horizontal`.
    public var direction: String
    /// The default size's name.
    public var defaultSize: String
    /// Each section's item count.
    public var itemCounts: [Int]
    /// `section:item:size` for every size set explicitly.
    public var explicitSizes: [String]
    /// `section:item:size:x,y,w,h` from the `placements` view.
    public var placements: [String]

    /// Reads grid `name` from the database at `path` (a file, or a `postgresql://` URI) on a
    /// read-only connection of its own; `nil` when there is no such grid.
    public static func read(_ name: String, path: String) throws -> StoredGrid? {
        if let server = PostgreSQLLocation(path) { return try read(name, server: server) }
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        connection.setBusyTimeout(milliseconds: GridDatabase.busyTimeoutMilliseconds)
        return try connection.transaction {
            guard let row = try connection.fetchOne(
                "SELECT id, revision, columns, direction, default_size FROM grids WHERE name = ?", [name],
                { ($0.int(at: 0), $0.int(at: 1), $0.int(at: 2), $0.string(at: 3), $0.string(at: 4)) })
            else { return nil }
            return StoredGrid(
                revision: row.1, columns: row.2, direction: row.3, defaultSize: row.4,
                itemCounts: try connection.fetchAll("SELECT item_count FROM sections WHERE grid_id = ? ORDER BY section", [row.0]) {
                    $0.int(at: 0)
                },
                explicitSizes: try connection.fetchAll(
                    "SELECT section, item, size FROM item_sizes WHERE grid_id = ? ORDER BY section, item", [row.0]
                ) { "\($0.int(at: 0)):\($0.int(at: 1)):\($0.string(at: 2))" },
                placements: try connection.fetchAll("SELECT section, item, size, x, y, w, h FROM placements WHERE grid = ?", [name]) {
                    "\($0.int(at: 0)):\($0.int(at: 1)):\($0.string(at: 2)):\($0.int(at: 3)),\($0.int(at: 4)),\($0.int(at: 5)),\($0.int(at: 6))"
                })
        }
    }

    private static func read(_ name: String, server: PostgreSQLLocation) throws -> StoredGrid? {
        let connection = try PostgreSQLConnection(server)
        try connection.executeScript("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        defer { _ = try? connection.executeScript("COMMIT") }
        let grid = try connection.execute("SELECT id, revision, columns, direction, default_size FROM grids WHERE name = $1", [name])
        guard grid.count == 1 else { return nil }
        let id = [grid.string(0, 0)]
        let counts = try connection.execute("SELECT item_count FROM sections WHERE grid_id = $1 ORDER BY section", id)
        let sizes = try connection.execute("SELECT section, item, size FROM item_sizes WHERE grid_id = $1 ORDER BY section, item", id)
        let placements = try connection.execute("SELECT section, item, size, x, y, w, h FROM placements WHERE grid = $1", [name])
        return StoredGrid(
            revision: Int(grid.int(0, 1)), columns: Int(grid.int(0, 2)), direction: grid.string(0, 3), defaultSize: grid.string(0, 4),
            itemCounts: (0..<counts.count).map { Int(counts.int($0, 0)) },
            explicitSizes: (0..<sizes.count).map { "\(sizes.int($0, 0)):\(sizes.int($0, 1)):\(sizes.string($0, 2))" },
            placements: (0..<placements.count).map { row in
                "\(placements.int(row, 0)):\(placements.int(row, 1)):\(placements.string(row, 2)):"
                    + "\(placements.int(row, 3)),\(placements.int(row, 4)),\(placements.int(row, 5)),\(placements.int(row, 6))"
            })
    }

    /// The placements a fresh pack of the stored sizes gives, in the view's format.
    public func freshPlacements() -> [String] {
        guard let direction = ScrollDirection(rawValue: direction),
              let configuration = try? GridConfiguration(columns: columns, direction: direction),
              let defaultSize = TileSize(rawValue: defaultSize) else { return ["invalid settings"] }
        var sizes = itemCounts.map { Array(repeating: defaultSize, count: $0) }
        for entry in explicitSizes {
            let parts = entry.split(separator: ":")
            guard let section = Int(parts[0]), let item = Int(parts[1]), let size = TileSize(rawValue: String(parts[2])),
                  section < sizes.count, item < sizes[section].count else { return ["size outside the grid: \(entry)"] }
            sizes[section][item] = size
        }
        return Self.placements(of: TileGrid(configuration: configuration, sections: sizes))
    }

    /// Whether the stored placements are exactly a fresh pack of the stored sizes.
    public var isConsistent: Bool { placements == freshPlacements() }

    /// A packed grid's placements in the `placements` view's format.
    public static func placements(of grid: TileGrid<DensePacking>) -> [String] {
        var result: [String] = []
        for (section, packed) in grid.sections.enumerated() {
            for (item, rect) in packed.enumerated() {
                result.append("\(section):\(item):\(packed.sizes[item].rawValue):\(rect.x),\(rect.y),\(rect.width),\(rect.height)")
            }
        }
        return result
    }
}
