/// For each replica, the hybrid time up to which its changes are known: a cursor.
///
/// A replica knows every change of another up to the time its vector gives (sync moves whole
/// registers, in one transaction), so "what a peer lacks" is every register with a write newer
/// than the peer's vector says for the writer.
struct VersionVector: Hashable, Sendable {
    /// The entries, by replica; replicas without one have seen nothing: ``HybridTime/zero``.
    private(set) var entries: [ReplicaID: HybridTime] = [:]

    init(_ entries: [ReplicaID: HybridTime] = [:]) {
        self.entries = entries.filter { $0.value > .zero }
    }

    subscript(replica: ReplicaID) -> HybridTime {
        entries[replica] ?? .zero
    }

    /// Records that `replica`'s changes up to `time` are known.
    mutating func advance(_ replica: ReplicaID, to time: HybridTime) {
        if time > self[replica] { entries[replica] = time }
    }

    /// Everything either vector knows.
    mutating func formUnion(_ other: VersionVector) {
        for (replica, time) in other.entries { advance(replica, to: time) }
    }

    /// Whether this vector knows nothing the other does not.
    func isCovered(by other: VersionVector) -> Bool {
        entries.allSatisfy { other[$0.key] >= $0.value }
    }

    /// The latest time of any entry.
    var latest: HybridTime { entries.values.max() ?? .zero }
}
