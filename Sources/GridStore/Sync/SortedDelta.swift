import GridLayout

/// A bundle's registers in the order format 2 writes them: sections and items by ascending id,
/// in arrays. A bundle read from a grid's stored rows, or decoded from format 2, is made in this
/// form directly (a merge by rows walks it in order), and an item of which it carries only a
/// size of one write, seen by its writer alone (most of what toggles and imported sizes send),
/// is that write alone, with no register built for it.
struct SortedDelta: Sendable {
    enum Item: Sendable {
        /// An item whose only register is its size, of one write seen by its writer alone.
        case size(SyncEntityID, MergeRegister<TileSize?>.Write)
        case item(SyncEntityID, ReplicatedGrid.Item)

        var id: SyncEntityID {
            switch self {
            case .size(let id, _), .item(let id, _): id
            }
        }
    }

    var options = ReplicatedGrid.Options()
    /// By ascending id.
    var sections: [(id: SyncEntityID, section: ReplicatedGrid.Section)] = []
    /// By ascending id, each id once.
    var items: [Item] = []
    var names: [ReplicaID: MergeRegister<String>] = [:]
    var versions = VersionVector()

    init() {}

    /// `state`'s registers in order.
    ///
    /// - Complexity: O(*n* log *n*) for its *n* items and sections.
    init(_ state: ReplicatedGrid) {
        options = state.options
        sections = state.sections.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        items = state.items.sorted { $0.key < $1.key }.map { .item($0.key, $0.value) }
        names = state.names
        versions = state.versions
    }

    /// The registers as a state.
    var state: ReplicatedGrid {
        var state = ReplicatedGrid()
        state.options = options
        state.sections.reserveCapacity(sections.count)
        for (id, section) in sections { state.sections[id] = section }
        state.items.reserveCapacity(items.count)
        for item in items {
            switch item {
            case .size(let id, let write):
                var register = ReplicatedGrid.Item()
                register.size = MergeRegister(heads: [write], context: [])
                state.items[id] = register
            case .item(let id, let register):
                state.items[id] = register
            }
        }
        state.names = names
        state.versions = versions
        return state
    }

    /// ``ReplicatedGrid/latestTimes()`` of these registers.
    ///
    /// - Complexity: O(*n* · *c*) for the *n* items and sections and the *c* context entries of a register.
    func latestTimes() -> [ReplicaID: HybridTime] {
        var latest = LatestTimes(versions)
        latest.collect(options)
        for (_, section) in sections { latest.collect(section.order); latest.collect(section.alive) }
        for item in items {
            switch item {
            case .size(_, let write): latest.collect(write.stamp.replica, write.stamp.time)
            case .item(_, let item): latest.collect(item)
            }
        }
        return latest.times
    }

    /// How many registers hold a write (``ReplicatedGrid/registerCount``).
    var registerCount: Int {
        func count<Value>(_ register: MergeRegister<Value>) -> Int { register.context.isEmpty ? 0 : 1 }
        var total = count(options.columns) + count(options.direction) + count(options.defaultSize) + count(options.honeycomb)
        for (_, section) in sections { total += count(section.order) + count(section.alive) }
        for item in items {
            switch item {
            case .size: total += 1
            case .item(_, let item): total += count(item.place) + count(item.size) + count(item.key) + count(item.alive)
            }
        }
        return total
    }

    /// Every replica a register's context names (``ReplicatedGrid/latestTimes()``'s replicas,
    /// less the versions').
    var writers: Set<ReplicaID> {
        var writers = Set<ReplicaID>()
        var previous: ReplicaID?
        func collect<Value>(_ register: MergeRegister<Value>) {
            for entry in register.context where entry.replica != previous {
                writers.insert(entry.replica)
                previous = entry.replica
            }
        }
        collect(options.columns)
        collect(options.direction)
        collect(options.defaultSize)
        collect(options.honeycomb)
        for (_, section) in sections { collect(section.order); collect(section.alive) }
        for item in items {
            switch item {
            case .size(_, let write) where write.stamp.replica != previous:
                writers.insert(write.stamp.replica)
                previous = write.stamp.replica
            case .size: break
            case .item(_, let item): collect(item.place); collect(item.size); collect(item.key); collect(item.alive)
            }
        }
        for name in names.values { collect(name) }
        return writers
    }
}
