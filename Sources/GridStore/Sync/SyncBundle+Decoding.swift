import GridLayout

extension SyncBundle {
    /// Reads a bundle in format 2 (binary, ``encoded()``) or 1 (JSON, ``encodedAsJSON()``),
    /// checking every value before anything is allocated for it: its format,
    /// size, replica ids, stamps, order keys, item keys and options, and that each register is
    /// one a replica could have written.
    ///
    /// - Throws: ``SyncError`` with kind ``SyncError/Kind/newerFormat`` for a format after
    ///   ``format``, ``SyncError/Kind/tooLarge`` past ``maximumBytes`` or ``maximumEntities``,
    ///   else ``SyncError/Kind/malformed`` with where the problem is.
    /// - Complexity: O(*b*) for a bundle of *b* bytes, plus the sort of each register's writes
    ///   by stamp and by replica (usually one write).
    public init(decoding input: some Collection<UInt8>) throws(SyncError) {
        let bytes = Array(input)
        guard bytes.count <= Self.maximumBytes else {
            throw SyncError(.tooLarge, "the sync bundle is \(NumberText.count(bytes.count)) bytes; gridstore reads bundles of "
                                       + "up to \(NumberText.count(Self.maximumBytes)) bytes")
        }
        do {
            if bytes.starts(with: BinaryBundle.magic) {
                var decoder = BinaryBundleDecoder(bytes)
                self = try decoder.bundle()
                return
            }
            var reader = BundleReader(reader: JSONReader(bytes))
            self = try reader.bundle()
        } catch let error as SyncError {
            throw error
        } catch let error as JSONError {
            throw SyncError(.malformed, "the sync bundle is malformed: \(error)")
        } catch let error as ByteReader.Failure {
            throw SyncError(.malformed, "the sync bundle is malformed: \(error)")
        } catch {
            throw SyncError(.malformed, "the sync bundle is malformed: \(error)")
        }
    }
}

/// Reads a bundle's JSON; see ``SyncBundle/init(decoding:)``. A stored register's row is read
/// with the field readers (``option(_:into:)``, ``sectionField(_:into:)``, ``itemField(_:into:)``).
struct BundleReader {
    var reader: JSONReader
    var replicas: [ReplicaID] = []
    var entities = 0

    mutating func bundle() throws -> SyncBundle {
        try reader.beginObject()
        guard try reader.nextKey() == "gridstore-sync" else {
            throw reader.error("not a gridstore sync bundle: it starts with \"gridstore-sync\" and its format")
        }
        let format = try reader.readInteger()
        guard format <= SyncBundle.format else {
            throw SyncError(.newerFormat, "the sync bundle is in format \(format), newer than the format \(SyncBundle.format) "
                                          + "this gridstore reads; update gridstore")
        }
        guard format == 1 else { throw reader.error(format == 2 ? "format 2 is binary, not JSON" : "format \(format) does not exist") }
        var grid: String?
        var sender: ReplicaID?
        var cursor: VersionVector?
        var delta = ReplicatedGrid()
        var sawVersions = false
        while let key = try reader.nextKey() {
            if key != "grid", key != "replica", key != "replicas", replicas.isEmpty {
                throw reader.error("\"replicas\" must come before \(JSONText.quoted(SyncError.excerpt(key)))")
            }
            switch key {
            case "grid":
                let name = try reader.readString()
                if let problem = SyncError.problem(name: name) { throw reader.error(problem) }
                grid = name
            case "replica": sender = try replicaID()
            case "replicas":
                try reader.beginArray()
                var seen = Set<ReplicaID>()
                while try reader.nextElement() {
                    guard replicas.count < SyncBundle.maximumReplicas else {
                        throw SyncError(.tooLarge, "the sync bundle names more than \(SyncBundle.maximumReplicas) replicas")
                    }
                    let id = try replicaID()
                    guard seen.insert(id).inserted else { throw reader.error("replica \(id) is named twice") }
                    replicas.append(id)
                }
                guard !replicas.isEmpty else { throw reader.error("\"replicas\" is empty") }
            case "cursor": cursor = try versions()
            case "versions":
                delta.versions = try versions()
                sawVersions = true
            case "options": try options(into: &delta.options)
            case "sections":
                try reader.beginObject()
                while let id = try reader.nextKey() {
                    let id = try entityID(id)
                    try countEntity()
                    let section = try section()
                    guard section != ReplicatedGrid.Section() else { throw reader.error("section \(id) carries nothing") }
                    delta.sections[id] = section
                }
            case "items":
                try reader.beginObject()
                while let id = try reader.nextKey() {
                    let id = try entityID(id)
                    try countEntity()
                    let item = try item()
                    guard item != ReplicatedGrid.Item() else { throw reader.error("item \(id) carries nothing") }
                    delta.items[id] = item
                }
            case "names":
                let known = Set(replicas)
                try reader.beginObject()
                while let id = try reader.nextKey() {
                    guard let replica = ReplicaID(id) else {
                        throw reader.error("'\(SyncError.excerpt(id))' is not a replica id (32 lowercase hexadecimal digits)")
                    }
                    guard known.contains(replica) else { throw reader.error("replica \(replica) is not in \"replicas\"") }
                    guard delta.names[replica] == nil else { throw reader.error("replica \(replica) is named twice") }
                    delta.names[replica] = try name(of: replica)
                }
            default: throw reader.error("unknown field \(JSONText.quoted(SyncError.excerpt(key)))")
            }
        }
        try reader.expectEnd()
        guard let grid else { throw reader.error("the bundle names no grid") }
        guard let sender, replicas.contains(sender) else { throw reader.error("the bundle's replica is missing or not in \"replicas\"") }
        guard let cursor, sawVersions else { throw reader.error("the bundle has no \"cursor\" or no \"versions\"") }
        return SyncBundle(grid: grid, replica: sender, cursor: cursor, delta: delta)
    }

    private mutating func countEntity() throws(SyncError) {
        entities += 1
        guard entities <= SyncBundle.maximumEntities else {
            throw SyncError(.tooLarge, "the sync bundle holds more than \(NumberText.count(SyncBundle.maximumEntities)) items and sections")
        }
    }

    private mutating func replicaID() throws(JSONError) -> ReplicaID {
        let text = try reader.readString()
        guard let id = ReplicaID(text) else { throw reader.error("'\(SyncError.excerpt(text))' is not a replica id (32 lowercase hexadecimal digits)") }
        return id
    }

    private mutating func entityID(_ text: String) throws(JSONError) -> SyncEntityID {
        guard let id = SyncEntityID(text) else { throw reader.error("'\(SyncError.excerpt(text))' is not an id (16 lowercase hexadecimal digits)") }
        return id
    }

    private mutating func replicaIndex() throws(JSONError) -> ReplicaID {
        let index = try reader.readInteger()
        guard replicas.indices.contains(index) else { throw reader.error("replica \(index) is not in \"replicas\"") }
        return replicas[index]
    }

    private mutating func time() throws(JSONError) -> HybridTime {
        let value = try reader.readInteger()
        guard value >= HybridTime.origin.rawValue else { throw reader.error("a time is at least 1, not \(value)") }
        return HybridTime(rawValue: Int64(value))
    }

    /// `[[index,time],…]`, each replica once.
    private mutating func versions() throws(JSONError) -> VersionVector {
        var vector = VersionVector()
        try reader.beginArray()
        while try reader.nextElement() {
            try reader.beginArray()
            guard try reader.nextElement() else { throw reader.error("a version is [replica, time]") }
            let replica = try replicaIndex()
            guard try reader.nextElement() else { throw reader.error("a version is [replica, time]") }
            let time = try time()
            guard try !reader.nextElement() else { throw reader.error("a version is [replica, time]") }
            guard vector[replica] == .zero else { throw reader.error("replica \(replica) has two versions") }
            vector.advance(replica, to: time)
        }
        return vector
    }

    /// `[[value,time,index],…]` and maybe `{"seen":[[index,time],…]}`: at least one write, at
    /// most one per replica, and a replica in "seen" has no write.
    private mutating func register<Value>(_ value: (inout BundleReader) throws -> Value) throws -> MergeRegister<Value> {
        var heads: [MergeRegister<Value>.Write] = []
        var writers = MergeRegister<Value>.Writers()
        var context: [(replica: ReplicaID, time: HybridTime)] = []
        try reader.beginArray()
        while try reader.nextElement() {
            if try reader.peekKind() == .object {
                guard context.isEmpty else { throw reader.error("a register has one {\"seen\":[…]}") }
                try reader.beginObject()
                guard try reader.nextKey() == "seen" else { throw reader.error("a register's object is {\"seen\":[…]}") }
                let seen = try versions()
                guard try reader.nextKey() == nil, !seen.entries.isEmpty else { throw reader.error("a register's object is {\"seen\":[…]}") }
                context = seen.entries.map { ($0.key, $0.value) }
                continue
            }

            try reader.beginArray()
            guard try reader.nextElement() else { throw reader.error("a write is [value, time, replica]") }
            let written = try value(&self)
            guard try reader.nextElement() else { throw reader.error("a write is [value, time, replica]") }
            let time = try time()
            guard try reader.nextElement() else { throw reader.error("a write is [value, time, replica]") }
            let replica = try replicaIndex()
            guard try !reader.nextElement() else { throw reader.error("a write is [value, time, replica]") }
            guard writers.insert(replica, after: heads) else { throw reader.error("a register holds two writes of replica \(replica)") }
            heads.append(.init(value: written, stamp: SyncStamp(time: time, replica: replica)))
        }
        guard !heads.isEmpty else { throw reader.error("a register holds no write") }
        if !context.isEmpty {
            let seen = Set(context.map(\.replica))
            if let head = heads.first(where: { seen.contains($0.stamp.replica) }) {
                throw reader.error("replica \(head.stamp.replica) has a write and is seen")
            }
        }
        return MergeRegister(heads: heads, context: context)
    }

    private mutating func options(into options: inout ReplicatedGrid.Options) throws {
        try reader.beginObject()
        while let key = try reader.nextKey() { try option(key, into: &options) }
    }

    /// Reads the register of the option `key` into `options`.
    mutating func option(_ key: String, into options: inout ReplicatedGrid.Options) throws {
        switch key {
        case "columns":
            options.columns = try register { reader throws in
                let columns = try reader.reader.readInteger()
                guard (1...GridConfiguration.maximumColumns).contains(columns) else {
                    throw reader.reader.error("a grid has 1 to \(GridConfiguration.maximumColumns) columns, not \(columns)")
                }
                return columns
            }
        case "direction": options.direction = try register { try $0.choice(ScrollDirection.self) }
        case "defaultSize": options.defaultSize = try register { try $0.choice(TileSize.self) }
        case "honeycomb": options.honeycomb = try register { try $0.honeycomb() }
        default: throw reader.error("unknown option \(JSONText.quoted(SyncError.excerpt(key)))")
        }
    }

    private mutating func section() throws -> ReplicatedGrid.Section {
        var section = ReplicatedGrid.Section()
        try reader.beginObject()
        while let key = try reader.nextKey() { try sectionField(key, into: &section) }
        return section
    }

    /// Reads the register `key` of a section into `section`.
    mutating func sectionField(_ key: String, into section: inout ReplicatedGrid.Section) throws {
        switch key {
        case "o": section.order = try register { try $0.orderKey() }
        case "a": section.alive = try register { try $0.reader.readBoolean() }
        default: throw reader.error("unknown section field \(JSONText.quoted(SyncError.excerpt(key)))")
        }
    }

    private mutating func item() throws -> ReplicatedGrid.Item {
        var item = ReplicatedGrid.Item()
        try reader.beginObject()
        while let key = try reader.nextKey() { try itemField(key, into: &item) }
        return item
    }

    /// Reads the register `key` of an item into `item`.
    mutating func itemField(_ key: String, into item: inout ReplicatedGrid.Item) throws {
        switch key {
        case "p":
            item.place = try register { reader throws in
                try reader.reader.beginArray()
                guard try reader.reader.nextElement() else { throw reader.reader.error("a place is [section, order]") }
                let section = try reader.entityID(try reader.reader.readString())
                guard try reader.reader.nextElement() else { throw reader.reader.error("a place is [section, order]") }
                let order = try reader.orderKey()
                guard try !reader.reader.nextElement() else { throw reader.reader.error("a place is [section, order]") }
                return ReplicatedGrid.Place(section: section, order: order)
            }
        case "s": item.size = try register { reader throws in try reader.reader.isNull() ? nil : try reader.choice(TileSize.self) }
        case "k": item.key = try register { reader throws in try reader.reader.isNull() ? nil : try reader.itemKey() }
        case "a": item.alive = try register { try $0.reader.readBoolean() }
        default: throw reader.error("unknown item field \(JSONText.quoted(SyncError.excerpt(key)))")
        }
    }

    /// The register of `replica`'s name: one write, by `replica` itself, of a name a database
    /// may have (``GridLimits/validate(replicaName:)``).
    mutating func name(of replica: ReplicaID) throws -> MergeRegister<String> {
        let register = try register { reader throws in
            let name = try reader.reader.readString()
            if let problem = SyncError.problem(replicaName: name) { throw reader.reader.error(problem) }
            return name
        }
        guard register.heads.count == 1, register.context.count == 1, register.heads[0].stamp.replica == replica else {
            throw reader.error("replica \(replica)'s name is one write, by that replica")
        }
        return register
    }

    private mutating func orderKey() throws(JSONError) -> OrderKey {
        let text = try reader.readString()
        guard let key = OrderKey(text) else {
            throw reader.error("'\(SyncError.excerpt(text))' is not an order key (1 to \(OrderKey.maximumLength) base-62 digits, the last not 0)")
        }
        return key
    }

    private mutating func itemKey() throws(JSONError) -> String {
        let key = try reader.readString()
        if let problem = SyncError.problem(key: key) { throw reader.error(problem) }
        return key
    }

    private mutating func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type) throws(JSONError) -> T where T.RawValue == String {
        let text = try reader.readString()
        guard let value = T(rawValue: text) else {
            throw reader.error("'\(SyncError.excerpt(text))' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    private mutating func honeycomb() throws -> HoneycombConfiguration? {
        if try reader.isNull() { return nil }
        var width: Double?, spacing: Double?
        var orientation = HoneycombConfiguration.Orientation.pointyTop, center = HoneycombConfiguration.CenterItem.first
        var ringOrder = HoneycombConfiguration.RingOrder.standard, scaling = EdgeScaling.Curve.linear
        try reader.beginObject()
        while let key = try reader.nextKey() {
            switch key {
            case "elementWidth": width = try reader.readNumber()
            case "itemSpacing": spacing = try reader.readNumber()
            case "orientation": orientation = try choice(HoneycombConfiguration.Orientation.self)
            case "centerItem": center = try choice(HoneycombConfiguration.CenterItem.self)
            case "ringOrder": ringOrder = try choice(HoneycombConfiguration.RingOrder.self)
            case "scaling": scaling = try choice(EdgeScaling.Curve.self)
            default: throw reader.error("unknown honeycomb field \(JSONText.quoted(SyncError.excerpt(key)))")
            }
        }
        guard let width, let spacing else { throw reader.error("a honeycomb has an elementWidth and an itemSpacing") }
        do {
            return try HoneycombConfiguration(elementWidth: width, itemSpacing: spacing, orientation: orientation,
                                              centerItem: center, ringOrder: ringOrder, scalingCurve: scaling)
        } catch {
            throw reader.error("a honeycomb that cannot be drawn: \(error)")
        }
    }
}

extension SyncBundle {
    /// The bundle `bytes` hold, its refusal as a ``GridError``.
    static func decoded(_ bytes: some Collection<UInt8>) throws(GridError) -> SyncBundle {
        do { return try SyncBundle(decoding: bytes) } catch { throw .sync(error) }
    }
}
