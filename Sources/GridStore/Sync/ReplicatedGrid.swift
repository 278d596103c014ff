import GridLayout

/// A grid as sync sees it: every value replicas may change on their own, each a
/// ``MergeRegister`` merged on its own (the grid's options field by field; each section's
/// place and existence; each item's place, size, key and existence), and what the replica
/// knows of every other's changes.
///
/// Items and sections are known by ids that do not change when they move (``SyncEntityID``);
/// the grid's items in order are a function of the registers (``layout()``), the same on
/// every replica that holds the same registers, and the placements are a fresh pack of it.
struct ReplicatedGrid: Equatable, Sendable {
    /// The grid's options, each merged on its own.
    struct Options: Equatable, Sendable {
        var columns = MergeRegister<Int>()
        var direction = MergeRegister<ScrollDirection>()
        var defaultSize = MergeRegister<TileSize>()
        /// The honeycomb geometry, or `nil` for a grid of tiles.
        var honeycomb = MergeRegister<HoneycombConfiguration?>()
    }

    /// A section: where it sits among the sections, and whether it was removed.
    struct Section: Equatable, Sendable {
        var order = MergeRegister<OrderKey>()
        /// `false` once removed; a removed section that still has an item placed in it (by a
        /// replica that had not seen the removal) stays, so no item is lost.
        var alive = MergeRegister<Bool>()
    }

    /// Where an item sits: its section, and its place among that section's items.
    struct Place: Hashable, Sendable {
        var section: SyncEntityID
        var order: OrderKey
    }

    /// An item: where it sits, its own size, its key, and whether it was deleted.
    struct Item: Equatable, Sendable {
        var place = MergeRegister<Place>()
        var size = MergeRegister<TileSize?>()
        var key = MergeRegister<String?>()
        var alive = MergeRegister<Bool>()
    }

    var options = Options()
    var sections: [SyncEntityID: Section] = [:]
    var items: [SyncEntityID: Item] = [:]
    /// The name each replica's database goes by (``GridDatabase/replicaName()``), written by that
    /// replica alone: a label shown with its changes, never a change of the grid.
    var names: [ReplicaID: MergeRegister<String>] = [:]
    /// What this replica knows of every replica's changes (its cursor, when a peer asks what it lacks).
    var versions = VersionVector()

    /// The options a register that was never written stands for: those of a new grid.
    static let defaults = GridOptions()

    init() {}

    /// The state of a grid taking part in sync for the first time, holding `content`: its items
    /// and sections get ids derived from their keys or positions. Values a new grid has anyway
    /// (an item where a new grid has it) are written at ``HybridTime/origin``, and a replica that
    /// never changed them does not contend; the others at `changedAt`, when the grid last changed
    /// (at least ``HybridTime/changedOrigin``), so where two grids began apart the one changed
    /// later wins. Every change made after wins over all of them.
    init(origin content: GridContent, replica: ReplicaID, changedAt: HybridTime = .changedOrigin) {
        let changedAt = max(changedAt, .changedOrigin)
        let stamp = SyncStamp(time: changedAt, replica: replica)
        let canonical = SyncStamp(time: .origin, replica: replica)
        if content.columns != Self.defaults.columns { options.columns.write(content.columns, at: stamp) }
        if content.direction != Self.defaults.direction { options.direction.write(content.direction, at: stamp) }
        if content.defaultSize != Self.defaults.defaultSize { options.defaultSize.write(content.defaultSize, at: stamp) }
        if let honeycomb = content.honeycomb { options.honeycomb.write(honeycomb, at: stamp) }
        for (index, sizes) in content.sections.enumerated() {
            let sectionID = SyncEntityID.section(index)
            var section = Section()
            section.order.write(.spaced(index), at: canonical)
            sections[sectionID] = section
            let keys = index < content.keys.count ? content.keys[index] : []
            // A keyless item's id is its place among the keyless items: an app that added keyed
            // items on one replica before its first sync does not shift the others' ids.
            var keyless = 0
            for (position, size) in sizes.enumerated() {
                let key = keys.isEmpty ? nil : keys[position]
                var item = Item()
                let moved = key != nil || keyless != position
                item.place.write(Place(section: sectionID, order: .spaced(position)), at: moved ? stamp : canonical)
                if let size { item.size.write(size, at: stamp) }
                if let key { item.key.write(key, at: stamp) }
                items[key.map(SyncEntityID.item(key:)) ?? .item(section: index, item: keyless)] = item
                if key == nil { keyless += 1 }
            }
        }
        versions.advance(replica, to: changedAt)
    }

    /// The name `replica`'s database went by when it last wrote it; `nil` when it gave none.
    func name(of replica: ReplicaID) -> String? { names[replica]?.winner?.value }

    /// `Anna's iPad (replica 1f…)`, or `replica 1f…` for a replica whose database gave no name.
    func replicaLabel(_ replica: ReplicaID) -> String { replica.label(named: name(of: replica)) }

    var isHoneycomb: Bool { options.honeycomb.value(or: nil) != nil }

    // MARK: Layout

    /// The grid the registers describe, with the id of every section and item in order.
    struct Layout: Equatable, Sendable {
        /// The grid's content: what a replica stores.
        var content: GridContent
        /// The sections' ids, in order (for a honeycomb, the first section its items are in).
        var sectionIDs: [SyncEntityID]
        /// Each section's items' ids, in order (for a honeycomb, one section of all its items).
        var itemIDs: [[SyncEntityID]]
    }

    /// The grid the registers describe: the sections that exist (or still hold an item), in
    /// the order of their keys, then ids; in each, the items that exist, in the order of their
    /// keys, then ids; a key shown on the item that took it last when two items hold it. A
    /// honeycomb has one section: every item, in that order.
    ///
    /// - Complexity: O(*n* log *n*) for the state's *n* items and sections: a sort of each
    ///   section's items by their order keys (of at most ``OrderKey/maximumLength`` digits).
    func layout() -> Layout {
        var placed: [SyncEntityID: [(order: OrderKey, id: SyncEntityID)]] = [:]
        for (id, item) in items where item.alive.value(or: true) {
            guard let place = item.place.winner?.value else { continue }
            placed[place.section, default: []].append((place.order, id))
        }
        var visible: [(order: OrderKey, id: SyncEntityID)] = []
        for (id, section) in sections {
            guard let order = section.order.winner?.value else { continue }
            if section.alive.value(or: true) || placed[id] != nil { visible.append((order, id)) }
        }
        func precedes(_ lhs: (order: OrderKey, id: SyncEntityID), _ rhs: (order: OrderKey, id: SyncEntityID)) -> Bool {
            let order = OrderKey.order(lhs.order, rhs.order)
            return order != 0 ? order < 0 : lhs.id < rhs.id
        }
        visible.sort(by: precedes)
        var sectionIDs = visible.map(\.id)
        var itemIDs = sectionIDs.map { section in (placed[section] ?? []).sorted(by: precedes).map(\.id) }
        let honeycomb = options.honeycomb.value(or: nil)
        if honeycomb != nil {
            itemIDs = [itemIDs.flatMap { $0 }]
            sectionIDs = Array(sectionIDs.prefix(1))
        }
        // A key belongs to the item whose write of it is the latest.
        var holders: [String: (stamp: SyncStamp, id: SyncEntityID)] = [:]
        for ids in itemIDs {
            for id in ids {
                guard let write = items[id]!.key.winner, let key = write.value else { continue }
                if let holder = holders[key], holder.stamp > write.stamp { continue }
                holders[key] = (write.stamp, id)
            }
        }
        var content = GridContent(columns: options.columns.value(or: Self.defaults.columns),
                                  direction: options.direction.value(or: Self.defaults.direction),
                                  defaultSize: options.defaultSize.value(or: Self.defaults.defaultSize),
                                  sections: itemIDs.map { ids in
                                      honeycomb != nil ? Array(repeating: nil, count: ids.count)
                                                       : ids.map { items[$0]!.size.value(or: nil) }
                                  })
        content.honeycomb = honeycomb
        if !holders.isEmpty {
            content.keys = itemIDs.map { ids in
                let keys = ids.map { id -> String? in
                    guard let key = items[id]!.key.value(or: nil), holders[key]?.id == id else { return nil }
                    return key
                }
                return keys.contains { $0 != nil } ? keys : []
            }
        }
        return Layout(content: content, sectionIDs: sectionIDs, itemIDs: itemIDs)
    }
}
