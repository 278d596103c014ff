import GridLayout

extension ReplicatedGrid {
    /// What a peer whose cursor is `cursor` lacks: every register with a write `cursor` does not
    /// cover, whole, and every replica's name; the rest left empty. Its ``versions`` are this replica's.
    ///
    /// - Complexity: O(*n* · *c*) for the state's *n* items and sections and the *c* context
    ///   entries of a register: every register is visited. ``SyncSide/storedBundle(_:since:in:)``
    ///   reads only the rows changed since the cursor instead.
    func changes(since cursor: VersionVector) -> ReplicatedGrid {
        // A new state of the changed registers alone: a copy changed in place would copy every
        // item first, most of them to be removed again.
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
        // The names are few, and a peer that lacks one (it came in a bundle it could not take
        // then) gets it again.
        delta.names = names
        return delta
    }

    /// How many registers hold a write: in a delta, the changes it carries. The replicas'
    /// names are labels, not changes of the grid, and are not counted.
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
    /// - Returns: How many registers changed, and how many of them hold another value now (a
    ///   register can change only in its conflicts, or in who else wrote the value it holds).
    /// - Complexity: One register merge (``MergeRegister/merge(_:)``) for each register `delta`
    ///   holds, and O(*r*) for the *r* replicas of the versions: linear in the delta, once this
    ///   state's storage is its own (a copy of a shared state is O(*n*) at the first write).
    @discardableResult
    mutating func merge(_ delta: ReplicatedGrid, exportedSince cursor: VersionVector) -> (registers: Int, values: Int) {
        var changed = (registers: 0, values: 0)
        func merge<Value: Equatable>(_ register: inout MergeRegister<Value>, _ incoming: MergeRegister<Value>) {
            let shown = register.winner?.value
            guard register.merge(incoming) else { return }
            changed.registers += 1
            if shown != register.winner?.value { changed.values += 1 }
        }
        merge(&options.columns, delta.options.columns)
        merge(&options.direction, delta.options.direction)
        merge(&options.defaultSize, delta.options.defaultSize)
        merge(&options.honeycomb, delta.options.honeycomb)
        for (id, incoming) in delta.sections {
            var section = sections[id] ?? Section()
            merge(&section.order, incoming.order)
            merge(&section.alive, incoming.alive)
            sections[id] = section
        }
        for (id, incoming) in delta.items {
            var item = items[id] ?? Item()
            merge(&item.place, incoming.place)
            merge(&item.size, incoming.size)
            merge(&item.key, incoming.key)
            merge(&item.alive, incoming.alive)
            items[id] = item
        }
        for (replica, incoming) in delta.names {
            // A name is a label: a new one changes the state, not the grid.
            if names[replica, default: MergeRegister()].merge(incoming) { changed.registers += 1 }
        }
        if cursor.isCovered(by: versions) { versions.formUnion(delta.versions) }
        return changed
    }

    /// Leaves out of this delta the sections and items `state` could not place after a merge:
    /// ones whose place the delta does not hold and `state` never had, or placed in a section
    /// neither knows. A delta made for a cursor `state` does not cover (a bundle for the cursor a
    /// database had before it was restored from a backup) can name what was made in changes it
    /// leaves out; `state`'s versions then take nothing from it, and a later sync brings them whole.
    ///
    /// - Returns: How many sections and items it left out.
    /// - Complexity: O(*d*) for the delta's *d* sections and items.
    @discardableResult
    mutating func dropUnplaceable(into state: ReplicatedGrid) -> Int {
        let count = sections.count + items.count
        sections = sections.filter { id, section in section.order.winner != nil || state.sections[id]?.order.winner != nil }
        func isKnown(_ section: SyncEntityID) -> Bool {
            sections[section]?.order.winner != nil || state.sections[section]?.order.winner != nil
        }
        items = items.filter { id, item in
            let held = state.items[id]?.place ?? MergeRegister()
            return (item.place.winner != nil || held.winner != nil)
                && item.place.heads.allSatisfy { isKnown($0.value.section) } && held.heads.allSatisfy { isKnown($0.value.section) }
        }
        return count - sections.count - items.count
    }

    /// Checks what a merge left: every item has a place in a section that exists, every section
    /// has a place, and the grid is within gridstore's limits.
    ///
    /// - Throws: ``GridError`` naming the first problem.
    /// - Complexity: O(*n* log *n*) for the state's *n* items and sections, deleted ones
    ///   included: it checks every register and lays the grid out (``layout()``).
    func validate() throws(GridError) -> Layout {
        for (id, item) in items {
            guard item.place.winner != nil else { throw .corrupted("item \(id) has no place") }
            for head in item.place.heads where sections[head.value.section]?.order.winner == nil {
                throw .corrupted("item \(id) is placed in section \(head.value.section), which is unknown")
            }
        }
        for (id, section) in sections where section.order.winner == nil {
            throw GridError.corrupted("section \(id) has no place")
        }
        // Every register that has seen a write holds one (a register merged empty cannot be written back).
        func holdsWrite<Value>(_ register: MergeRegister<Value>) -> Bool { register.context.isEmpty || register.winner != nil }
        guard holdsWrite(options.columns), holdsWrite(options.direction), holdsWrite(options.defaultSize), holdsWrite(options.honeycomb),
              sections.values.allSatisfy({ holdsWrite($0.alive) }),
              items.values.allSatisfy({ holdsWrite($0.size) && holdsWrite($0.key) && holdsWrite($0.alive) }),
              names.values.allSatisfy(holdsWrite) else {
            throw GridError.corrupted("a value has seen writes but holds none")
        }
        let layout = layout()
        _ = try layout.content.validatedConfiguration()
        return layout
    }

    /// Refuses a state gridstore could not read back: more replicas than a bundle may name, or
    /// more items and sections than a state may hold, deleted ones included.
    ///
    /// - Throws: ``GridError/sync(_:)`` of kind ``SyncError/Kind/tooLarge``.
    func checkLimits(grid: String, replica: ReplicaID? = nil) throws(GridError) {
        guard items.count + sections.count <= SyncBundle.maximumEntities else {
            throw .sync(SyncError(.tooLarge, "grid '\(grid)' would hold \(NumberText.count(items.count + sections.count)) items and "
                                  + "sections, deleted ones included, past the \(NumberText.count(SyncBundle.maximumEntities)) "
                                  + "a sync state holds; \(Self.startAnew)"))
        }
        var known = latestTimes()
        if let replica { known[replica] = known[replica] ?? .zero }
        for named in names.keys where known[named] == nil { known[named] = .zero }
        let replicas = known.count
        guard replicas <= SyncBundle.maximumReplicas else {
            throw .sync(SyncError(.tooLarge, "grid '\(grid)' would know changes of \(NumberText.count(replicas)) replicas, past the "
                                  + "\(NumberText.count(SyncBundle.maximumReplicas)) a sync state holds; \(Self.startAnew)"))
        }
    }

    /// How a grid past a limit of its sync state syncs again.
    static let startAnew = "to start its sync anew, export the grid, drop it and import it again: its peers take the new grid in its place"
}
