import GridLayout

/// What one replica sends another about one grid: every register the receiver lacks (its
/// cursor says which), whole, with the sender's cursor. Applying one is idempotent, and
/// bundles may arrive in any order; see docs/sync.md for the format.
///
/// ```swift
/// let bundle = try phoneGrid.syncBundle(since: tabletCursor)   // on the phone
/// try tabletGrid.applySyncBundle(bundle.encoded())             // on the tablet
/// ```
public struct SyncBundle: Sendable {
    /// The format this gridstore writes (binary, ``encoded()``), and the newest it reads.
    /// ``encodedAsJSON()`` writes format 1, JSON text, which every gridstore with sync reads.
    public static let format = 2
    /// The largest bundle read: 256 MiB.
    public static let maximumBytes = 256 * 1024 * 1024
    /// The most items and sections a bundle or a grid's sync state holds, deleted ones included:
    /// twice a grid's limit of items.
    public static let maximumEntities = 2 * GridLimits.maximumItems
    /// The most replicas a bundle names.
    static let maximumReplicas = 10_000

    /// The grid's name.
    public let grid: String
    /// The replica that made the bundle.
    public let replica: ReplicaID
    /// What the receiver knew, as the sender was told: the bundle holds everything after it.
    let cursor: VersionVector
    /// The registers and the sender's versions, as a state or in the order they are written.
    let content: Content

    enum Content: Sendable {
        case state(ReplicatedGrid)
        case sorted(SortedDelta)
    }

    init(grid: String, replica: ReplicaID, cursor: VersionVector, delta: ReplicatedGrid) {
        self.init(grid: grid, replica: replica, cursor: cursor, content: .state(delta))
    }

    init(grid: String, replica: ReplicaID, cursor: VersionVector, content: Content) {
        self.grid = grid
        self.replica = replica
        self.cursor = cursor
        self.content = content
    }

    /// The registers, and the sender's versions, as a state (made from the sorted form each time
    /// it is asked for: a whole merge makes it once, ``withState()``).
    var delta: ReplicatedGrid {
        switch content {
        case .state(let state): state
        case .sorted(let sorted): sorted.state
        }
    }

    /// The registers in the order they are written.
    var sorted: SortedDelta {
        switch content {
        case .state(let state): SortedDelta(state)
        case .sorted(let sorted): sorted
        }
    }

    /// The sender's versions: what it knew of the grid's changes.
    var versions: VersionVector {
        switch content {
        case .state(let state): state.versions
        case .sorted(let sorted): sorted.versions
        }
    }

    /// The names of replicas the bundle carries.
    var names: [ReplicaID: MergeRegister<String>] {
        switch content {
        case .state(let state): state.names
        case .sorted(let sorted): sorted.names
        }
    }

    /// This bundle, its registers as a state: what a whole merge reads, more than once.
    func withState() -> SyncBundle {
        guard case .sorted(let sorted) = content else { return self }
        return SyncBundle(grid: grid, replica: replica, cursor: cursor, content: .state(sorted.state))
    }

    /// How many changes (registers) the bundle carries.
    public var changeCount: Int {
        switch content {
        case .state(let state): state.registerCount
        case .sorted(let sorted): sorted.registerCount
        }
    }

    // MARK: Writing

    /// Every replica the bundle names, sorted: its sender, its cursor's and versions' replicas,
    /// and each register's writers. Both formats name a replica by its index here.
    var replicaTable: [ReplicaID] { replicaTable(of: sorted) }

    /// ``replicaTable`` of the bundle's registers `sorted`.
    func replicaTable(of sorted: SortedDelta) -> [ReplicaID] {
        var replicas = sorted.writers
        replicas.insert(replica)
        replicas.formUnion(sorted.names.keys)
        replicas.formUnion(cursor.entries.keys)
        replicas.formUnion(sorted.versions.entries.keys)
        return replicas.sorted()
    }

    /// The bundle as JSON text, format 1: compact, in a fixed order; for a person to read, or
    /// a peer running a gridstore older than format 2. ``init(decoding:)`` reads it.
    ///
    /// - Complexity: O(*r* log *r*) for the bundle's *r* registers (written in the order of
    ///   their ids), and linear in the bytes written.
    public func encodedAsJSON() -> [UInt8] {
        let delta = self.delta
        let ordered = replicaTable
        var writer = BundleWriter(indices: SyncReplicaNumbers(ordered: ordered))
        writer.raw("{\"gridstore-sync\":1,\"grid\":\(JSONText.quoted(grid)),\"replica\":\"\(replica)\",\"replicas\":[")
        writer.raw(ordered.map { "\"\($0)\"" }.joined(separator: ","))
        writer.raw("],\"cursor\":")
        writer.versions(cursor)
        writer.raw(",\"versions\":")
        writer.versions(delta.versions)
        writer.raw(",\"options\":{")
        var separator = ""
        func option<Value>(_ name: String, _ register: MergeRegister<Value>, _ value: (Value) -> String) {
            guard !register.context.isEmpty else { return }
            writer.raw(separator + "\"\(name)\":")
            writer.register(register, value)
            separator = ","
        }
        option("columns", delta.options.columns, RegisterJSON.columns)
        option("direction", delta.options.direction, RegisterJSON.direction)
        option("defaultSize", delta.options.defaultSize, RegisterJSON.defaultSize)
        option("honeycomb", delta.options.honeycomb, RegisterJSON.honeycomb)
        writer.raw("},\"sections\":{")
        for (index, id) in delta.sections.keys.sorted().enumerated() {
            let section = delta.sections[id]!
            writer.raw((index > 0 ? "," : "") + "\"\(id)\":{")
            separator = ""
            option("o", section.order, RegisterJSON.order)
            option("a", section.alive, RegisterJSON.alive)
            writer.raw("}")
        }
        writer.raw("},\"items\":{")
        for (index, id) in delta.items.keys.sorted().enumerated() {
            let item = delta.items[id]!
            writer.raw((index > 0 ? "," : "") + "\"\(id)\":{")
            separator = ""
            option("p", item.place, RegisterJSON.place)
            option("s", item.size, RegisterJSON.size)
            option("k", item.key, RegisterJSON.key)
            option("a", item.alive, RegisterJSON.alive)
            writer.raw("}")
        }
        writer.raw("}")
        if !delta.names.isEmpty {
            writer.raw(",\"names\":{")
            separator = ""
            for replica in delta.names.keys.sorted() { option(replica.description, delta.names[replica]!, RegisterJSON.name) }
            writer.raw("}")
        }
        writer.raw("}\n")
        return writer.text
    }

}

/// Each register's value as format 1 writes it.
enum RegisterJSON {
    static func columns(_ columns: Int) -> String { "\(columns)" }
    static func direction(_ direction: ScrollDirection) -> String { "\"\(direction.rawValue)\"" }
    static func defaultSize(_ size: TileSize) -> String { "\"\(size.rawValue)\"" }
    static func honeycomb(_ honeycomb: HoneycombConfiguration?) -> String { honeycomb.map(honeycombText) ?? "null" }
    static func order(_ order: OrderKey) -> String { "\"\(order)\"" }
    static func alive(_ alive: Bool) -> String { alive ? "true" : "false" }
    static func place(_ place: ReplicatedGrid.Place) -> String { "[\"\(place.section)\",\"\(place.order)\"]" }
    static func size(_ size: TileSize?) -> String {
        switch size {
        case .small: "\"small\""
        case .middle: "\"middle\""
        case .big: "\"big\""
        case nil: "null"
        }
    }
    static func key(_ key: String?) -> String { key.map(JSONText.quoted) ?? "null" }
    static func name(_ name: String) -> String { JSONText.quoted(name) }

    private static func honeycombText(_ honeycomb: HoneycombConfiguration) -> String {
        "{\"elementWidth\":\(NumberText.exact(honeycomb.elementWidth)),\"itemSpacing\":\(NumberText.exact(honeycomb.itemSpacing)),"
            + "\"orientation\":\"\(honeycomb.orientation.rawValue)\",\"centerItem\":\"\(honeycomb.centerItem.rawValue)\","
            + "\"ringOrder\":\"\(honeycomb.ringOrder.rawValue)\",\"scaling\":\"\(honeycomb.scalingCurve.rawValue)\"}"
    }
}

/// Appends a bundle's JSON text.
struct BundleWriter {
    /// The number each replica the text names goes by.
    let indices: SyncReplicaNumbers
    var text: [UInt8] = []

    mutating func raw(_ string: String) { text.append(contentsOf: string.utf8) }

    /// `[[index,time],…]`.
    mutating func versions(_ vector: VersionVector) {
        text.append(UInt8(ascii: "["))
        for (position, entry) in vector.entries.sorted(by: { $0.key < $1.key }).enumerated() {
            if position > 0 { text.append(UInt8(ascii: ",")) }
            pair(indices[entry.key]!, entry.value.rawValue)
        }
        text.append(UInt8(ascii: "]"))
    }

    /// `[[value,time,index],…]`, then `{"seen":[[index,time],…]}` for the replicas whose latest
    /// write known is not a head.
    mutating func register<Value>(_ register: MergeRegister<Value>, _ value: (Value) -> String) {
        // A register's row of its own (most): room for one write and a seen entry at once.
        if text.isEmpty { text.reserveCapacity(80) }
        text.append(UInt8(ascii: "["))
        for (position, head) in register.heads.enumerated() {
            if position > 0 { text.append(UInt8(ascii: ",")) }
            text.append(UInt8(ascii: "["))
            raw(value(head.value))
            text.append(UInt8(ascii: ","))
            decimal(head.stamp.time.rawValue)
            text.append(UInt8(ascii: ","))
            decimal(Int64(indices[head.stamp.replica]!))
            text.append(UInt8(ascii: "]"))
        }
        let seen = register.seen
        if !seen.isEmpty {
            raw(",{\"seen\":[")
            for (position, entry) in seen.enumerated() {
                if position > 0 { text.append(UInt8(ascii: ",")) }
                pair(indices[entry.replica]!, entry.time.rawValue)
            }
            raw("]}")
        }
        text.append(UInt8(ascii: "]"))
    }

    /// `[index,time]`.
    private mutating func pair(_ index: Int, _ time: Int64) {
        text.append(UInt8(ascii: "["))
        decimal(Int64(index))
        text.append(UInt8(ascii: ","))
        decimal(time)
        text.append(UInt8(ascii: "]"))
    }

    /// `number` in decimal digits, as `"\(number)"` writes it.
    private mutating func decimal(_ number: Int64) {
        if number < 0 { text.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        // At most 20 digits (UInt64.max), written from the right.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            text.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }
}

/// What a replica knows of every replica's changes to a grid: what a peer sends it a bundle since.
///
/// Written as `<replica>:<time>` entries, comma-separated, or `none` for a replica that knows
/// nothing. Send ``description`` to the peer, which reads it back with ``init(parsing:)``:
///
/// ```swift
/// let text = try tabletGrid.syncCursor().description      // on the tablet: send it
/// let cursor = try SyncCursor(parsing: text)               // on the phone
/// let bundle = try phoneGrid.syncBundle(since: cursor)
/// ```
public struct SyncCursor: Sendable, Hashable, CustomStringConvertible {
    let versions: VersionVector

    init(_ versions: VersionVector) {
        self.versions = versions
    }

    /// Knows nothing: a bundle since it holds everything.
    public static let empty = SyncCursor(VersionVector())

    /// The text of ``empty``.
    static let emptyText = "none"

    /// The cursor written as `text` (``description``; an empty text is ``empty`` too); `nil` for anything else.
    public init?(_ text: String) {
        if text == Self.emptyText {
            self = .empty
            return
        }
        guard let versions = SyncVersionsText.decode(text) else { return nil }
        self.versions = versions
    }

    /// The cursor written as `text`, as ``init(_:)`` reads it.
    ///
    /// - Throws: ``SyncError`` of kind ``SyncError/Kind/malformed`` saying what a cursor is.
    public init(parsing text: String) throws(SyncError) {
        guard let cursor = SyncCursor(text) else {
            throw SyncError(.malformed, "'\(SyncError.excerpt(text))' is not a sync cursor: it is 'none' or <replica>:<time> entries, "
                                        + "comma-separated, as SyncCursor.description writes them")
        }
        self = cursor
    }

    /// `none`, or `<replica>:<time>` entries, comma-separated.
    public var description: String { versions.entries.isEmpty ? Self.emptyText : SyncVersionsText.encode(versions) }
}
