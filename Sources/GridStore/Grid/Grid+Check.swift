/// What ``Grid/checkPlacements(in:names:repairing:)`` found in one grid.
public struct PlacementCheck: Codable, Sendable, Hashable {
    /// The grid's name.
    public let grid: String
    /// Each difference between the stored placements and a fresh pack of the stored sizes, as
    /// a sentence; empty when they are equal.
    public let problems: [String]
    /// Whether the placements were rewritten.
    public let repaired: Bool
}

extension Grid {
    /// Compares every grid's stored placements with a fresh pack of its stored sizes, and
    /// with `repairing` rewrites those that differ.
    ///
    /// gridstore never reads placements back (it re-packs from the sizes), so placements a
    /// person edited by hand only mislead readers of the `placements` view; this finds and
    /// mends them. Sizes and settings are checked as every read checks them: a grid that
    /// cannot be read is reported by the error it throws. A repair rewrites placements only,
    /// in one transaction; revisions stay as they are, since the grid's state does not change.
    ///
    /// - Parameter names: The grids to check; `nil` for all.
    /// - Returns: One check per grid, in name order. Honeycomb grids have no tile placements.
    public static func checkPlacements(in database: GridDatabase, names: [String]? = nil,
                                       repairing: Bool = false) throws(GridError) -> [PlacementCheck] {
        let body = { (transaction: any GridStorageTransaction) throws -> [PlacementCheck] in
            let wanted = try names?.map(GridLimits.canonical) ?? transaction.grids().map(\.name)
            return try wanted.map { name in
                guard let header = try transaction.header(named: name)?.header() else { throw GridError.gridNotFound(name) }
                let snapshot = try GridSnapshot.load(header, name: name, from: transaction)
                let fresh = GridChangeSet(inserting: snapshot)
                let problems = try differences(stored: transaction.placementChunks(gridID: header.id), fresh: fresh,
                                               itemCounts: snapshot.itemCounts)
                if repairing && !problems.isEmpty {
                    try transaction.replacePlacements(with: fresh, gridID: header.id)
                }
                return PlacementCheck(grid: name, problems: problems, repaired: repairing && !problems.isEmpty)
            }
        }
        return try GridError.catching { try repairing ? database.storageWrite(body) : database.storageRead(body) }
    }

    /// Sentences naming each chunk that is missing, extra or different.
    private static func differences(stored: [(section: Int, firstItem: Int, cells: [UInt8])], fresh: GridChangeSet,
                                    itemCounts: [Int]) -> [String] {
        struct Key: Hashable { var section: Int; var firstItem: Int }
        var storedByKey: [Key: [UInt8]] = [:]
        for chunk in stored { storedByKey[Key(section: chunk.section, firstItem: chunk.firstItem)] = chunk.cells }
        var problems: [String] = []
        for chunk in fresh.chunkUpserts {
            let key = Key(section: chunk.section, firstItem: chunk.firstItem)
            let last = min(chunk.firstItem + PlacementChunks.size, itemCounts[chunk.section]) - 1
            let range = last == chunk.firstItem ? "item \(last) of section \(chunk.section)"
                : "items \(chunk.firstItem) to \(last) of section \(chunk.section)"
            switch storedByKey.removeValue(forKey: key) {
            case nil: problems.append("the placements of \(range) are missing")
            case let cells? where !cells.elementsEqual(fresh.text(of: chunk)):
                problems.append("the placements of \(range) differ from a fresh pack")
            default: break
            }
        }
        for key in storedByKey.keys.sorted(by: { ($0.section, $0.firstItem) < ($1.section, $1.firstItem) }) {
            problems.append("placements are stored for items from \(key.firstItem) of section \(key.section), which do not exist")
        }
        return problems
    }
}
