import GridLayout

/// Reads format 2 (see ``BinaryBundle``), checking every value as the JSON reader does, and
/// every count against the bytes left before anything is allocated for it.
struct BinaryBundleDecoder {
    private var input: ByteReader
    private var replicas: [ReplicaID] = []
    private var stamps: [SyncStamp] = []
    private var sectionIDs: [SyncEntityID] = []
    /// The stamp table's indices that writes used.
    private var usedStamps = Set<Int>()

    /// A decoder for `bytes`, which start with ``BinaryBundle/magic``.
    init(_ bytes: [UInt8]) {
        input = ByteReader(bytes, from: BinaryBundle.magic.count)
    }

    mutating func bundle() throws -> SyncBundle {
        let format = try input.varint()
        guard format <= UInt64(SyncBundle.format) else {
            throw SyncError(.newerFormat, "the sync bundle is in format \(format), newer than the format \(SyncBundle.format) "
                                          + "this gridstore reads; update gridstore")
        }
        guard format == 2 else { throw input.failure("a binary bundle is in format 2, not \(format)") }
        let grid = try input.text(atMost: 4 * GridLimits.maximumNameLength, "the grid's name")
        if let problem = SyncError.problem(name: grid) { throw input.failure(problem) }

        let replicaCount = try input.count("the replica table", bytesEach: 16)
        guard replicaCount > 0 else { throw input.failure("the replica table is empty") }
        guard replicaCount <= SyncBundle.maximumReplicas else {
            throw SyncError(.tooLarge, "the sync bundle names more than \(SyncBundle.maximumReplicas) replicas")
        }
        replicas.reserveCapacity(replicaCount)
        for _ in 0..<replicaCount {
            let replica = ReplicaID(high: try input.fixed64(), low: try input.fixed64())
            if let last = replicas.last, replica <= last { throw input.failure("the replica table is not in order, or names one twice") }
            replicas.append(replica)
        }
        let sender = try replica()
        let cursor = try versions()
        // In the order the bundle holds them (by ascending id), as a merge by rows reads them.
        var delta = SortedDelta()
        delta.versions = try versions()

        let stampCount = try input.count("the stamp table", bytesEach: 2)
        // Reserved only as far as a bundle of that many bytes is likely to need: a count is a
        // claim, the bytes that follow are the proof.
        stamps.reserveCapacity(min(stampCount, 65_536))
        var time: Int64 = 0
        for _ in 0..<stampCount {
            let writer = try replica()
            let step = try input.varint()
            guard step <= UInt64(Int64.max - time) else { throw input.failure("a stamp's time is past 64 bits") }
            time += Int64(step)
            guard time >= HybridTime.origin.rawValue else { throw input.failure("a time is at least 1, not \(time)") }
            let stamp = SyncStamp(time: HybridTime(rawValue: time), replica: writer)
            if let last = stamps.last, !((last.time, last.replica) < (stamp.time, stamp.replica)) {
                throw input.failure("the stamp table is not in order, or holds one twice")
            }
            stamps.append(stamp)
        }

        var flags = try entityFlags(fields: 4)
        delta.options.columns = try register(flags, 0) { input throws(ByteReader.Failure) in
            let columns = try input.integer(atMost: Int.max, "a grid's columns")
            guard (1...GridConfiguration.maximumColumns).contains(columns) else {
                throw input.failure("a grid has 1 to \(GridConfiguration.maximumColumns) columns, not \(columns)")
            }
            return columns
        }
        delta.options.direction = try register(flags, 1) { input throws(ByteReader.Failure) in
            switch try input.varint() {
            case 0: return .vertical
            case 1: return .horizontal
            case let code: throw input.failure("\(code) is not a direction (0 vertical, 1 horizontal)")
            }
        }
        delta.options.defaultSize = try register(flags, 2) { input throws(ByteReader.Failure) in
            guard let size = try Self.size(&input) else { throw input.failure("a grid's default size is small, middle or big") }
            return size
        }
        delta.options.honeycomb = try register(flags, 3, Self.honeycomb)

        var entities = 0
        func countEntity() throws(SyncError) {
            entities += 1
            guard entities <= SyncBundle.maximumEntities else {
                throw SyncError(.tooLarge, "the sync bundle holds more than \(NumberText.count(SyncBundle.maximumEntities)) items and sections")
            }
        }

        let sectionCount = try input.count("the section table", bytesEach: 2)
        sectionIDs.reserveCapacity(min(sectionCount, 65_536))
        var onlyNamed = Set<Int>()
        for _ in 0..<sectionCount {
            let id = try entityID(after: sectionIDs.last)
            try countEntity()
            sectionIDs.append(id)
            flags = try entityFlags(fields: 2)
            guard flags != 0 else {
                onlyNamed.insert(sectionIDs.count - 1)
                continue
            }
            var section = ReplicatedGrid.Section()
            section.order = try register(flags, 0, Self.orderKey)
            section.alive = try register(flags, 1, Self.boolean)
            delta.sections.append((id, section))
        }

        let itemCount = try input.count("the item table", bytesEach: 3)
        delta.items.reserveCapacity(min(itemCount, 65_536))
        var previous: SyncEntityID?
        for _ in 0..<itemCount {
            let id = try entityID(after: previous)
            previous = id
            try countEntity()
            flags = try entityFlags(fields: 4)
            guard flags != 0 else { throw input.failure("item \(id) carries nothing") }
            var item = ReplicatedGrid.Item()
            let sections = sectionIDs
            item.place = try register(flags, 0) { input throws(ByteReader.Failure) in
                let index = try input.integer(atMost: sections.count - 1, "a place's section")
                onlyNamed.remove(index)
                return ReplicatedGrid.Place(section: sections[index], order: try Self.orderKey(&input))
            }
            item.size = try register(flags, 1, Self.size)
            item.key = try register(flags, 2) { input throws(ByteReader.Failure) in
                let length = try input.integer(atMost: 4 * GridLimits.maximumKeyLength + 1, "the length of an item's key")
                guard length > 0 else { return nil }
                let start = input.offset
                guard let key = String(validating: try input.raw(length - 1), as: UTF8.self) else {
                    throw ByteReader.Failure(message: "an item's key is not UTF-8", offset: start)
                }
                if let problem = SyncError.problem(key: key) { throw ByteReader.Failure(message: problem, offset: start) }
                return key
            }
            item.alive = try register(flags, 3, Self.boolean)
            // A size alone, of one write seen by its writer alone (a toggle's), is that write.
            if item.place.context.isEmpty, item.key.context.isEmpty, item.alive.context.isEmpty, let write = item.size.soleWrite {
                delta.items.append(.size(id, write))
            } else {
                delta.items.append(.item(id, item))
            }
        }

        let nameCount = try input.count("the replicas' names", bytesEach: 3)
        var previousIndex = -1
        for _ in 0..<nameCount {
            let index = try input.integer(atMost: replicas.count - 1, "a replica's index")
            guard index > previousIndex else { throw input.failure("the replicas' names are not in the order of the replicas") }
            previousIndex = index
            let start = input.offset
            let name = try input.text(atMost: 4 * GridLimits.maximumReplicaNameLength, "a replica's name")
            if let problem = SyncError.problem(replicaName: name) { throw ByteReader.Failure(message: problem, offset: start) }
            let stamp = try stamp()
            guard stamp.replica == replicas[index] else { throw input.failure("replica \(replicas[index])'s name is one write, by that replica") }
            delta.names[replicas[index]] = MergeRegister(heads: [.init(value: name, stamp: stamp)], context: [])
        }
        guard input.isAtEnd else { throw input.failure("\(input.remaining) bytes follow the bundle's end") }
        // As the encoder writes them: a section only named is named by a place, and every stamp is a write's.
        if let section = onlyNamed.min() { throw input.failure("section \(sectionIDs[section]) carries nothing and no place names it") }
        guard usedStamps.count == stamps.count else { throw input.failure("a stamp in the table is no write's") }
        return SyncBundle(grid: grid, replica: sender, cursor: cursor, content: .sorted(delta))
    }

    // MARK: Pieces

    private mutating func replica() throws(ByteReader.Failure) -> ReplicaID {
        replicas[try input.integer(atMost: replicas.count - 1, "a replica's index")]
    }

    /// An id written as its difference from `previous`: the first as it is, each later one after the one before.
    private mutating func entityID(after previous: SyncEntityID?) throws(ByteReader.Failure) -> SyncEntityID {
        let step = try input.varint()
        guard let previous else { return SyncEntityID(rawValue: step) }
        guard step > 0, step <= UInt64.max - previous.rawValue else { throw input.failure("ids are not in order, or one is named twice") }
        return SyncEntityID(rawValue: previous.rawValue + step)
    }

    /// An entity's flags byte, with bits only for its `fields` registers.
    private mutating func entityFlags(fields: Int) throws(ByteReader.Failure) -> UInt8 {
        let flags = try input.byte()
        let used = UInt8((1 << fields) - 1)
        guard flags & ~(used | used << 4) == 0, (flags >> 4) & ~flags == 0 else {
            throw input.failure("flags \(flags) name registers that do not exist")
        }
        return flags
    }

    /// `[index, time]` pairs, in the order of the replicas, each once.
    private mutating func versions() throws(ByteReader.Failure) -> VersionVector {
        let count = try input.count("a version vector", bytesEach: 2)
        var vector = VersionVector()
        var previous = -1
        for _ in 0..<count {
            let index = try input.integer(atMost: replicas.count - 1, "a replica's index")
            guard index > previous else { throw input.failure("a version vector is not in the order of the replicas") }
            previous = index
            vector.advance(replicas[index], to: try time())
        }
        return vector
    }

    private mutating func time() throws(ByteReader.Failure) -> HybridTime {
        let value = try input.varint()
        guard value >= UInt64(HybridTime.origin.rawValue), value <= UInt64(Int64.max) else {
            throw input.failure("a time is from 1 to 2^63 - 1, not \(value)")
        }
        return HybridTime(rawValue: Int64(value))
    }

    /// The register the flags byte says is there for `field`, or an empty one: a simple one is a
    /// value and a stamp; else a count of writes (each of another replica), a seen list of
    /// replicas that wrote none of them, the writes, and the list.
    private mutating func register<Value>(_ flags: UInt8, _ field: Int,
                                          _ value: (inout ByteReader) throws(ByteReader.Failure) -> Value)
        throws(ByteReader.Failure) -> MergeRegister<Value> {
        guard flags & BinaryBundle.presence(field) != 0 else { return MergeRegister() }
        guard flags & BinaryBundle.general(field) != 0 else {
            let written = try value(&input)
            return MergeRegister(heads: [.init(value: written, stamp: try stamp())], context: [])
        }
        let shape = try input.integer(atMost: 2 * replicas.count + 1, "a register's count of writes")
        let headCount = shape >> 1
        guard headCount > 0 else { throw input.failure("a register holds no write") }
        var heads: [MergeRegister<Value>.Write] = []
        heads.reserveCapacity(min(headCount, 8))
        var writers = MergeRegister<Value>.Writers()
        for _ in 0..<headCount {
            let written = try value(&input)
            let stamp = try stamp()
            guard writers.insert(stamp.replica, after: heads) else { throw input.failure("a register holds two writes of replica \(stamp.replica)") }
            if let last = heads.last, !(stamp < last.stamp) { throw input.failure("a register's writes are not latest first") }
            heads.append(.init(value: written, stamp: stamp))
        }
        var context: [(replica: ReplicaID, time: HybridTime)] = []
        if shape & 1 == 1 {
            let seen = try versions()
            guard !seen.entries.isEmpty else { throw input.failure("a register's seen list is empty") }
            for (replica, time) in seen.entries {
                guard !writers.contains(replica, in: heads) else { throw input.failure("replica \(replica) has a write and is seen") }
                context.append((replica, time))
            }
        } else if headCount == 1 {
            throw input.failure("a register of one write and no seen list is written in its short form")
        }
        return MergeRegister(heads: heads, context: context)
    }

    private mutating func stamp() throws(ByteReader.Failure) -> SyncStamp {
        let index = try input.integer(atMost: stamps.count - 1, "a stamp's index")
        usedStamps.insert(index)
        return stamps[index]
    }

    private static func size(_ input: inout ByteReader) throws(ByteReader.Failure) -> TileSize? {
        let code = try input.varint()
        guard let size = BinaryBundle.size(code: code) else { throw input.failure("\(code) is not a size (0 to 3)") }
        return size
    }

    private static func boolean(_ input: inout ByteReader) throws(ByteReader.Failure) -> Bool {
        switch try input.byte() {
        case 0: return false
        case 1: return true
        case let byte: throw ByteReader.Failure(message: "\(byte) is not a Boolean (0 or 1)", offset: input.offset - 1)
        }
    }

    private static func orderKey(_ input: inout ByteReader) throws(ByteReader.Failure) -> OrderKey {
        let text = try input.text(atMost: OrderKey.maximumLength, "an order key")
        guard let key = OrderKey(text) else {
            throw input.failure("'\(SyncError.excerpt(text))' is not an order key (1 to \(OrderKey.maximumLength) base-62 digits, the last not 0)")
        }
        return key
    }

    private static func honeycomb(_ input: inout ByteReader) throws(ByteReader.Failure) -> HoneycombConfiguration? {
        switch try input.byte() {
        case 0: return nil
        case 1: break
        case let byte: throw ByteReader.Failure(message: "\(byte) does not start a honeycomb (0 none, 1 one)", offset: input.offset - 1)
        }
        let width = Double(bitPattern: try input.fixed64()), spacing = Double(bitPattern: try input.fixed64())
        func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type, _ input: inout ByteReader) throws(ByteReader.Failure) -> T
            where T.RawValue == String {
            let text = try input.text(atMost: 64, "a honeycomb option")
            guard let value = T(rawValue: text) else {
                throw input.failure("'\(SyncError.excerpt(text))' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return value
        }
        let orientation = try choice(HoneycombConfiguration.Orientation.self, &input)
        let center = try choice(HoneycombConfiguration.CenterItem.self, &input)
        let ringOrder = try choice(HoneycombConfiguration.RingOrder.self, &input)
        let scaling = try choice(EdgeScaling.Curve.self, &input)
        do {
            return try HoneycombConfiguration(elementWidth: width, itemSpacing: spacing, orientation: orientation,
                                              centerItem: center, ringOrder: ringOrder, scalingCurve: scaling)
        } catch {
            throw input.failure("a honeycomb that cannot be drawn: \(error)")
        }
    }
}
