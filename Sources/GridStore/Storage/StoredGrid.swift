import GridLayout

/// The checked grid row of a stored grid: enough to tell whether a cached snapshot is current.
struct GridHeader: Sendable, Equatable {
    var id: Int64
    var revision: Int
    var columns: Int
    var direction: ScrollDirection
    var defaultSize: TileSize
    var honeycomb: HoneycombConfiguration?
    /// How many history entries the grid keeps.
    var historyKeep: Int
    /// Whether the grid has a sync state; `nil` when the header's read does not say.
    var syncs: Bool?
}

extension StoredGridRow {
    /// The row's values, checked against the limits gridstore enforces on input.
    ///
    /// - Throws: ``GridError/corrupted(_:)`` naming the first value out of bounds.
    func header() throws(GridError) -> GridHeader {
        func inconsistent(_ what: String) -> GridError { .corrupted("grid '\(name)' \(what)") }
        // One revision is kept free so that the next change can still count.
        guard revision >= 0, revision < Int64.max else { throw inconsistent("has revision \(revision)") }
        guard let direction = ScrollDirection(rawValue: direction) else { throw inconsistent("has direction '\(direction)'") }
        guard let defaultSize = TileSize(rawValue: defaultSize) else { throw inconsistent("has default size '\(defaultSize)'") }
        guard let kind = GridKind(rawValue: kind) else { throw inconsistent("has layout kind '\(kind)'") }
        var configuration: HoneycombConfiguration?
        if kind == .honeycomb {
            guard let honeycomb else { throw inconsistent("is a honeycomb without a row in honeycombs") }
            guard let orientation = HoneycombConfiguration.Orientation(rawValue: honeycomb.orientation),
                  let centerItem = HoneycombConfiguration.CenterItem(rawValue: honeycomb.centerItem),
                  let ringOrder = HoneycombConfiguration.RingOrder(rawValue: honeycomb.ringOrder),
                  let scaling = EdgeScaling.Curve(rawValue: honeycomb.scaling)
            else {
                throw inconsistent("has honeycomb settings '\(honeycomb.orientation)', '\(honeycomb.centerItem)', "
                                   + "'\(honeycomb.ringOrder)', '\(honeycomb.scaling)'")
            }
            do {
                configuration = try HoneycombConfiguration(elementWidth: honeycomb.elementWidth, itemSpacing: honeycomb.itemSpacing,
                                                           orientation: orientation, centerItem: centerItem,
                                                           ringOrder: ringOrder, scalingCurve: scaling)
            } catch {
                throw inconsistent("has honeycomb geometry that cannot be drawn: \(error)")
            }
        }
        guard (1...Int64(GridConfiguration.maximumColumns)).contains(columns) else { throw inconsistent("has \(columns) columns") }
        guard (0...1_000_000).contains(historyKeep) else { throw inconsistent("keeps \(historyKeep) history entries") }
        return GridHeader(id: id, revision: Int(revision), columns: Int(columns), direction: direction,
                          defaultSize: defaultSize, honeycomb: configuration, historyKeep: Int(historyKeep), syncs: syncs)
    }
}

extension GridSnapshot {
    /// Reads the grid `header` names through `transaction`, checking every value against
    /// gridstore's limits before anything is allocated for it.
    ///
    /// - Throws: ``GridError/corrupted(_:)`` naming what is inconsistent.
    static func load(_ header: GridHeader, name: String, from transaction: any GridStorageTransaction) throws -> GridSnapshot {
        func inconsistent(_ what: String) -> GridError { .corrupted("grid '\(name)' \(what)") }
        let counts = try transaction.sectionItemCounts(gridID: header.id)
        guard counts.count <= GridLimits.maximumSections else { throw inconsistent("has \(counts.count) sections") }
        var total = 0
        for (position, entry) in counts.enumerated() {
            guard entry.section == position else {
                throw inconsistent("has section \(entry.section) where section \(position) was expected")
            }
            guard entry.count >= 0, entry.count <= GridLimits.maximumItems - total else {
                throw inconsistent("has \(entry.count) items in section \(entry.section), over the limit of "
                                   + "\(GridLimits.maximumItems) items in a grid")
            }
            total += entry.count
        }
        if header.honeycomb != nil && counts.count != 1 {
            throw inconsistent("is a honeycomb with \(counts.count) sections")
        }
        // Every section's sizes in one buffer, written through a pointer the closure captures:
        // a captured array would be checked for exclusive access at every size.
        let itemCounts = counts.map(\.count)
        var firstIndices = [0]
        for count in itemCounts { firstIndices.append(firstIndices[firstIndices.count - 1] + count) }
        var sizes = [TileSize?](repeating: nil, count: total)
        try sizes.withUnsafeMutableBufferPointer { sizes in
            do {
                try transaction.forEachExplicitSize(gridID: header.id) { section, item, size in
                    guard section >= 0, section < itemCounts.count, item >= 0, item < itemCounts[section] else {
                        throw inconsistent("has a size for item \(item) of section \(section), which does not exist")
                    }
                    guard let size else { throw inconsistent("has an unknown size for item \(item) of section \(section)") }
                    sizes[firstIndices[section] + item] = size
                }
            } catch let misplaced as any StoredStateInconsistency {
                throw inconsistent(misplaced.description)
            }
        }
        let explicit = itemCounts.indices.map { Array(sizes[firstIndices[$0]..<firstIndices[$0 + 1]]) }
        var keys: [[String?]] = Array(repeating: [], count: counts.count)
        var keyHolders: [String: GridIndexPath] = [:]
        try transaction.forEachItemKey(gridID: header.id) { section, item, key in
            guard section >= 0, section < keys.count, item >= 0, item < explicit[section].count else {
                throw inconsistent("has a key for item \(item) of section \(section), which does not exist")
            }
            do {
                try GridLimits.validate(key: key)
            } catch {
                throw inconsistent("has an invalid key for item \(item) of section \(section): \(error)")
            }
            if let holder = keyHolders.updateValue(GridIndexPath(item: item, section: section), forKey: key) {
                throw inconsistent("gives the key '\(key)' to item \(holder.item) of section \(holder.section) and "
                                   + "to item \(item) of section \(section)")
            }
            if keys[section].isEmpty { keys[section] = Array(repeating: nil, count: explicit[section].count) }
            keys[section][item] = key
        }
        let configuration: GridConfiguration
        do {
            configuration = try GridConfiguration(columns: header.columns, direction: header.direction)
        } catch {
            throw inconsistent("cannot be laid out: \(error)")
        }
        return GridSnapshot(name: name, revision: header.revision, configuration: configuration,
                            defaultSize: header.defaultSize, explicitSizes: explicit, keys: keys, honeycomb: header.honeycomb)
    }
}
