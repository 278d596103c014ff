import Foundation
import GridLayout
import GridStore

/// A grid as its tables hold it, read with plain SQL on a connection of its own.
struct StoredState: Equatable {
    var revision: Int
    var columns: Int
    var direction: String
    var defaultSize: String
    var itemCounts: [Int]
    /// `section:item:size` for every size set explicitly.
    var explicitSizes: [String]
    /// `section:item:size:x,y,w,h` from the `placements` view.
    var placements: [String]

    /// Reads grid `name` from the database at `path`; `nil` when there is no such grid.
    static func read(_ name: String, path: String) throws -> StoredState? {
        let connection = try DatabaseConnection(path: path, mode: .readOnly)
        connection.setBusyTimeout(milliseconds: 10_000)
        return try connection.transaction {
            guard let row = try connection.fetchOne(
                "SELECT id, revision, columns, direction, default_size FROM grids WHERE name = ?", [name],
                { ($0.int(at: 0), $0.int(at: 1), $0.int(at: 2), $0.string(at: 3), $0.string(at: 4)) })
            else { return nil }
            return StoredState(
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

    /// The placements a fresh pack of the stored sizes gives, in the view's format.
    func freshPlacements() -> [String] {
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
        return Self.placements(TileGrid(configuration: configuration, sections: sizes))
    }

    /// A grid's placements in the view's format.
    static func placements(_ grid: TileGrid<DensePacking>) -> [String] {
        var result: [String] = []
        for (section, packed) in grid.sections.enumerated() {
            for (item, rect) in packed.enumerated() {
                result.append("\(section):\(item):\(packed.sizes[item].rawValue):\(rect.x),\(rect.y),\(rect.width),\(rect.height)")
            }
        }
        return result
    }

    /// Whether the stored placements are exactly a fresh pack of the stored sizes.
    var isConsistent: Bool { placements == freshPlacements() }
}

/// Database-wide checks.
enum DatabaseHealth {
    /// `PRAGMA integrity_check` and `PRAGMA foreign_key_check`, as one line ("ok" when both pass).
    static func check(path: String) -> String {
        do {
            let connection = try DatabaseConnection(path: path, mode: .readOnly)
            connection.setBusyTimeout(milliseconds: 10_000)
            let integrity = try connection.fetchAll("PRAGMA integrity_check") { $0.string(at: 0) }.joined(separator: "; ")
            let foreignKeys = try connection.fetchAll("PRAGMA foreign_key_check") { $0.string(at: 0) }
            if integrity != "ok" { return "integrity_check: \(integrity)" }
            if !foreignKeys.isEmpty { return "foreign_key_check: \(foreignKeys.count) row(s)" }
            return "ok"
        } catch {
            return "cannot check: \(error)"
        }
    }

    /// The SHA of a file's bytes, or `nil` when it cannot be read (for "left untouched" checks).
    static func bytes(_ path: String) -> Data? {
        FileManager.default.contents(atPath: path)
    }
}

/// A grid described by the JSON `show --format json` prints, and whether it is consistent:
/// its positions must be a fresh pack of its sizes.
struct ShownGrid {
    var revision: Int
    var consistent: Bool

    init?(json: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let revision = object["revision"] as? Int, let columns = object["columns"] as? Int,
              let directionName = object["direction"] as? String, let direction = ScrollDirection(rawValue: directionName),
              let sections = object["sections"] as? [[String: Any]],
              let configuration = try? GridConfiguration(columns: columns, direction: direction) else { return nil }
        var sizes: [[TileSize]] = []
        var shown: [String] = []
        for (sectionIndex, section) in sections.enumerated() {
            guard let items = section["items"] as? [[String: Any]] else { return nil }
            sizes.append(items.compactMap { ($0["size"] as? String).flatMap(TileSize.init(rawValue:)) })
            for item in items {
                shown.append("\(sectionIndex):\(item["index"] ?? ""):\(item["size"] ?? ""):\(item["x"] ?? ""),\(item["y"] ?? ""),\(item["w"] ?? ""),\(item["h"] ?? "")")
            }
        }
        self.revision = revision
        consistent = shown == StoredState.placements(TileGrid(configuration: configuration, sections: sizes))
    }
}
