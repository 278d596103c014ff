import GridLayout
@testable import GridStore

/// What the tables hold for a grid, read with plain SQL rather than through `Grid`.
struct StoredGrid: Equatable {
    var columns: Int
    var direction: String
    var defaultSize: String
    var revision: Int
    var itemCounts: [Int]
    var explicitSizes: [String]             // "section:item:size"
    var placements: [String]                // "section:item:size:x,y,w,h" from the placements view

    /// The placements a fresh pack of the stored sizes gives, in the view's format.
    func freshPlacements() throws -> [String] {
        let configuration = try GridConfiguration(columns: columns, direction: ScrollDirection(rawValue: direction)!)
        var sizes = itemCounts.map { Array(repeating: TileSize(rawValue: defaultSize)!, count: $0) }
        for entry in explicitSizes {
            let parts = entry.split(separator: ":")
            sizes[Int(parts[0])!][Int(parts[1])!] = TileSize(rawValue: String(parts[2]))!
        }
        let grid = TileGrid(configuration: configuration, sections: sizes)
        var result: [String] = []
        for (section, packed) in grid.sections.enumerated() {
            for (item, rect) in packed.enumerated() {
                result.append("\(section):\(item):\(packed.sizes[item].rawValue):\(rect.x),\(rect.y),\(rect.width),\(rect.height)")
            }
        }
        return result
    }
}

/// Reads grid `name` straight from the tables of the database at `path`, on a connection of its own.
func storedGrid(_ name: String, path: String) throws -> StoredGrid? {
    let connection = try DatabaseConnection(path: path, mode: .readOnly)
    return try connection.transaction {
        guard let row = try connection.fetchOne(
            "SELECT id, columns, direction, default_size, revision FROM grids WHERE name = ?", [name],
            { ($0.int(at: 0), $0.int(at: 1), $0.string(at: 2), $0.string(at: 3), $0.int(at: 4)) })
        else { return nil }
        let counts = try connection.fetchAll("SELECT item_count FROM sections WHERE grid_id = ? ORDER BY section", [row.0]) { $0.int(at: 0) }
        let sizes = try connection.fetchAll(
            "SELECT section, item, size FROM item_sizes WHERE grid_id = ? ORDER BY section, item", [row.0]
        ) { "\($0.int(at: 0)):\($0.int(at: 1)):\($0.string(at: 2))" }
        let placements = try connection.fetchAll(
            "SELECT section, item, size, x, y, w, h FROM placements WHERE grid = ?", [name]
        ) { "\($0.int(at: 0)):\($0.int(at: 1)):\($0.string(at: 2)):\($0.int(at: 3)),\($0.int(at: 4)),\($0.int(at: 5)),\($0.int(at: 6))" }
        return StoredGrid(columns: row.1, direction: row.2, defaultSize: row.3, revision: row.4,
                          itemCounts: counts, explicitSizes: sizes, placements: placements)
    }
}

/// Every row of every gridstore table, to show that a failed operation wrote nothing.
func tableDump(path: String) throws -> [String] {
    let connection = try DatabaseConnection(path: path, mode: .readOnly)
    var rows: [String] = []
    for table in ["grids", "sections", "item_sizes", "placement_chunks"] {
        rows += try connection.fetchAll("SELECT * FROM \(table)") { row in
            table + ": " + (0..<Int32(row.columnCount)).map { "\(row.value(at: $0))" }.joined(separator: " | ")
        }
    }
    return rows
}
