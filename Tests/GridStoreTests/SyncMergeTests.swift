import GridLayout
import SeededRandom
import Testing
@testable import GridStore

/// The merge rules of sync, in memory: order keys, registers, and replicas that edit and sync
/// at random, checked against a reference that keeps every write ever made.
@Suite("Sync merge")
struct SyncMergeTests {
    @Test("a key between two others sorts between them, is valid, and stays short for appends")
    func orderKeys() throws {
        var generator = SeededGenerator(seed: 36)
        var keys: [OrderKey] = [.spaced(0), .spaced(5), .spaced(61), .spaced(62), .spaced(999_999)]
        for _ in 0..<2_000 {
            let a = keys.randomElement(using: &generator)!
            let b = keys.randomElement(using: &generator)!
            let (lower, upper): (OrderKey?, OrderKey?) = switch Int.random(in: 0..<4, using: &generator) {
            case 0: (nil, max(a, b))
            case 1: (min(a, b), nil)
            default: (min(a, b), max(a, b))
            }
            if let lower, let upper, lower == upper { continue }
            let key = OrderKey.between(lower, upper)
            #expect(lower.map { $0 < key } ?? true, "between(\(String(describing: lower)), \(String(describing: upper))) = \(key)")
            #expect(upper.map { key < $0 } ?? true, "between(\(String(describing: lower)), \(String(describing: upper))) = \(key)")
            #expect(OrderKey(key.description) == key)
            if key.text.count < 40 { keys.append(key) }
        }
        var last = OrderKey.spaced(11)
        for _ in 0..<10_000 { last = OrderKey.between(last, nil) }
        #expect(last.text.count == 4)
        var first = OrderKey.spaced(0)
        for _ in 0..<100 { first = OrderKey.between(nil, first) }
        #expect(first.text.count <= 24)
        #expect(OrderKey("") == nil && OrderKey("10") == nil && OrderKey("1-") == nil && OrderKey(String(repeating: "1", count: 97)) == nil)
    }

    @Test("a register keeps concurrent writes as conflicts, and a write made after seeing them replaces them")
    func registers() {
        let phone = ReplicaID(high: 1, low: 0), tablet = ReplicaID(high: 2, low: 0)
        var onPhone = MergeRegister<TileSize?>(), onTablet = MergeRegister<TileSize?>()
        onPhone.write(.big, at: SyncStamp(time: HybridTime(rawValue: 10), replica: phone))
        onTablet.write(.middle, at: SyncStamp(time: HybridTime(rawValue: 10), replica: tablet))
        var merged = onPhone
        let changed = merged.merge(onTablet)
        #expect(changed)
        var other = onTablet
        other.merge(onPhone)
        #expect(merged == other)
        // One time on both: the replica id breaks the tie, the same way on both.
        #expect(merged.winner?.value == .middle && merged.conflicts.map(\.value) == [.big])
        let again = merged.merge(onTablet) || merged.merge(onPhone)
        #expect(!again)
        // The phone, having seen both, writes again: no conflict is left, on either side.
        merged.write(.small, at: SyncStamp(time: HybridTime(rawValue: 11), replica: phone))
        var tabletLater = onTablet
        tabletLater.merge(merged)
        #expect(tabletLater.winner?.value == .small && tabletLater.conflicts.isEmpty && tabletLater == merged)
        // An old write arriving late changes nothing.
        let late = tabletLater.merge(onPhone)
        #expect(!late)
    }

    @Test("replicas that edit and sync at random, in part, out of order and twice, end equal and match the reference",
          arguments: 0..<40)
    func randomReplicas(seed: UInt64) throws {
        var world = ReplicaWorld(seed: seed)
        try world.run(steps: 120)
        try world.syncEverything()
        world.checkConverged()
        world.checkAgainstReference()
    }

    @Test("grids that began apart on each replica merge by key and position")
    func separateOrigins() throws {
        let phone = ReplicaID(high: 1, low: 1), tablet = ReplicaID(high: 2, low: 2)
        var onPhone = GridContent(columns: 4, sections: [[.big, nil, nil]])
        onPhone.keys = [["mail", nil, "maps"]]
        var onTablet = GridContent(columns: 6, sections: [[nil, .middle, nil, nil]])
        onTablet.keys = [["maps", nil, "mail", "news"]]
        var a = ReplicatedGrid(origin: onPhone, replica: phone)
        var b = ReplicatedGrid(origin: onTablet, replica: tablet)
        let toB = a.changes(since: b.versions), toA = b.changes(since: a.versions)
        b.merge(toB, exportedSince: VersionVector())
        a.merge(toA, exportedSince: VersionVector())
        #expect(a == b)
        let content = try a.validate().content
        // Columns: only the phone changed them. Items: one per key, the keyless one at position 1 shared.
        #expect(content.columns == 4)
        #expect(content.sections.flatMap { $0 }.count == 4)
        #expect(Set(content.keys.flatMap { $0 }.compactMap { $0 }) == ["mail", "maps", "news"])
        #expect(try a.validate().itemIDs[0].contains(SyncEntityID.item(section: 0, item: 0)))
    }
}

/// 3 to 5 replicas of one grid, a seeded generator choosing their edits and syncs, and a
/// reference: every write ever made, with the writes its replica had seen of the same register.
private struct ReplicaWorld {
    struct Replica {
        var id: ReplicaID
        var state: ReplicatedGrid
        var layout: ReplicatedGrid.Layout
        var clock = HybridClock()
        var skew: Int64
        /// The writes this replica knows, by register.
        var knows: [String: Set<SyncStamp>] = [:]
    }

    struct Bundle {
        var from: Int
        var to: Int
        var delta: ReplicatedGrid
        var cursor: VersionVector
        var knows: [String: Set<SyncStamp>]
    }

    let seed: UInt64
    var generator: SeededGenerator
    var replicas: [Replica] = []
    var inFlight: [Bundle] = []
    var now: Int64 = 1_800_000_000_000
    /// Every write: its register, and the writes of that register its replica had seen.
    var writes: [String: [SyncStamp: Set<SyncStamp>]] = [:]
    var edits = 0

    init(seed: UInt64) {
        self.seed = seed
        generator = SeededGenerator(seed: seed &* 0x9E37_79B9 &+ 36)
        var content = GridContent(columns: 4, sections: [[nil, .middle, nil, nil, .big, nil], [nil, nil, nil]])
        content.keys = [["mail", nil, nil, "maps", nil, nil], []]
        for _ in 0..<Int.random(in: 3...5, using: &generator) {
            let id = ReplicaID.random(using: &generator)
            let state = ReplicatedGrid(origin: content, replica: id)
            var replica = Replica(id: id, state: state, layout: state.layout(), skew: Int64.random(in: -2_000...2_000, using: &generator))
            for (name, heads) in Self.registers(of: state) { replica.knows[name] = Set(heads.map(\.stamp)) }
            for (name, heads) in Self.registers(of: state) { for head in heads { writes[name, default: [:]][head.stamp] = [] } }
            replicas.append(replica)
        }
    }

    var context: Comment { "seed \(seed) (replay with arguments: [\(seed)])" }

    mutating func run(steps: Int) throws {
        for _ in 0..<steps {
            now += Int64.random(in: 0...40, using: &generator)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<6: try edit(Int.random(in: 0..<replicas.count, using: &generator))
            case 6, 7: export(Int.random(in: 0..<replicas.count, using: &generator), Int.random(in: 0..<replicas.count, using: &generator))
            default: deliverOne()
            }
        }
    }

    /// Every replica syncs both ways with every other, twice round, after the bundles still on
    /// the way arrive; then once more, which must change nothing.
    mutating func syncEverything() throws {
        while !inFlight.isEmpty { deliverOne() }
        for _ in 0..<2 {
            for a in replicas.indices { for b in replicas.indices where a != b { export(a, b); deliverOne(last: true) } }
        }
        for a in replicas.indices {
            for b in replicas.indices where a != b {
                let delta = replicas[a].state.changes(since: replicas[b].state.versions)
                var state = replicas[b].state
                let changed = state.merge(delta, exportedSince: replicas[b].state.versions)
                #expect(changed.registers == 0, "a second sync changed replica \(b); \(context)")
            }
        }
    }

    // MARK: Edits

    mutating func edit(_ index: Int) throws {
        var replica = replicas[index]
        let content = replica.layout.content
        guard let snapshot = try? GridSnapshot(name: "default", revision: 0, content: content) else {
            Issue.record("replica \(index) laid out a grid gridstore refuses; \(context)")
            return
        }
        var editor = GridEditor(snapshot)
        let keys = ["mail", "maps", "news", "notes", "music"]
        let sections = content.sections.count
        func path(allowingEnd: Bool = false) -> GridIndexPath? {
            guard sections > 0 else { return nil }
            let section = Int.random(in: 0..<sections, using: &generator)
            let count = content.sections[section].count + (allowingEnd ? 1 : 0)
            guard count > 0 else { return nil }
            return GridIndexPath(item: Int.random(in: 0..<count, using: &generator), section: section)
        }
        let size = [nil, TileSize.small, .middle, .big].randomElement(using: &generator)!
        do {
            switch Int.random(in: 0..<15, using: &generator) {
            case 14:
                // An import: tiles of other sizes and keys, or a honeycomb of as many items.
                var replacement = content
                if content.honeycomb == nil && Int.random(in: 0..<3, using: &generator) == 0 {
                    replacement = GridContent(honeycomb: try HoneycombConfiguration(elementWidth: 40),
                                              itemCount: content.sections.reduce(0) { $0 + $1.count })
                } else {
                    replacement.honeycomb = nil
                    replacement.sections = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                        (0..<Int.random(in: 0...5, using: &generator)).map { _ in [nil, TileSize.middle, .big].randomElement(using: &generator)! }
                    }
                    replacement.keys = replacement.sections.map { sizes in
                        sizes.isEmpty || Bool.random(using: &generator) ? [] : sizes.map { _ in nil }
                    }
                    if let first = replacement.keys.firstIndex(where: { !$0.isEmpty }) { replacement.keys[first][0] = "news" }
                }
                try editor.replaceContent(replacement)
            case 0, 1: if let path = path() { try editor.toggle(at: path) }
            case 2: if let path = path() { try editor.setSize(size, at: path) }
            case 3: if let path = path(allowingEnd: true) {
                try editor.insertItem(at: path, size: size, key: Bool.random(using: &generator) ? keys.randomElement(using: &generator) : nil)
            }
            case 4: if let path = path() { try editor.deleteItem(at: path) }
            case 5, 6: if let from = path(), let to = path() { try editor.moveItem(from: from, to: to) }
            case 7: if let path = path() { try editor.setKey(Bool.random(using: &generator) ? keys.randomElement(using: &generator) : nil, at: path) }
            case 8: if sections > 0 {
                try editor.setItems(keys: Array(keys.shuffled(using: &generator).prefix(Int.random(in: 0...4, using: &generator))),
                                    inSection: Int.random(in: 0..<sections, using: &generator))
            }
            case 9: try editor.setColumns([2, 4, 6, 8].randomElement(using: &generator)!)
            case 10: try editor.setDirection(Bool.random(using: &generator) ? .vertical : .horizontal)
            case 11: try editor.setDefaultSize([TileSize.small, .middle, .big].randomElement(using: &generator)!)
            case 12: if Bool.random(using: &generator) || sections < 2 {
                try editor.appendSection(itemCount: Int.random(in: 0...3, using: &generator))
            } else {
                try editor.removeSection(at: Int.random(in: 0..<sections, using: &generator))
            }
            default: if sections > 0 {
                try editor.setItemCount(Int.random(in: 0...8, using: &generator), inSection: Int.random(in: 0..<sections, using: &generator))
            }
            }
        } catch {
            return  // a refused edit (a key another item holds, a move out of range): nothing to record
        }
        guard !editor.edits.isEmpty else { return }
        let stamp = SyncStamp(time: replica.clock.tick(now: now + replica.skew), replica: replica.id)
        let hiddenKeys = Self.hasHiddenKeys(replica.state)
        try replica.state.record(editor.edits, at: stamp, layout: &replica.layout, ids: &generator)
        let laidOut = replica.state.layout()
        #expect(laidOut.itemIDs == replica.layout.itemIDs, "replica \(index)'s layout after \(editor.edits); \(context)")
        if !hiddenKeys {
            #expect(laidOut.content == editor.snapshot.content, "replica \(index) recorded \(editor.edits) as another grid; \(context)")
        }
        replica.layout = laidOut
        // The reference: the writes made now, each having seen what the replica knew of its register.
        for (name, heads) in Self.registers(of: replica.state) {
            for head in heads where head.stamp == stamp {
                writes[name, default: [:]][stamp] = replica.knows[name] ?? []
                replica.knows[name, default: []].insert(stamp)
            }
        }
        replicas[index] = replica
        edits += 1
    }

    // MARK: Syncs

    mutating func export(_ from: Int, _ to: Int) {
        guard from != to else { return }
        let cursor = replicas[to].state.versions
        let delta = replicas[from].state.changes(since: cursor)
        var knows: [String: Set<SyncStamp>] = [:]
        for name in Self.registers(of: delta).keys { knows[name] = replicas[from].knows[name] ?? [] }
        inFlight.append(Bundle(from: from, to: to, delta: delta, cursor: cursor, knows: knows))
    }

    /// Delivers a bundle on the way: the last, or a random one, which may stay on the way to arrive again.
    mutating func deliverOne(last: Bool = false) {
        guard !inFlight.isEmpty else { return }
        let index = last ? inFlight.count - 1 : Int.random(in: 0..<inFlight.count, using: &generator)
        let bundle = inFlight[index]
        if last || Int.random(in: 0..<4, using: &generator) > 0 { inFlight.remove(at: index) }
        var replica = replicas[bundle.to]
        replica.state.merge(bundle.delta, exportedSince: bundle.cursor)
        replica.clock.observe(bundle.delta.versions.latest, now: now + replica.skew)
        for (name, stamps) in bundle.knows { replica.knows[name, default: []].formUnion(stamps) }
        do {
            replica.layout = try replica.state.validate()
        } catch {
            Issue.record("replica \(bundle.to) after a bundle from \(bundle.from): \(error); \(context)")
        }
        replicas[bundle.to] = replica
    }

    // MARK: Checks

    func checkConverged() {
        for (index, replica) in replicas.enumerated().dropFirst() {
            #expect(replica.state == replicas[0].state, "replica \(index) and replica 0 differ after a full sync; \(context)")
            #expect(replica.layout == replicas[0].layout, "replica \(index) lays out another grid; \(context)")
        }
    }

    /// Each register's heads are the writes no replica replaced knowingly, and its value the latest write.
    func checkAgainstReference() {
        let held = Self.registers(of: replicas[0].state)
        for (name, registerWrites) in writes {
            let seenByLater = registerWrites.values.reduce(into: Set<SyncStamp>()) { $0.formUnion($1) }
            let expected = Set(registerWrites.keys).subtracting(seenByLater)
            let heads = held[name]?.map(\.stamp) ?? []
            #expect(Set(heads) == expected, "register \(name): heads \(heads), the reference says \(expected); \(context)")
            #expect(heads.first == registerWrites.keys.max(), "register \(name): the latest write does not win; \(context)")
        }
        #expect(held.count == writes.count, "\(held.count) registers held, \(writes.count) written; \(context)")
    }

    static func hasHiddenKeys(_ state: ReplicatedGrid) -> Bool {
        let shown = state.layout().content.keys.flatMap { $0 }.compactMap { $0 }.count
        let alive = state.layout().itemIDs.flatMap { $0 }.filter { state.items[$0]!.key.value(or: nil) != nil }.count
        return shown != alive
    }

    /// Every register that holds a write, by a name, with its heads.
    static func registers(of state: ReplicatedGrid) -> [String: [(value: String, stamp: SyncStamp)]] {
        var result: [String: [(value: String, stamp: SyncStamp)]] = [:]
        func add<Value>(_ name: String, _ register: MergeRegister<Value>) {
            if !register.context.isEmpty { result[name] = register.heads.map { ("\($0.value)", $0.stamp) } }
        }
        add("columns", state.options.columns)
        add("direction", state.options.direction)
        add("default size", state.options.defaultSize)
        add("honeycomb", state.options.honeycomb)
        for (id, section) in state.sections {
            add("section \(id) order", section.order)
            add("section \(id) alive", section.alive)
        }
        for (id, item) in state.items {
            add("item \(id) place", item.place)
            add("item \(id) size", item.size)
            add("item \(id) key", item.key)
            add("item \(id) alive", item.alive)
        }
        return result
    }
}
