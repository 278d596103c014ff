import Foundation
import GridLayout
import GridStoreAudit

/// A file's bytes, or `nil` when it cannot be read, for "left untouched" checks.
func fileBytes(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
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
        consistent = shown == StoredGrid.placements(of: TileGrid(configuration: configuration, sections: sizes))
    }
}
