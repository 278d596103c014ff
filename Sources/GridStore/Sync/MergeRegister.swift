/// One value that several replicas may change: an item's size, its place, a grid's columns.
///
/// It keeps every write no replica has replaced knowingly (its *heads*): one normally, more
/// when replicas wrote it without seeing each other's write. The value is the latest head by
/// ``SyncStamp``; the others are its conflicts, kept so an app can show what was overwritten.
/// A write made after seeing the others replaces them all.
///
/// What a replica has seen of the register is its *context*: for each replica that wrote it,
/// the time of the latest write known. Merging two registers keeps a head that both hold, or
/// that the other has not seen yet, so merging is commutative, associative and idempotent:
/// replicas that have merged the same writes, in any order and any number of times, hold the
/// same register.
///
/// `Value` carries no requirement but `Sendable` (what compares values is in an extension where
/// `Value` is `Equatable`): a register of a new value type costs a process no search of the
/// runtime's conformance records at its first use, which a requirement on the type would.
struct MergeRegister<Value: Sendable>: Sendable {
    /// A value with when, and by which replica, it was written.
    struct Write: Sendable {
        var value: Value
        var stamp: SyncStamp
    }

    /// The writes not replaced, latest first.
    private(set) var heads: [Write] = []
    /// For each replica that wrote the register, the time of its latest write known, in the order of the replicas.
    private(set) var context: [(replica: ReplicaID, time: HybridTime)] = []

    init() {}

    /// A register holding `heads` (any order) with `context`: as read back, checked by the reader.
    init(heads: [Write], context: [(replica: ReplicaID, time: HybridTime)]) {
        if heads.count == 1 && context.isEmpty {
            // Most registers: one write, seen by its writer alone.
            self.heads = heads
            self.context = [(heads[0].stamp.replica, heads[0].stamp.time)]
            return
        }
        self.heads = heads.sorted { $0.stamp > $1.stamp }
        self.context = (context + heads.map { ($0.stamp.replica, $0.stamp.time) }).sorted { $0.replica < $1.replica }
    }

    /// The register's one write when it holds one, seen by its writer alone (the register
    /// ``init(heads:context:)`` makes of that write with no context); `nil` otherwise.
    var soleWrite: Write? {
        guard heads.count == 1, context.count == 1, context[0].replica == heads[0].stamp.replica,
              context[0].time == heads[0].stamp.time else { return nil }
        return heads[0]
    }

    /// The current value's write: the latest head; `nil` when nothing was ever written.
    var winner: Write? { heads.first }

    /// The current value, or `fallback` when nothing was ever written.
    func value(or fallback: Value) -> Value { heads.first?.value ?? fallback }

    /// Writes `value` at `stamp`, replacing every head: the writer has seen them all.
    mutating func write(_ value: Value, at stamp: SyncStamp) {
        heads = [Write(value: value, stamp: stamp)]
        advance(stamp)
    }

    /// The context's entries of replicas with no head: replicas whose latest write known was
    /// replaced. In the order of the replicas.
    ///
    /// - Complexity: O(*h* + *c*) for *h* heads and *c* entries of context.
    var seen: [(replica: ReplicaID, time: HybridTime)] {
        if heads.count == context.count { return [] }
        if heads.count == 1 { return context.filter { $0.replica != heads[0].stamp.replica } }
        let writers = Set(heads.map(\.stamp.replica))
        return context.filter { !writers.contains($0.replica) }
    }

    /// The time of `replica`'s latest write known, or ``HybridTime/zero``.
    func knownTime(of replica: ReplicaID) -> HybridTime {
        for entry in context where entry.replica == replica { return entry.time }
        return .zero
    }

    /// Whether the register holds a write `cursor` does not cover: what a peer at `cursor` lacks.
    ///
    /// - Complexity: O(*c*) for the register's *c* context entries.
    func isChanged(since cursor: VersionVector) -> Bool {
        context.contains { $0.time > cursor[$0.replica] }
    }

    /// The latest time in the context.
    var latestTime: HybridTime { context.lazy.map(\.time).max() ?? .zero }

    private mutating func advance(_ stamp: SyncStamp) {
        for index in context.indices where context[index].replica == stamp.replica {
            if stamp.time > context[index].time { context[index].time = stamp.time }
            return
        }
        let index = context.firstIndex { $0.replica > stamp.replica } ?? context.endIndex
        context.insert((stamp.replica, stamp.time), at: index)
    }
}

extension MergeRegister.Write: Equatable where Value: Equatable {}

extension MergeRegister: Equatable where Value: Equatable {
    /// The heads that lost to the winner and hold another value: what a concurrent write overwrote.
    var conflicts: [Write] {
        guard let winner = heads.first, heads.count > 1 else { return [] }
        return heads.dropFirst().filter { $0.value != winner.value }
    }

    /// The conflicts a person is shown: those written by a change, not at ``HybridTime/origin``
    /// (a grid's value as it was taken from a document, which any change replaces).
    var shownConflicts: [Write] {
        conflicts.filter { $0.stamp.time != .origin }
    }

    /// Writes `value` at `stamp` unless it is the value already (`fallback` when nothing was
    /// ever written), with no conflict to settle: a replacement of everything (an import)
    /// writes only what it changes, so it does not override concurrent changes of the rest.
    mutating func update(_ value: Value, at stamp: SyncStamp, unwritten fallback: Value) {
        if heads.count <= 1, self.value(or: fallback) == value { return }
        write(value, at: stamp)
    }

    /// Merges in what `other` holds.
    ///
    /// - Returns: Whether this register changed.
    /// - Complexity: O(*h* log *h* + *c*) for the *h* heads and *c* context entries of the two
    ///   registers (a few comparisons for the usual one head each).
    @discardableResult
    mutating func merge(_ other: MergeRegister) -> Bool {
        if other.context.isEmpty || self == other { return false }
        var merged: [Write] = []
        if heads.count + other.heads.count <= 8 {
            // Usually one head each: a few comparisons.
            for head in heads where other.heads.contains(where: { $0.stamp == head.stamp })
                || head.stamp.time > other.knownTime(of: head.stamp.replica) {
                merged.append(head)
            }
            for head in other.heads where !heads.contains(where: { $0.stamp == head.stamp })
                && head.stamp.time > knownTime(of: head.stamp.replica) {
                merged.append(head)
            }
        } else {
            // A register many replicas wrote concurrently has a head for each: looked up, not searched.
            let theirHeads = Set(other.heads.map(\.stamp)), myHeads = Set(heads.map(\.stamp))
            let theirContext = Dictionary(other.context.map { ($0.replica, $0.time) }, uniquingKeysWith: max)
            let myContext = Dictionary(context.map { ($0.replica, $0.time) }, uniquingKeysWith: max)
            for head in heads where theirHeads.contains(head.stamp) || head.stamp.time > theirContext[head.stamp.replica] ?? .zero {
                merged.append(head)
            }
            for head in other.heads where !myHeads.contains(head.stamp) && head.stamp.time > myContext[head.stamp.replica] ?? .zero {
                merged.append(head)
            }
        }
        merged.sort { $0.stamp > $1.stamp }
        let before = self
        heads = merged
        // Both contexts are in the order of their replicas: joined in one pass.
        var joined: [(replica: ReplicaID, time: HybridTime)] = []
        joined.reserveCapacity(max(context.count, other.context.count))
        var mine = 0, theirs = 0
        while mine < context.count || theirs < other.context.count {
            if theirs == other.context.count || (mine < context.count && context[mine].replica < other.context[theirs].replica) {
                joined.append(context[mine])
                mine += 1
            } else if mine == context.count || other.context[theirs].replica < context[mine].replica {
                joined.append(other.context[theirs])
                theirs += 1
            } else {
                joined.append((context[mine].replica, max(context[mine].time, other.context[theirs].time)))
                mine += 1
                theirs += 1
            }
        }
        context = joined
        return self != before
    }

    static func == (lhs: MergeRegister, rhs: MergeRegister) -> Bool {
        lhs.heads == rhs.heads && lhs.context.elementsEqual(rhs.context) { $0.replica == $1.replica && $0.time == $1.time }
    }
}

extension MergeRegister {
    /// The replicas of a register's writes as a decoder reads them, to refuse a replica that
    /// writes twice, or that writes and is seen: up to 8 writes are checked by a scan of them,
    /// more through a set made once, so a register of a few writes makes no set.
    struct Writers {
        private var replicas = Set<ReplicaID>()
        /// How many writes are checked by a scan.
        private static var scanned: Int { 8 }

        init() {}

        /// Whether `replica` wrote one of `heads`, the writes read so far (the set, once made, holds them all).
        ///
        /// - Complexity: O(*n*) for *n* writes up to 8, O(1) past.
        func contains(_ replica: ReplicaID, in heads: [Write]) -> Bool {
            replicas.isEmpty ? heads.contains { $0.stamp.replica == replica } : replicas.contains(replica)
        }

        /// Records that `replica` wrote the write read after `heads`.
        ///
        /// - Returns: `false` when it wrote one of `heads` already.
        mutating func insert(_ replica: ReplicaID, after heads: [Write]) -> Bool {
            guard heads.count >= Self.scanned else { return !contains(replica, in: heads) }
            if heads.count == Self.scanned { replicas = Set(heads.map(\.stamp.replica)) }
            return replicas.insert(replica).inserted
        }
    }
}
