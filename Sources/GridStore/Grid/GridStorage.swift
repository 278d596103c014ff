import GridLayout

/// The grid row of a stored grid: enough to tell whether a cached snapshot is current.
struct GridHeader: Sendable, Equatable {
    var id: Int64
    var revision: Int
    var columns: Int
    var direction: ScrollDirection
    var defaultSize: TileSize
    var honeycomb: HoneycombConfiguration?
}

/// A one-line description of a stored grid, for listings.
public struct GridSummary: Sendable, Hashable {
    /// The grid's name.
    public let name: String
    /// The number of columns.
    public let columns: Int
    /// The direction the grid grows in.
    public let direction: ScrollDirection
    /// The number of sections.
    public let sectionCount: Int
    /// The number of items over all sections.
    public let itemCount: Int
    /// The grid's revision.
    public let revision: Int
    /// When the grid last changed (ISO 8601, UTC).
    public let updatedAt: String

    /// `less`, `more`, or `nil` for custom columns.
    public var type: LayoutType? { LayoutType(columns: columns) }
}

/// Reads grids from the database and writes back exactly what an edit changed.
///
/// Every function runs inside the caller's transaction.
enum GridStorage {
    // MARK: Reading

    static func header(named name: String, _ connection: DatabaseConnection) throws -> GridHeader? {
        try connection.fetchOne("""
            SELECT grids.id, revision, columns, direction, default_size, layout_kind,
                   element_width, item_spacing, orientation, center_item
            FROM grids LEFT JOIN honeycombs ON honeycombs.grid_id = grids.id
            WHERE name = ?
            """, [name]
        ) { row in
            var honeycomb: HoneycombConfiguration?
            if row.string(at: 5) == GridKind.honeycomb.rawValue {
                guard !row.isNull(at: 6) else { throw GridError.corrupted("honeycomb grid '\(name)' has no row in honeycombs") }
                do {
                    honeycomb = try HoneycombConfiguration(
                        elementWidth: row.double(at: 6), itemSpacing: row.double(at: 7),
                        orientation: HoneycombConfiguration.Orientation(rawValue: row.string(at: 8)) ?? .pointyTop,
                        centerItem: HoneycombConfiguration.CenterItem(rawValue: row.string(at: 9)) ?? .first)
                } catch {
                    throw GridError.corrupted("honeycomb grid '\(name)': \(error)")
                }
            }
            return GridHeader(id: Int64(row.int(at: 0)), revision: row.int(at: 1), columns: row.int(at: 2),
                              direction: row.string(at: 3) == "horizontal" ? .horizontal : .vertical,
                              defaultSize: TileSize(rawValue: row.string(at: 4)) ?? .small, honeycomb: honeycomb)
        }
    }

    static func load(_ header: GridHeader, name: String, _ connection: DatabaseConnection) throws -> GridSnapshot {
        let counts = try connection.fetchAll(
            "SELECT section, item_count FROM sections WHERE grid_id = ? ORDER BY section", [header.id]
        ) { ($0.int(at: 0), $0.int(at: 1)) }
        for (position, entry) in counts.enumerated() where entry.0 != position {
            throw GridError.corrupted("grid '\(name)' has section \(entry.0) where section \(position) was expected")
        }
        var explicit: [[TileSize?]] = counts.map { Array(repeating: nil, count: $0.1) }
        let sizes = try connection.cachedStatement("SELECT section, item, size FROM item_sizes WHERE grid_id = ?")
        try sizes.bind([header.id])
        defer { sizes.reset() }
        while try sizes.step() {
            let section = sizes.int(at: 0)
            let item = sizes.int(at: 1)
            guard section < explicit.count, item < explicit[section].count else {
                throw GridError.corrupted("grid '\(name)' has a size for item \(item) of section \(section), which does not exist")
            }
            explicit[section][item] = sizes.withUTF8(at: 2) { Self.size(fromUTF8: $0) }
        }
        let configuration: GridConfiguration
        do {
            configuration = try GridConfiguration(columns: header.columns, direction: header.direction)
        } catch {
            throw GridError.corrupted("grid '\(name)': \(error)")
        }
        return GridSnapshot(name: name, revision: header.revision, configuration: configuration,
                            defaultSize: header.defaultSize, explicitSizes: explicit, honeycomb: header.honeycomb)
    }

    /// The size named by stored text (the schema's CHECK allows only the three names).
    @inline(__always)
    static func size(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> TileSize {
        switch bytes.first {
        case UInt8(ascii: "m"): .middle
        case UInt8(ascii: "b"): .big
        default: .small
        }
    }

    static func list(_ connection: DatabaseConnection) throws -> [GridSummary] {
        try connection.fetchAll("""
            SELECT name, columns, direction, revision, updated_at,
                   (SELECT count(*) FROM sections WHERE grid_id = grids.id),
                   (SELECT coalesce(sum(item_count), 0) FROM sections WHERE grid_id = grids.id)
            FROM grids ORDER BY name
            """) { row in
            GridSummary(name: row.string(at: 0), columns: row.int(at: 1),
                        direction: row.string(at: 2) == "horizontal" ? .horizontal : .vertical,
                        sectionCount: row.int(at: 5), itemCount: row.int(at: 6), revision: row.int(at: 3),
                        updatedAt: row.string(at: 4))
        }
    }

    // MARK: Writing

    /// Inserts a new grid with `snapshot`'s settings, sections, sizes and placements.
    ///
    /// - Returns: The new grid's id.
    static func insert(_ snapshot: GridSnapshot, _ connection: DatabaseConnection) throws -> Int64 {
        try connection.execute(
            "INSERT INTO grids (name, columns, direction, default_size, revision, layout_kind) VALUES (?, ?, ?, ?, ?, ?)",
            [snapshot.name, snapshot.columns, snapshot.direction.rawValue, snapshot.defaultSize.rawValue, snapshot.revision,
             snapshot.kind.rawValue])
        let id = connection.lastInsertRowID
        var changes = GridChanges()
        changes.markSections(from: 0)
        try writeSections(old: nil, new: snapshot, changes: changes, gridID: id, connection)
        try HoneycombStorage.write(old: nil, new: snapshot, gridID: id, connection)
        return id
    }

    /// Writes what differs between `old` and `new` where `changes` says to look, and bumps the revision.
    static func save(old: GridSnapshot, new: GridSnapshot, changes: GridChanges, gridID: Int64,
                     _ connection: DatabaseConnection) throws {
        let updated = try connection.cachedStatement("""
            UPDATE grids SET columns = ?, direction = ?, default_size = ?, revision = ?, layout_kind = ?,
                             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
            WHERE id = ?
            """)
        try updated.bind([new.columns, new.direction.rawValue, new.defaultSize.rawValue, new.revision, new.kind.rawValue, gridID])
        try updated.run()
        if old.kind == .tiles && new.kind == .honeycomb {
            try connection.execute("DELETE FROM placement_chunks WHERE grid_id = ?", [gridID])
        }
        try writeSections(old: old, new: new, changes: changes, gridID: gridID, connection)
        try HoneycombStorage.write(old: old, new: new, gridID: gridID, connection)
    }

    private static func writeSections(old: GridSnapshot?, new: GridSnapshot, changes: GridChanges, gridID: Int64,
                                      _ connection: DatabaseConnection) throws {
        let oldCount = old?.explicitSizes.count ?? 0
        let newCount = new.explicitSizes.count
        if newCount < oldCount {
            // Deleting sections deletes their sizes and placements with them (ON DELETE CASCADE).
            try connection.execute("DELETE FROM sections WHERE grid_id = ? AND section >= ?", [gridID, newCount])
        }
        var writer = try SectionWriter(connection, gridID: gridID)
        for section in 0..<newCount {
            guard let first = changes.firstChangedItem(inSection: section) else { continue }
            let oldSizes = section < oldCount ? old?.explicitSizes[section] : nil
            let newSizes = new.explicitSizes[section]
            if oldSizes?.count != newSizes.count {
                try writer.setItemCount(newSizes.count, section: section)
            }
            try writer.writeSizes(section: section, from: first, old: oldSizes ?? [], new: newSizes)
            // A honeycomb's placements are its own (see HoneycombStorage); it has no tile chunks.
            guard new.kind == .tiles else { continue }
            try writer.writeChunks(section: section, from: first,
                                   old: section < oldCount && old?.kind == .tiles ? old?.layout.sections[section] : nil,
                                   new: new.layout.sections[section])
        }
    }
}

/// Writes one section's rows with prepared statements.
private struct SectionWriter {
    let connection: DatabaseConnection
    let gridID: Int
    let upsertSize: Statement
    let deleteSize: Statement
    let upsertChunk: Statement
    var buffer: [UInt8] = []

    init(_ connection: DatabaseConnection, gridID: Int64) throws {
        self.connection = connection
        self.gridID = Int(gridID)
        upsertSize = try connection.cachedStatement("""
            INSERT INTO item_sizes (grid_id, section, item, size) VALUES (?, ?, ?, ?)
            ON CONFLICT (grid_id, section, item) DO UPDATE SET size = excluded.size
            """)
        deleteSize = try connection.cachedStatement("DELETE FROM item_sizes WHERE grid_id = ? AND section = ? AND item = ?")
        upsertChunk = try connection.cachedStatement("""
            INSERT INTO placement_chunks (grid_id, section, first_item, cells) VALUES (?, ?, ?, ?)
            ON CONFLICT (grid_id, section, first_item) DO UPDATE SET cells = excluded.cells
            """)
    }

    func setItemCount(_ count: Int, section: Int) throws {
        try connection.execute("""
            INSERT INTO sections (grid_id, section, item_count) VALUES (?, ?, ?)
            ON CONFLICT (grid_id, section) DO UPDATE SET item_count = excluded.item_count
            """, [gridID, section, count])
    }

    /// Writes the explicit sizes that differ from item `first` on.
    func writeSizes(section: Int, from first: Int, old: [TileSize?], new: [TileSize?]) throws {
        let shared = min(old.count, new.count)
        if first < shared {
            for item in first..<shared where old[item] != new[item] {
                if let size = new[item] {
                    try upsert(size, section: section, item: item)
                } else {
                    try run(deleteSize, [gridID, section, item])
                }
            }
        }
        if old.count > new.count {
            try connection.execute("DELETE FROM item_sizes WHERE grid_id = ? AND section = ? AND item >= ?",
                                   [gridID, section, new.count])
        }
        for item in max(first, shared)..<max(new.count, max(first, shared)) {
            if let size = new[item] { try upsert(size, section: section, item: item) }
        }
    }

    /// Writes the placement chunks that differ from the one holding item `first` on.
    mutating func writeChunks<Strategy>(section: Int, from first: Int, old: TileGridSection<Strategy>?,
                                        new: TileGridSection<Strategy>) throws {
        let newChunks = PlacementChunks.count(forItems: new.count)
        let oldChunks = PlacementChunks.count(forItems: old?.count ?? 0)
        if oldChunks > newChunks {
            try connection.execute("DELETE FROM placement_chunks WHERE grid_id = ? AND section = ? AND first_item >= ?",
                                   [gridID, section, newChunks * PlacementChunks.size])
        }
        var chunk = PlacementChunks.chunk(of: first)
        while chunk < newChunks {
            if !PlacementChunks.isUnchanged(chunk, old: old, new: new) {
                PlacementChunks.encode(chunk, of: new, into: &buffer)
                try upsertChunk.bind(gridID, at: 1)
                try upsertChunk.bind(section, at: 2)
                try upsertChunk.bind(chunk * PlacementChunks.size, at: 3)
                try buffer.withUnsafeBytes { try upsertChunk.bindText($0, at: 4) }
                try upsertChunk.run()
            }
            chunk += 1
        }
    }

    private func upsert(_ size: TileSize, section: Int, item: Int) throws {
        try upsertSize.bind(gridID, at: 1)
        try upsertSize.bind(section, at: 2)
        try upsertSize.bind(item, at: 3)
        try upsertSize.bind(Self.storedName(of: size), at: 4)
        try upsertSize.run()
    }

    /// The size's name as constant text, so binding it copies nothing.
    @inline(__always)
    static func storedName(of size: TileSize) -> StaticString {
        switch size {
        case .small: "small"
        case .middle: "middle"
        case .big: "big"
        }
    }

    private func run(_ statement: Statement, _ arguments: [any SQLiteValueConvertible]) throws {
        try statement.bind(arguments)
        try statement.run()
    }
}
