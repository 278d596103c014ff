import GridLayout

extension ReplicatedGrid {
    /// What a peer whose cursor is `cursor` lacks: every register with a write `cursor` does not
    /// cover, whole; the rest left empty. Its ``versions`` are this replica's.
    func changes(since cursor: VersionVector) -> ReplicatedGrid {
        func pick<Value>(_ register: MergeRegister<Value>) -> MergeRegister<Value> {
            register.isChanged(since: cursor) ? register : MergeRegister()
        }
        var delta = ReplicatedGrid()
        delta.versions = versions
        delta.options = Options(columns: pick(options.columns), direction: pick(options.direction),
                                defaultSize: pick(options.defaultSize), honeycomb: pick(options.honeycomb))
        for (id, section) in sections {
            let changed = Section(order: pick(section.order), alive: pick(section.alive))
            if changed != Section() { delta.sections[id] = changed }
        }
        for (id, item) in items {
            let changed = Item(place: pick(item.place), size: pick(item.size), key: pick(item.key), alive: pick(item.alive))
            if changed != Item() { delta.items[id] = changed }
        }
        return delta
    }

    /// How many registers hold a write: in a delta, the changes it carries.
    var registerCount: Int {
        func count<Value>(_ register: MergeRegister<Value>) -> Int { register.context.isEmpty ? 0 : 1 }
        var total = count(options.columns) + count(options.direction) + count(options.defaultSize) + count(options.honeycomb)
        for section in sections.values { total += count(section.order) + count(section.alive) }
        for item in items.values { total += count(item.place) + count(item.size) + count(item.key) + count(item.alive) }
        return total
    }

    /// Merges `delta` (what ``changes(since:)`` made on a peer for `cursor`) into this state.
    ///
    /// The registers are merged one by one, so a delta can be merged any number of times and
    /// in any order. This state's ``versions`` take the delta's only when they already covered
    /// `cursor`: the delta then brings everything its replica knew; one that arrives before an
    /// earlier one (a bundle out of order) only adds its registers, and a later sync sends the rest.
    ///
    /// - Returns: Whether any register changed.
    @discardableResult
    mutating func merge(_ delta: ReplicatedGrid, exportedSince cursor: VersionVector) -> Bool {
        var changed = false
        changed = options.columns.merge(delta.options.columns) || changed
        changed = options.direction.merge(delta.options.direction) || changed
        changed = options.defaultSize.merge(delta.options.defaultSize) || changed
        changed = options.honeycomb.merge(delta.options.honeycomb) || changed
        for (id, incoming) in delta.sections {
            var section = sections[id] ?? Section()
            changed = section.order.merge(incoming.order) || changed
            changed = section.alive.merge(incoming.alive) || changed
            sections[id] = section
        }
        for (id, incoming) in delta.items {
            var item = items[id] ?? Item()
            changed = item.place.merge(incoming.place) || changed
            changed = item.size.merge(incoming.size) || changed
            changed = item.key.merge(incoming.key) || changed
            changed = item.alive.merge(incoming.alive) || changed
            items[id] = item
        }
        if cursor.isCovered(by: versions) { versions.formUnion(delta.versions) }
        return changed
    }

    /// Checks what a merge left: every item has a place in a section that exists, every section
    /// has a place, and the grid is within gridstore's limits.
    ///
    /// - Throws: ``GridError`` naming the first problem.
    func validate() throws(GridError) -> Layout {
        for (id, item) in items {
            guard let place = item.place.winner?.value else { throw .corrupted("item \(id) has no place") }
            guard sections[place.section]?.order.winner != nil else {
                throw .corrupted("item \(id) is placed in section \(place.section), which is unknown")
            }
        }
        for (id, section) in sections where section.order.winner == nil {
            throw GridError.corrupted("section \(id) has no place")
        }
        let layout = layout()
        _ = try layout.content.validatedConfiguration()
        return layout
    }
}
