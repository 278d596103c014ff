import GridLayout

/// A value a concurrent change overwrote: two replicas changed one thing without seeing each
/// other's change; the later one (by hybrid time, then replica id) is kept, the other is kept
/// here, so an app can say "the iPad made this big".
///
/// A conflict lasts until a replica that has seen it changes the value again.
public struct SyncConflict: Sendable, Hashable, CustomStringConvertible {
    /// What the two changes were to.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case columns, direction
        case defaultSize = "default-size"
        case honeycomb
        /// A section's place among the sections, or whether it was removed.
        case section
        /// An item's place.
        case place
        /// An item's own size.
        case size
        /// An item's key.
        case key
        /// Whether the item was deleted.
        case existence
    }

    /// What the changes were to.
    public let field: Field
    /// The item's index path now, for a field of an item that exists; `nil` otherwise.
    public let item: GridIndexPath?
    /// The item's key now, if it has one.
    public let key: String?
    /// The value kept, the replica that wrote it, and the name its database goes by
    /// (``GridDatabase/replicaName()``; `nil` when it gave none).
    public let kept: String
    public let keptBy: ReplicaID
    public let keptByName: String?
    /// The value overwritten, the replica that wrote it, and the name its database goes by.
    public let overwritten: String
    public let overwrittenBy: ReplicaID
    public let overwrittenByName: String?

    /// `size of item 3 of section 0 (mail): big by Anna's iPad (replica 1f…) overwrote middle by replica 9a…`.
    public var description: String {
        let subject = item.map { "\(field.rawValue) of item \($0.item) of section \($0.section)\(key.map { " (\($0))" } ?? "")" }
            ?? field.rawValue
        return "\(subject): \(kept) by \(keptBy.label(named: keptByName)) overwrote \(overwritten) by "
            + overwrittenBy.label(named: overwrittenByName)
    }
}

extension ReplicatedGrid {
    /// Every conflict the registers hold, items in the order of `layout`, then deleted items and sections.
    ///
    /// - Complexity: O(*n* log *n*) for the state's *n* items and sections (deleted items and
    ///   sections are listed in the order of their ids), plus O(*s*) for each conflicting place,
    ///   its position counted among the *s* items or sections it is one of.
    func conflicts(in layout: Layout) -> [SyncConflict] {
        var result: [SyncConflict] = []
        var paths: [SyncEntityID: GridIndexPath] = [:]
        for (section, ids) in layout.itemIDs.enumerated() {
            for (item, id) in ids.enumerated() { paths[id] = GridIndexPath(item: item, section: section) }
        }
        func add<Value: Equatable>(_ field: SyncConflict.Field, _ register: MergeRegister<Value>, item: SyncEntityID? = nil,
                        _ text: (Value) -> String) {
            guard let winner = register.winner else { return }
            // Two replicas whose grids began apart placed their items differently before their
            // first sync: not a change either made, so not a conflict to show.
            for loser in register.shownConflicts where !(field == .place && winner.stamp.time == .origin) {
                let path = item.flatMap { paths[$0] }
                let key = item.flatMap { path == nil ? nil : items[$0]?.key.value(or: nil) }
                result.append(SyncConflict(field: field, item: path, key: key, kept: text(winner.value), keptBy: winner.stamp.replica,
                                           keptByName: name(of: winner.stamp.replica), overwritten: text(loser.value),
                                           overwrittenBy: loser.stamp.replica, overwrittenByName: name(of: loser.stamp.replica)))
            }
        }
        add(.columns, options.columns) { "\($0)" }
        add(.direction, options.direction) { $0.rawValue }
        add(.defaultSize, options.defaultSize) { $0.rawValue }
        add(.honeycomb, options.honeycomb) { $0 == nil ? "tiles" : "honeycomb" }
        // A place as the position it gives among the items shown now: what a person or an app
        // can show, not an order key.
        var sectionIndex: [SyncEntityID: Int] = [:]
        for (index, id) in layout.sectionIDs.enumerated() { sectionIndex[id] = index }
        func position(_ place: Place, of id: SyncEntityID) -> String {
            if layout.content.honeycomb != nil {
                // One section of every item, in the order of their sections, then their places.
                func rank(_ place: Place) -> OrderKey? { sections[place.section]?.order.winner?.value }
                guard let section = rank(place), !layout.itemIDs.isEmpty else { return "a section removed since" }
                let before = layout.itemIDs[0].lazy.filter { other in
                    guard other != id, let theirs = self.items[other]!.place.winner?.value, let rank = rank(theirs) else { return false }
                    return (rank, theirs.order, other) < (section, place.order, id)
                }.count
                return "item \(before)"
            }
            guard let section = sectionIndex[place.section] else { return "a section removed since" }
            let before = layout.itemIDs[section].lazy.filter { other in
                other != id && (self.items[other]!.place.winner.map { ($0.value.order, other) < (place.order, id) } ?? false)
            }.count
            return "item \(before) of section \(section)"
        }
        let order = layout.itemIDs.flatMap { $0 }
        let rest = items.keys.filter { paths[$0] == nil }.sorted()
        for id in order + rest {
            let item = items[id]!
            add(.size, item.size, item: id) { $0?.rawValue ?? "default" }
            add(.place, item.place, item: id) { position($0, of: id) }
            add(.key, item.key, item: id) { $0.map { "'\($0)'" } ?? "none" }
            add(.existence, item.alive, item: id) { $0 ? "kept" : "deleted" }
        }
        for id in sections.keys.sorted() {
            add(.section, sections[id]!.order) { order in
                "section \(layout.sectionIDs.lazy.filter { other in other != id && (sections[other]!.order.winner.map { ($0.value, other) < (order, id) } ?? false) }.count)"
            }
            add(.section, sections[id]!.alive) { $0 ? "kept" : "removed" }
        }
        return result
    }
}
