import GridLayout
import SeededRandom
import Testing
@testable import GridStore

/// Format 2, the binary bundle: what it writes reads back equal, and as format 1 reads it;
/// nothing a hostile sender writes crashes the reader or makes it allocate past the input; a
/// size change costs at most 16 bytes.
@Suite("Sync bundle format 2")
struct SyncBundleFormatTests {
    @Test("the smallest bundles: nothing carried, one option, one section only named")
    func edgeCases() throws {
        let sender = ReplicaID(high: 7, low: 9)
        for delta in [ReplicatedGrid(), Self.withColumns(sender), Self.withPlacedItem(sender)] {
            let bundle = SyncBundle(grid: "default", replica: sender, cursor: VersionVector(), delta: delta)
            let decoded = try SyncBundle(decoding: bundle.encoded())
            #expect(decoded.delta == delta && decoded.grid == "default" && decoded.replica == sender && decoded.cursor == bundle.cursor)
        }
    }

    @Test("a random bundle reads back equal from format 2 and from format 1", arguments: 0..<200)
    func roundTrip(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed &+ 4_300)
        let bundle = Self.randomBundle(using: &generator)
        let binary = try SyncBundle(decoding: bundle.encoded())
        let json = try SyncBundle(decoding: bundle.encodedAsJSON())
        #expect(binary.delta == bundle.delta, "seed \(seed) (replay with arguments: [\(seed)])")
        #expect(binary.delta == json.delta && binary.cursor == json.cursor && binary.grid == json.grid
                && binary.replica == json.replica, "seed \(seed)")
        // Written in one way only: encoding what was read gives the same bytes.
        #expect(binary.encoded() == bundle.encoded(), "seed \(seed)")
    }

    @Test("a delta's latest time of each replica is the latest of its versions and of every register's context", arguments: 0..<200)
    func latestTimes(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed &+ 4_302)
        let delta = Self.randomBundle(using: &generator).delta
        // The obvious fold, entry by entry.
        var expected = delta.versions.entries
        func fold<Value>(_ register: MergeRegister<Value>) {
            for entry in register.context where entry.time > expected[entry.replica] ?? .zero { expected[entry.replica] = entry.time }
        }
        fold(delta.options.columns); fold(delta.options.direction); fold(delta.options.defaultSize); fold(delta.options.honeycomb)
        for section in delta.sections.values { fold(section.order); fold(section.alive) }
        for item in delta.items.values { fold(item.place); fold(item.size); fold(item.key); fold(item.alive) }
        #expect(delta.latestTimes() == expected, "seed \(seed) (replay with arguments: [\(seed)])")
    }

    @Test("every prefix of a bundle, and every bundle with a byte changed, is refused or read; never a crash", arguments: 0..<12)
    func damaged(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed &+ 4_301)
        let bytes = Self.randomBundle(using: &generator).encoded()
        for length in 0..<bytes.count {
            #expect(throws: SyncError.self, "prefix of \(length) bytes, seed \(seed)") { try SyncBundle(decoding: Array(bytes.prefix(length))) }
        }
        for _ in 0..<300 {
            var damaged = bytes
            let position = Int.random(in: BinaryBundle.magic.count..<damaged.count, using: &generator)
            damaged[position] = UInt8.random(in: 0...255, using: &generator)
            if Bool.random(using: &generator) { damaged.insert(UInt8.random(in: 0...255, using: &generator), at: position) }
            do {
                // What is read is a bundle gridstore could have written.
                let read = try SyncBundle(decoding: damaged)
                #expect(try SyncBundle(decoding: read.encoded()).delta == read.delta, "seed \(seed), byte \(position)")
            } catch {
                #expect(!error.message.contains("\n") && error.message.count < 1_000, "\(error.message)")
            }
        }
    }

    @Test("hostile bytes: counts past the input, long or padded numbers, a newer format, bytes after the end, ids out of order")
    func hostile() throws {
        let sender = ReplicaID(high: 1, low: 2)
        let valid = SyncBundle(grid: "default", replica: sender, cursor: VersionVector(), delta: Self.withPlacedItem(sender)).encoded()
        func refusal(_ bytes: [UInt8]) -> SyncError? {
            do { _ = try SyncBundle(decoding: bytes); return nil } catch { return error }
        }
        var header = ByteWriter()
        header.raw(BinaryBundle.magic)
        header.varint(2)
        header.text("default")
        let start = header.bytes
        var huge = ByteWriter()
        huge.varint(UInt64.max)
        #expect(refusal(start + huge.bytes)?.message.contains("more than the bundle's 0 bytes left hold") == true)
        #expect(refusal(start + [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f])?.message.contains("past 64 bits") == true)
        #expect(refusal(start + [0x81, 0x00])?.message.contains("more bytes than it needs") == true)
        #expect(refusal(BinaryBundle.magic + [3])?.kind == .newerFormat)
        #expect(refusal(BinaryBundle.magic + [1])?.kind == .malformed)
        #expect(refusal(valid + [0])?.message.contains("1 bytes follow the bundle's end") == true)
        #expect(refusal(BinaryBundle.magic)?.message.contains("ends early") == true)
        // 10,001 replicas: too many, refused before the rest is read.
        var many = ByteWriter()
        many.raw(start)
        many.varint(10_001)
        for index in 0..<10_001 { many.fixed64(0); many.fixed64(UInt64(index)) }
        #expect(refusal(many.bytes)?.kind == .tooLarge)
        // Two items with one id.
        var twice = ReplicatedGrid()
        twice.items[SyncEntityID(rawValue: 5)] = Self.withPlacedItem(sender).items.first!.value
        let one = SyncBundle(grid: "default", replica: sender, cursor: VersionVector(), delta: twice).encoded()
        let itemStart = try #require(Self.lastIndex(of: [1, 5], in: one))  // one item, id 5
        var duplicated = Array(one[..<itemStart]) + [2, 5] + Array(one[(itemStart + 2)...])
        duplicated += [0] + Array(one[(itemStart + 2)...])  // the same item again, 0 after 5
        #expect(refusal(duplicated)?.message.contains("ids are not in order") == true)
    }

    @Test("forms the encoder never writes are refused in both formats: a decomposed key, an entity carrying nothing, an unused stamp")
    func nonCanonical() throws {
        let sender = ReplicaID(high: 3, low: 4)
        func refusal(_ bytes: [UInt8]) -> String? {
            do { _ = try SyncBundle(decoding: bytes); return nil } catch { return error.message }
        }
        // "é" as "e" and a combining accent: the same to Swift's ==, another id and another row to gridstore.
        var keyed = Self.withPlacedItem(sender)
        keyed.items[SyncEntityID(rawValue: 12)]!.key.write("cafe\u{301}", at: SyncStamp(time: HybridTime(rawValue: 9), replica: sender))
        let bundle = SyncBundle(grid: "default", replica: sender, cursor: VersionVector(), delta: keyed)
        #expect(refusal(bundle.encoded())?.contains("not in its canonical form") == true)
        #expect(refusal(bundle.encodedAsJSON())?.contains("not in its canonical form") == true)
        // An item with nothing: format 1 refuses it as format 2 does.
        let empty = #"{"gridstore-sync":1,"grid":"g","replica":"\#(sender)","replicas":["\#(sender)"],"cursor":[],"versions":[],"#
            + #""items":{"0000000000000001":{}}}"#
        #expect(refusal(Array(empty.utf8))?.contains("item 0000000000000001 carries nothing") == true)
        // A stamp no write uses; a section flagged 0 that no place names (each bundle ends with no names).
        var writer = ByteWriter()
        writer.raw(BinaryBundle.magic); writer.varint(2); writer.text("g")
        writer.varint(1); writer.fixed64(3); writer.fixed64(4); writer.varint(0)
        writer.varint(0); writer.varint(0)
        let header = writer.bytes
        #expect(refusal(header + [1, 0, 5, 0, 0, 0, 0])?.contains("a stamp in the table is no write's") == true)
        #expect(refusal(header + [0, 0, 1, 9, 0, 0, 0])?.contains("carries nothing and no place names it") == true)
        // The grid a wrong-grid refusal names is quoted as one shell word.
        #expect(SyncError.wrongGrid("x'; rm -rf ~; '", expected: "default").message.contains(#"give --grid 'x'\''; rm -rf ~; '\''' to"#))
    }

    @Test("a register of many writes is refused in format 2 when a replica writes it twice or has a write and is seen, however many writes it holds",
          arguments: [2, 8, 9, 12])
    func repeatedWriters(heads: Int) throws {
        func refusal(_ bytes: [UInt8]) -> String? {
            do { _ = try SyncBundle(decoding: bytes); return nil } catch { return error.message }
        }
        // A table of `heads` + 1 replicas (a register holds at most a write of each), the stamps
        // of the replicas `stampReplicas` at times 1, 2, 3…, and one item whose size register
        // `register` writes.
        func bundle(stampReplicas: [Int], register: (inout ByteWriter) -> Void) -> [UInt8] {
            var writer = ByteWriter()
            writer.raw(BinaryBundle.magic); writer.varint(2); writer.text("g")
            writer.varint(heads + 1)
            for replica in 0...heads { writer.fixed64(3); writer.fixed64(UInt64(10 + replica)) }
            writer.varint(0)  // the sender
            writer.varint(0); writer.varint(0)  // the cursor and the versions: none
            writer.varint(stampReplicas.count)
            for replica in stampReplicas { writer.varint(replica); writer.varint(1) }  // each a time step of 1
            writer.raw([0, 0])  // no option, no section
            writer.varint(1); writer.varint(7)  // one item, id 7
            writer.raw([BinaryBundle.presence(1) | BinaryBundle.general(1)])
            register(&writer)
            writer.varint(0)  // no names
            return writer.bytes
        }
        // Every replica's write, latest first, then replica 0's earlier one again.
        let twice = bundle(stampReplicas: [0] + Array(0..<heads)) { writer in
            writer.varint((heads + 1) << 1)
            for stamp in (0...heads).reversed() { writer.varint(2); writer.varint(stamp) }
        }
        #expect(refusal(twice)?.contains("a register holds two writes of replica") == true, "\(heads) writes")
        // Each replica's write once reads back (the same bytes, less the repeated write).
        let once = bundle(stampReplicas: Array(0..<heads)) { writer in
            writer.varint(heads << 1)
            for stamp in (0..<heads).reversed() { writer.varint(2); writer.varint(stamp) }
        }
        let read = try SyncBundle(decoding: once)
        #expect(read.delta.items[SyncEntityID(rawValue: 7)]?.size.heads.count == heads)
        // The last writer seen as well.
        let seen = bundle(stampReplicas: Array(0..<heads)) { writer in
            writer.varint(heads << 1 | 1)
            for stamp in (0..<heads).reversed() { writer.varint(2); writer.varint(stamp) }
            writer.varint(1); writer.varint(heads - 1); writer.varint(UInt64(heads + 5))
        }
        #expect(refusal(seen)?.contains("has a write and is seen") == true, "\(heads) writes")
    }

    @Test("a bundle of 10,000 size changes takes at most 16 bytes a change")
    func compact() throws {
        let replica = ReplicaID(high: 0x1234, low: 0x5678)
        var state = ReplicatedGrid(origin: GridContent(columns: 6, sections: [Array(repeating: nil, count: 10_000)]), replica: replica)
        let cursor = state.versions
        var generator = SeededGenerator(seed: 43)
        var layout = state.layout()
        var ids = EntityIDGenerator()
        let stamp = SyncStamp(time: HybridTime(milliseconds: 1_800_000_000_000), replica: replica)
        let sizes = (0..<10_000).map { (GridIndexPath(item: $0), Optional([TileSize.small, .middle, .big][Int(generator.next() % 3)])) }
        try state.record(sizes.map { GridEdit.size($0.0, from: nil, to: $0.1) }, at: stamp, layout: &layout, ids: &ids)
        let bundle = SyncBundle(grid: "default", replica: replica, cursor: cursor, delta: state.changes(since: cursor))
        let bytes = bundle.encoded()
        #expect(bundle.changeCount >= 6_000)
        #expect(Double(bytes.count) / Double(bundle.changeCount) <= 16, "\(bytes.count) bytes for \(bundle.changeCount) changes")
        #expect(try SyncBundle(decoding: bytes).delta == bundle.delta)
    }

    // MARK: Helpers

    static func withColumns(_ replica: ReplicaID) -> ReplicatedGrid {
        var delta = ReplicatedGrid()
        delta.options.columns.write(6, at: SyncStamp(time: HybridTime(rawValue: 1 << 40), replica: replica))
        delta.versions.advance(replica, to: HybridTime(rawValue: 1 << 40))
        return delta
    }

    /// One item placed in a section the bundle only names.
    static func withPlacedItem(_ replica: ReplicaID) -> ReplicatedGrid {
        var delta = ReplicatedGrid()
        var item = ReplicatedGrid.Item()
        item.place.write(.init(section: SyncEntityID(rawValue: 77), order: .spaced(3)), at: SyncStamp(time: HybridTime(rawValue: 9), replica: replica))
        delta.items[SyncEntityID(rawValue: 12)] = item
        return delta
    }

    static func lastIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        (0...(bytes.count - pattern.count)).reversed().first { Array(bytes[$0..<$0 + pattern.count]) == pattern }
    }

    /// A bundle of random registers: 1 to 6 replicas, writes concurrent or not, seen lists,
    /// every kind of value, ids anywhere in 64 bits.
    static func randomBundle(using generator: inout SeededGenerator) -> SyncBundle {
        let replicas = (0..<Int.random(in: 1...6, using: &generator)).map { _ in ReplicaID.random(using: &generator) }
        func time() -> HybridTime { HybridTime(rawValue: Int64.random(in: 1...(1 << 50), using: &generator)) }
        func register<Value>(_ value: () -> Value) -> MergeRegister<Value> {
            guard Int.random(in: 0..<3, using: &generator) > 0 else { return MergeRegister() }
            let writers = replicas.shuffled(using: &generator)
            let headCount = Int.random(in: 0..<4, using: &generator) == 0 ? Int.random(in: 1...writers.count, using: &generator) : 1
            let heads = writers.prefix(headCount).map { MergeRegister<Value>.Write(value: value(), stamp: SyncStamp(time: time(), replica: $0)) }
            let seen = writers.dropFirst(headCount).filter { _ in Int.random(in: 0..<4, using: &generator) == 0 }.map { ($0, time()) }
            return MergeRegister(heads: heads, context: seen)
        }
        func id() -> SyncEntityID { SyncEntityID(rawValue: Int.random(in: 0..<4, using: &generator) == 0 ? UInt64.random(in: 0..<64, using: &generator) : generator.next()) }
        func order() -> OrderKey { OrderKey.between(nil, .spaced(Int.random(in: 0..<100_000, using: &generator))) }
        var delta = ReplicatedGrid()
        delta.options.columns = register { Int.random(in: 1...64, using: &generator) }
        delta.options.direction = register { Bool.random(using: &generator) ? .vertical : .horizontal }
        delta.options.defaultSize = register { TileSize.allCases.randomElement(using: &generator)! }
        delta.options.honeycomb = register {
            Bool.random(using: &generator) ? nil : try? HoneycombConfiguration(elementWidth: Double.random(in: 10...90, using: &generator),
                                                                              itemSpacing: 4.25, orientation: .flatTop, centerItem: .last,
                                                                              ringOrder: .original, scalingCurve: .smooth)
        }
        var sections: [SyncEntityID] = []
        for _ in 0..<Int.random(in: 0...4, using: &generator) {
            let section = id()
            sections.append(section)
            let carried = ReplicatedGrid.Section(order: register(order), alive: register { Bool.random(using: &generator) })
            if carried != ReplicatedGrid.Section() { delta.sections[section] = carried }
        }
        if sections.isEmpty { sections.append(id()) }
        let keys = ["mail", "maps", "Ünïcödé 🗺", String(repeating: "k", count: 255)]
        for _ in 0..<Int.random(in: 0...40, using: &generator) {
            let item = ReplicatedGrid.Item(
                place: register { ReplicatedGrid.Place(section: sections.randomElement(using: &generator)!, order: order()) },
                size: register { [nil, TileSize.small, .middle, .big].randomElement(using: &generator)! },
                key: register { keys.randomElement(using: &generator).flatMap { Bool.random(using: &generator) ? $0 : nil } },
                alive: register { Bool.random(using: &generator) })
            if item != ReplicatedGrid.Item() { delta.items[id()] = item }
        }
        var cursor = VersionVector()
        for replica in replicas {
            if Bool.random(using: &generator) { cursor.advance(replica, to: time()) }
            if Bool.random(using: &generator) { delta.versions.advance(replica, to: time()) }
        }
        return SyncBundle(grid: Bool.random(using: &generator) ? "default" : "Anna's — 🏠", replica: replicas.randomElement(using: &generator)!,
                          cursor: cursor, delta: delta)
    }
}
