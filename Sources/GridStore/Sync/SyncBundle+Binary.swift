import GridLayout

/// Format 2: a bundle in bytes, laid out so a change costs a few bytes (docs/sync.md, "The
/// format, version 2").
///
/// Replicas are named by their index in a sorted table, and a write's (time, replica) by its
/// index in a table of the bundle's stamps, sorted by time and written as differences: a change
/// that wrote 10,000 sizes has one stamp. Sections and items come sorted by id, each id written
/// as its difference from the one before. A register with one write and nothing else seen, the
/// common case, is its value and its stamp's index.
enum BinaryBundle {
    /// The first bytes of a format-2 bundle: a 0 (no JSON text starts with it), then "GSB".
    static let magic: [UInt8] = [0x00, 0x47, 0x53, 0x42]

    /// A field's bits in an entity's flags byte: the low four say which registers follow, the
    /// high four which of them has a shape (a count of writes and a seen list) of its own.
    static func presence(_ field: Int) -> UInt8 { 1 << UInt8(field) }
    static func general(_ field: Int) -> UInt8 { 0x10 << UInt8(field) }

    /// A tile size's code; 0 is no size of its own.
    static func sizeCode(_ size: TileSize?) -> UInt64 {
        switch size {
        case nil: 0
        case .small: 1
        case .middle: 2
        case .big: 3
        }
    }

    static func size(code: UInt64) -> TileSize?? {
        switch code {
        case 0: .some(nil)
        case 1: .small
        case 2: .middle
        case 3: .big
        default: nil
        }
    }

    static func directionCode(_ direction: ScrollDirection) -> UInt64 { direction == .vertical ? 0 : 1 }
}

extension SyncBundle {
    /// The bundle in format 2, the compact binary one gridstore writes for transport; see
    /// ``encodedAsJSON()`` for text a person can read. ``init(decoding:)`` reads both.
    ///
    /// - Complexity: O(*r* log *r*) for *r* registers.
    public func encoded() -> [UInt8] {
        var encoder = BinaryBundleEncoder(bundle: self)
        return encoder.encode()
    }
}

/// Writes format 2; see ``BinaryBundle``.
private struct BinaryBundleEncoder {
    let bundle: SyncBundle
    var out = ByteWriter()
    var replicaIndex: [ReplicaID: Int] = [:]
    var stampIndex: [SyncStamp: Int] = [:]
    var sectionIndex: [SyncEntityID: Int] = [:]

    init(bundle: SyncBundle) {
        self.bundle = bundle
    }

    mutating func encode() -> [UInt8] {
        let delta = bundle.sorted
        var stamps = Set<SyncStamp>()
        var sectionIDs = Set(delta.sections.map(\.id))
        // Most heads share their stamp with the head before (one change wrote them): looked up
        // in the set only when the stamp changes.
        var previousStamp: SyncStamp?
        func collect(_ stamp: SyncStamp) {
            guard stamp != previousStamp else { return }
            stamps.insert(stamp)
            previousStamp = stamp
        }
        func collect<Value>(_ register: MergeRegister<Value>) {
            for head in register.heads { collect(head.stamp) }
        }
        collect(delta.options.columns)
        collect(delta.options.direction)
        collect(delta.options.defaultSize)
        collect(delta.options.honeycomb)
        for (_, section) in delta.sections { collect(section.order); collect(section.alive) }
        for item in delta.items {
            switch item {
            case .size(_, let write):
                collect(write.stamp)
            case .item(_, let item):
                collect(item.place); collect(item.size); collect(item.key); collect(item.alive)
                for head in item.place.heads { sectionIDs.insert(head.value.section) }
            }
        }
        for name in delta.names.values { collect(name) }

        out.raw(BinaryBundle.magic)
        out.varint(2)
        out.text(bundle.grid)
        let orderedReplicas = bundle.replicaTable(of: delta)
        out.varint(orderedReplicas.count)
        for (index, replica) in orderedReplicas.enumerated() {
            replicaIndex[replica] = index
            out.fixed64(replica.high)
            out.fixed64(replica.low)
        }
        out.varint(replicaIndex[bundle.replica]!)
        versions(bundle.cursor)
        versions(delta.versions)

        let orderedStamps = stamps.sorted { ($0.time, $0.replica) < ($1.time, $1.replica) }
        out.varint(orderedStamps.count)
        var previous: Int64 = 0
        for (index, stamp) in orderedStamps.enumerated() {
            stampIndex[stamp] = index
            out.varint(replicaIndex[stamp.replica]!)
            out.varint(UInt64(stamp.time.rawValue - previous))
            previous = stamp.time.rawValue
        }

        // Options.
        let options = delta.options
        var flags: UInt8 = 0
        func mark<Value>(_ register: MergeRegister<Value>, _ field: Int) {
            guard !register.context.isEmpty else { return }
            flags |= BinaryBundle.presence(field)
            if !isSimple(register) { flags |= BinaryBundle.general(field) }
        }
        mark(options.columns, 0); mark(options.direction, 1); mark(options.defaultSize, 2); mark(options.honeycomb, 3)
        out.byte(flags)
        register(options.columns) { $0.varint($1) }
        register(options.direction) { $0.varint(BinaryBundle.directionCode($1)) }
        register(options.defaultSize) { $0.varint(BinaryBundle.sizeCode($1)) }
        register(options.honeycomb) { out, honeycomb in
            guard let honeycomb else { return out.byte(0) }
            out.byte(1)
            out.fixed64(honeycomb.elementWidth.bitPattern)
            out.fixed64(honeycomb.itemSpacing.bitPattern)
            out.text(honeycomb.orientation.rawValue)
            out.text(honeycomb.centerItem.rawValue)
            out.text(honeycomb.ringOrder.rawValue)
            out.text(honeycomb.scalingCurve.rawValue)
        }

        // Sections: every id the bundle names, those it only names (a place's section) flagged 0.
        let orderedSections = sectionIDs.sorted()
        let sections = Dictionary(delta.sections.map { ($0.id, $0.section) }, uniquingKeysWith: { first, _ in first })
        out.varint(orderedSections.count)
        var previousID: UInt64 = 0
        for (index, id) in orderedSections.enumerated() {
            sectionIndex[id] = index
            out.varint(id.rawValue - previousID)
            previousID = id.rawValue
            let section = sections[id] ?? ReplicatedGrid.Section()
            flags = 0
            mark(section.order, 0); mark(section.alive, 1)
            out.byte(flags)
            register(section.order) { $0.text($1.description) }
            register(section.alive) { $0.byte($1 ? 1 : 0) }
        }

        // Items.
        out.varint(delta.items.count)
        previousID = 0
        // Runs of sizes written by one change share a stamp: its index is looked up once a run.
        var sizeStamp: (stamp: SyncStamp, index: Int)?
        for entry in delta.items {
            out.varint(entry.id.rawValue - previousID)
            previousID = entry.id.rawValue
            switch entry {
            case .size(_, let write):
                // As an item whose one register is a simple size is written below.
                out.byte(BinaryBundle.presence(1))
                out.varint(BinaryBundle.sizeCode(write.value))
                if sizeStamp?.stamp != write.stamp { sizeStamp = (write.stamp, stampIndex[write.stamp]!) }
                out.varint(sizeStamp!.index)
            case .item(_, let item):
                flags = 0
                mark(item.place, 0); mark(item.size, 1); mark(item.key, 2); mark(item.alive, 3)
                out.byte(flags)
                let sections = sectionIndex
                register(item.place) { out, place in
                    out.varint(sections[place.section]!)
                    out.text(place.order.description)
                }
                register(item.size) { $0.varint(BinaryBundle.sizeCode($1)) }
                register(item.key) { out, key in
                    guard let key else { return out.varint(0) }
                    out.varint(key.utf8.count + 1)
                    out.raw(key.utf8)
                }
                register(item.alive) { $0.byte($1 ? 1 : 0) }
            }
        }

        // Names: each a replica's index, its name and the stamp of its one write, by index.
        let names = delta.names.compactMap { replica, name in name.winner.map { (index: replicaIndex[replica]!, write: $0) } }
            .sorted { $0.index < $1.index }
        out.varint(names.count)
        for name in names {
            out.varint(name.index)
            out.text(name.write.value)
            out.varint(stampIndex[name.write.stamp]!)
        }
        return out.bytes
    }

    /// One write, and no replica seen beyond it: written as its value and stamp alone.
    private func isSimple<Value>(_ register: MergeRegister<Value>) -> Bool {
        register.heads.count == 1 && register.context.count == 1
    }

    /// `[index, time]` pairs in the order of the replicas.
    private mutating func versions(_ vector: VersionVector) {
        let entries = vector.entries.map { (index: replicaIndex[$0.key]!, time: $0.value) }.sorted { $0.index < $1.index }
        out.varint(entries.count)
        for entry in entries {
            out.varint(entry.index)
            out.varint(UInt64(entry.time.rawValue))
        }
    }

    /// A register the flags byte says is present: for a simple one its value and stamp; else
    /// its count of writes, whether a seen list follows, the writes, and the seen list.
    private mutating func register<Value>(_ register: MergeRegister<Value>, _ value: (inout ByteWriter, Value) -> Void) {
        guard !register.context.isEmpty else { return }
        if isSimple(register) {
            value(&out, register.heads[0].value)
            out.varint(stampIndex[register.heads[0].stamp]!)
            return
        }
        let seen = register.seen
        out.varint(register.heads.count << 1 | (seen.isEmpty ? 0 : 1))
        for head in register.heads {
            value(&out, head.value)
            out.varint(stampIndex[head.stamp]!)
        }
        guard !seen.isEmpty else { return }
        out.varint(seen.count)
        for entry in seen {
            out.varint(replicaIndex[entry.replica]!)
            out.varint(UInt64(entry.time.rawValue))
        }
    }
}
