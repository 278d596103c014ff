/// The replicas a grid's stored registers name, by number (`sync_replicas`): numbers given in
/// the order replicas were first written, never reused.
struct SyncReplicaNumbers {
    /// The most replicas a stored state numbers: twice the replicas a state knows, since a
    /// replica stays numbered after its writes are replaced. Past it, the state is written anew.
    static let maximumCount = 2 * SyncBundle.maximumReplicas

    /// The replicas, by number.
    private(set) var ids: [ReplicaID] = []
    /// The numbers by replica, made once there are more than ``searchedCount``: a grid's few
    /// replicas are searched in ``ids``, as a process's first dictionary keyed by ``ReplicaID``
    /// costs the Swift runtime a search of the binary's conformance records (about 200,000
    /// instructions, a sixth of what recording a toggle of a synced grid costs).
    private var index: [ReplicaID: Int]?
    /// The replicas numbered since the state was read.
    private(set) var added: [StoredSyncReplica] = []

    /// How many replicas are searched in order before they are indexed.
    static let searchedCount = 16

    init() {}

    /// `ids`, numbered in their order (each once).
    init(ordered ids: [ReplicaID]) {
        for id in ids { append(id) }
    }

    /// The numbers stored, checked: each replica a valid id, numbered once, from 0 on.
    init(stored: [StoredSyncReplica], grid: String) throws(GridError) {
        guard stored.count <= Self.maximumCount else {
            throw .corrupted("grid '\(grid)' has a sync state naming more than \(NumberText.count(Self.maximumCount)) replicas")
        }
        for (position, row) in stored.enumerated() {
            guard row.number == Int64(position), let id = ReplicaID(row.id), self[id] == nil else {
                throw .corrupted("grid '\(grid)' has a sync state whose replica \(row.number) is not one replica id, numbered in turn")
            }
            append(id)
        }
    }

    var count: Int { ids.count }

    /// `replica`'s number; `nil` when it has none.
    ///
    /// - Complexity: O(1) on average; O(*r*) for the *r* ≤ ``searchedCount`` replicas of a state that has few.
    subscript(replica: ReplicaID) -> Int? {
        if let index { return index[replica] }
        return ids.firstIndex(of: replica)
    }

    /// Numbers `replica`, which has no number, next.
    private mutating func append(_ replica: ReplicaID) {
        ids.append(replica)
        if index != nil {
            index![replica] = ids.count - 1
        } else if ids.count > Self.searchedCount {
            index = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        }
    }

    /// `replica`'s number, given now when it has none.
    mutating func number(of replica: ReplicaID) -> Int {
        if let number = self[replica] { return number }
        let number = ids.count
        append(replica)
        added.append(StoredSyncReplica(number: Int64(number), id: replica.description))
        return number
    }

    /// The replicas numbered since the last call, now stored.
    mutating func takeAdded() -> [StoredSyncReplica] {
        defer { added = [] }
        return added
    }
}

extension ReplicatedGrid {
    /// The most register rows a stored state holds: four for each item and section, the
    /// options, and a name for each replica numbered.
    static let maximumRegisterRows = 4 * SyncBundle.maximumEntities + 4 + SyncReplicaNumbers.maximumCount

    /// Adds the stored registers `rows`, each checked as a bundle's register is.
    ///
    /// - Throws: ``GridError/corrupted(_:)`` naming the register gridstore cannot read.
    /// - Complexity: O(*m*) for the *m* bytes of the rows' texts, plus the sort of each
    ///   register's writes (usually one).
    mutating func load(_ rows: [StoredSyncRegister], replicas: SyncReplicaNumbers, grid: String) throws(GridError) {
        try Self.checkRowCount(rows.count, grid: grid)
        if items.isEmpty {
            // An item's rows follow each other (SQLite reads them in that order): room for as
            // many items as runs of one item's rows, made once rather than grown again and again.
            var runs = 0
            var previous: String?
            for row in rows where row.kind == "item" && row.entity != previous {
                runs += 1
                previous = row.entity
            }
            items.reserveCapacity(runs)
        }
        for row in rows {
            if row.kind == "replica" {
                // A name is a label: one that cannot be read is left out (`gridstore check` finds
                // it and `--repair` deletes it), and stops nothing.
                if let (replica, name) = try? Self.name(in: row, replicas: replicas) { names[replica] = name }
                continue
            }
            if let size = CompactRegister.size(of: row, replicas: replicas.ids), let id = SyncEntityID(row.entity) {
                items[id, default: Item()].size = size
                continue
            }
            try Self.read(row, replicas: replicas, grid: grid) { reader in
                switch row.kind {
                case "grid" where row.entity.isEmpty:
                    try reader.option(row.field, into: &options)
                case "section":
                    guard let id = SyncEntityID(row.entity) else { throw SyncError(.malformed, "its entity is not a sync id") }
                    try reader.sectionField(row.field, into: &sections[id, default: Section()])
                case "item":
                    guard let id = SyncEntityID(row.entity) else { throw SyncError(.malformed, "its entity is not a sync id") }
                    try reader.itemField(row.field, into: &items[id, default: Item()])
                default:
                    throw SyncError(.malformed, "it is of no kind gridstore writes")
                }
            }
        }
        try Self.checkEntityCount(items.count + sections.count, grid: grid)
    }

    /// Throws for more register rows than a state holds.
    static func checkRowCount(_ count: Int, grid: String) throws(GridError) {
        guard count <= maximumRegisterRows else {
            throw .corrupted("grid '\(grid)' has a sync state of more than \(NumberText.count(maximumRegisterRows)) registers")
        }
    }

    /// Throws for more items and sections than a state holds.
    static func checkEntityCount(_ count: Int, grid: String) throws(GridError) {
        guard count <= SyncBundle.maximumEntities else {
            throw .corrupted("grid '\(grid)' has a sync state of more than \(NumberText.count(SyncBundle.maximumEntities)) items and sections")
        }
    }

    /// The item `id` whose register rows are `rows`, each checked as ``load(_:replicas:grid:)``
    /// checks a register (its length, its text): what a change of a few sizes reads of each item
    /// it changes, without building a state. The caller bounds the number of rows (an item has
    /// at most four registers); a row of another kind or entity is refused, not skipped.
    ///
    /// - Throws: ``GridError/corrupted(_:)`` naming the register gridstore cannot read, or
    ///   one that is not of the item.
    static func item(_ id: SyncEntityID, rows: [StoredSyncRegister], replicas: SyncReplicaNumbers,
                     grid: String) throws(GridError) -> Item {
        var item = Item()
        for row in rows {
            if row.entity == id.description, let size = CompactRegister.size(of: row, replicas: replicas.ids) {
                item.size = size
                continue
            }
            try read(row, replicas: replicas, grid: grid) { reader in
                guard row.kind == "item", row.entity == id.description else { throw SyncError(.malformed, "it is not the item's register") }
                try reader.itemField(row.field, into: &item)
            }
        }
        return item
    }

    /// Reads one register row with `body`, which is given a reader of its text and must read it
    /// all.
    ///
    /// - Throws: ``GridError/corrupted(_:)`` naming the register, for a row longer than a
    ///   register may be or one `body` cannot read.
    private static func read(_ row: StoredSyncRegister, replicas: SyncReplicaNumbers, grid: String,
                             _ body: (inout BundleReader) throws -> Void) throws(GridError) {
        do {
            guard row.register.utf8.count <= StoredSyncRegisters.maximumRegisterBytes else {
                throw SyncError(.tooLarge, "it is longer than \(NumberText.count(StoredSyncRegisters.maximumRegisterBytes)) bytes")
            }
            var reader = BundleReader(reader: JSONReader(Array(row.register.utf8)), replicas: replicas.ids)
            try body(&reader)
            try reader.reader.expectEnd()
        } catch {
            throw .corrupted("grid '\(grid)' has a sync state gridstore cannot read: its register \(SyncError.excerpt(row.kind)) "
                             + "'\(SyncError.excerpt(row.entity))' \(SyncError.excerpt(row.field)): \(error)")
        }
    }

    /// The name a `replica` row holds, read as a bundle's is.
    ///
    /// - Throws: ``SyncError`` saying why the row is not one gridstore writes.
    static func name(in row: StoredSyncRegister, replicas: SyncReplicaNumbers) throws -> (ReplicaID, MergeRegister<String>) {
        guard row.field == "name", let id = ReplicaID(row.entity) else { throw SyncError(.malformed, "it is not a replica's name") }
        guard row.register.utf8.count <= StoredSyncRegisters.maximumRegisterBytes else { throw SyncError(.tooLarge, "it is too long") }
        var reader = BundleReader(reader: JSONReader(Array(row.register.utf8)), replicas: replicas.ids)
        let name = try reader.name(of: id)
        try reader.reader.expectEnd()
        return (id, name)
    }

    /// The registers that differ from `stored`'s (every one when `stored` is `nil`), as rows at
    /// `version`, numbering the replicas they name; and the registers `stored` held that this
    /// state no longer does.
    ///
    /// - Complexity: O(*n* · *c*) for the *n* items and sections of the two states and the *c*
    ///   context entries of a register, plus the encoding of each register that changed.
    func rows(changedFrom stored: ReplicatedGrid?, version: Int64,
              numbers: inout SyncReplicaNumbers) -> (registers: [StoredSyncRegister], removed: [(kind: String, entity: String, field: String)]) {
        var registers: [StoredSyncRegister] = []
        var removed: [(kind: String, entity: String, field: String)] = []
        func visit<Value: Equatable>(_ kind: String, _ entity: String, _ field: String, _ new: MergeRegister<Value>?, _ old: MergeRegister<Value>?,
                          _ value: (Value) -> String) {
            let new = new.flatMap { $0.context.isEmpty ? nil : $0 }, old = old.flatMap { $0.context.isEmpty ? nil : $0 }
            guard let new else {
                if old != nil { removed.append((kind, entity, field)) }
                return
            }
            if let old, old == new { return }
            for entry in new.context { _ = numbers.number(of: entry.replica) }
            var writer = BundleWriter(indices: numbers)
            writer.register(new, value)
            registers.append(StoredSyncRegister(kind: kind, entity: entity, field: field,
                                                register: String(decoding: writer.text, as: UTF8.self), version: version))
        }
        let oldOptions = stored?.options
        visit("grid", "", "columns", options.columns, oldOptions?.columns, RegisterJSON.columns)
        visit("grid", "", "direction", options.direction, oldOptions?.direction, RegisterJSON.direction)
        visit("grid", "", "defaultSize", options.defaultSize, oldOptions?.defaultSize, RegisterJSON.defaultSize)
        visit("grid", "", "honeycomb", options.honeycomb, oldOptions?.honeycomb, RegisterJSON.honeycomb)
        func visit(section id: SyncEntityID, _ new: Section?, _ old: Section?) {
            if let new, let old, new == old { return }
            let entity = id.description
            visit("section", entity, "o", new?.order, old?.order, RegisterJSON.order)
            visit("section", entity, "a", new?.alive, old?.alive, RegisterJSON.alive)
        }
        func visit(item id: SyncEntityID, _ new: Item?, _ old: Item?) {
            if let new, let old, new == old { return }
            let entity = id.description
            visit("item", entity, "p", new?.place, old?.place, RegisterJSON.place)
            visit("item", entity, "s", new?.size, old?.size, RegisterJSON.size)
            visit("item", entity, "k", new?.key, old?.key, RegisterJSON.key)
            visit("item", entity, "a", new?.alive, old?.alive, RegisterJSON.alive)
        }
        for (replica, name) in names { visit("replica", replica.description, "name", name, stored?.names[replica], RegisterJSON.name) }
        for (replica, name) in stored?.names ?? [:] where names[replica] == nil {
            visit("replica", replica.description, "name", nil, name, RegisterJSON.name)
        }
        for (id, section) in sections { visit(section: id, section, stored?.sections[id]) }
        for (id, item) in items { visit(item: id, item, stored?.items[id]) }
        if let stored {
            for (id, section) in stored.sections where sections[id] == nil { visit(section: id, nil, section) }
            for (id, item) in stored.items where items[id] == nil { visit(item: id, nil, item) }
        }
        return (registers, removed)
    }
}
