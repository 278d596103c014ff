import GridLayout

/// Writes a honeycomb grid's geometry (`honeycombs`) and placements (`honeycomb_placements`).
///
/// Placements are compared item by item with the previous state and only the rows that
/// differ are written. (Growing the outer ring can widen the content, which moves every
/// frame; then every row is rewritten.)
enum HoneycombStorage {
    static func write(old: GridSnapshot?, new: GridSnapshot, gridID: Int64, _ connection: DatabaseConnection) throws {
        let id = Int(gridID)
        if old?.honeycomb != new.honeycomb {
            if let honeycomb = new.honeycomb {
                try connection.execute("""
                    INSERT INTO honeycombs (grid_id, element_width, item_spacing, orientation, center_item) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (grid_id) DO UPDATE SET element_width = excluded.element_width,
                        item_spacing = excluded.item_spacing, orientation = excluded.orientation, center_item = excluded.center_item
                    """, [id, honeycomb.elementWidth, honeycomb.itemSpacing, honeycomb.orientation.rawValue, honeycomb.centerItem.rawValue])
            } else {
                try connection.execute("DELETE FROM honeycombs WHERE grid_id = ?", [id])
                try connection.execute("DELETE FROM honeycomb_placements WHERE grid_id = ?", [id])
            }
        }
        guard let layout = new.honeycombLayout else { return }
        let previous = old?.honeycombLayout
        let oldFrames = previous?.frames() ?? []
        let oldCells = previous?.cells() ?? []
        let frames = layout.frames()
        let cells = layout.cells()
        let upsert = try connection.cachedStatement("""
            INSERT INTO honeycomb_placements (grid_id, item, ring, q, r, x, y, width, height) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (grid_id, item) DO UPDATE SET ring = excluded.ring, q = excluded.q, r = excluded.r,
                x = excluded.x, y = excluded.y, width = excluded.width, height = excluded.height
            """)
        for item in 0..<layout.itemCount {
            if item < oldFrames.count && oldFrames[item] == frames[item] && oldCells[item] == cells[item] { continue }
            let frame = frames[item], cell = cells[item]
            try upsert.bind([id, item, cell.ring, cell.q, cell.r, frame.minX, frame.minY, frame.size.width, frame.size.height])
            try upsert.run()
        }
        if oldFrames.count > layout.itemCount {
            try connection.execute("DELETE FROM honeycomb_placements WHERE grid_id = ? AND item >= ?", [id, layout.itemCount])
        }
    }
}
