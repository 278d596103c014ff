/// The replicas a synced grid met in syncs, and how much of its state each is known to hold
/// (`sync_states.peers`): what a deleted item's record can be forgotten by, once every peer holds
/// the delete.
///
/// A peer is recorded when a sync with it, or a bundle it made, is merged here: with the latest
/// sync version of this grid whose registers it showed it holds (it knew every write they held
/// then), and when. A peer not met for ``forgottenAfter`` is forgotten, and so is the one met longest ago
/// past ``maximumCount``.
struct SyncPeers: Equatable, Sendable {
    struct Peer: Equatable, Sendable {
        var replica: ReplicaID
        /// The latest sync version of this grid (``StoredSyncState/version``) whose registers the
        /// peer held, as it showed at its latest meeting; 0 when none is known.
        var version: Int64
        /// This database's clock when a sync with the peer, or a bundle it made, was last merged
        /// here, in milliseconds since 1970.
        var metAt: Int64
    }

    /// Most recently met first.
    private(set) var peers: [Peer] = []

    /// The most peers a grid keeps.
    static let maximumCount = 64
    /// How long a peer not met is kept: 90 days, in milliseconds.
    static let forgottenAfter: Int64 = 90 * 24 * 60 * 60 * 1000
    /// The longest text ``text`` writes.
    static let maximumTextLength = StoredSyncState.maximumPeersBytes

    init() {}

    /// The peers `text` records, as ``text`` writes them (empty for none); `nil` for anything
    /// else: a text longer than ``maximumTextLength``, more than ``maximumCount`` entries, an
    /// entry that is not `<replica>:<version>:<time>` of a replica id and two numbers from 0, or
    /// a replica named twice.
    init?(text: String) {
        guard text.utf8.count <= Self.maximumTextLength else { return nil }
        var seen: [ReplicaID] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) where !text.isEmpty {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, let replica = ReplicaID(String(parts[0])), !seen.contains(replica),
                  let version = Self.number(parts[1]), let metAt = Self.number(parts[2]) else { return nil }
            seen.append(replica)
            peers.append(Peer(replica: replica, version: version, metAt: metAt))
        }
        guard peers.count <= Self.maximumCount else { return nil }
        peers.sort { $0.metAt > $1.metAt }
    }

    /// The peers `row` records (none when it records none); `nil` when its text is not one
    /// ``init(text:)`` reads, or names a peer holding a version past the state's own.
    init?(stored row: StoredSyncState) {
        guard let text = row.peers else { return }
        guard let peers = SyncPeers(text: text), peers.peers.allSatisfy({ $0.version <= row.version }) else { return nil }
        self = peers
    }

    /// A number of 1 to 19 digits, as ``text`` writes one.
    private static func number(_ digits: Substring) -> Int64? {
        guard (1...19).contains(digits.utf8.count), digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(digits)
    }

    /// `<replica>:<version>:<time>` entries, comma-separated, most recently met first; empty for none.
    var text: String {
        var text = ""
        for peer in peers {
            if !text.isEmpty { text += "," }
            text += "\(peer.replica):\(peer.version):\(peer.metAt)"
        }
        return text
    }

    /// The peer `replica`'s record; `nil` when it is not recorded.
    func peer(_ replica: ReplicaID) -> Peer? {
        peers.first { $0.replica == replica }
    }

    /// Records that `replica` holds every register this grid held at `version`, met at `now`:
    /// what it showed now replaces what it showed before, even a later version (a database
    /// restored from a backup, or a standby promoted, holds less than it did). Then forgets the
    /// peers not met for ``forgottenAfter`` before `now` and, past ``maximumCount``, those met
    /// longest ago; a peer recorded as met after `now` (a clock that was ahead, or went back)
    /// counts as met at `now`.
    mutating func meet(_ replica: ReplicaID, holding version: Int64, at now: Int64) {
        let now = max(0, now)
        peers.removeAll { $0.replica == replica }
        for index in peers.indices where peers[index].metAt > now { peers[index].metAt = now }
        peers.insert(Peer(replica: replica, version: max(0, version), metAt: now), at: 0)
        peers.removeAll { now - $0.metAt > Self.forgottenAfter }
        if peers.count > Self.maximumCount { peers.removeLast(peers.count - Self.maximumCount) }
        peers.sort { $0.metAt > $1.metAt }
    }

    /// Keeps the peers and when each was met, holding no version: for a versions log rebuilt,
    /// which the versions they held were judged by.
    mutating func forgetHeldVersions() {
        for index in peers.indices { peers[index].version = 0 }
    }

    /// Whether meeting `replica` at `now`, holding `version`, records anything a later reader
    /// uses: a peer not recorded, another version, or a record a day old or more (when it was
    /// met is kept to the day, so a sync that moves nothing new need not write it).
    func isNews(_ replica: ReplicaID, holding version: Int64, at now: Int64) -> Bool {
        guard let known = peer(replica) else { return true }
        return known.version != version || now - known.metAt >= Self.metAtResolution || known.metAt > now
    }

    /// How stale a record of when a peer was met may be left: one day, in milliseconds.
    static let metAtResolution: Int64 = 24 * 60 * 60 * 1000

    /// The latest of this grid's sync versions whose registers a replica that knows `known` holds:
    /// the newest entry of `log` (the versions log, any order) that `known` covers; 0 when none is.
    ///
    /// - Complexity: O(*e* · *r*) for the log's *e* entries of *r* replicas each, newest first,
    ///   stopping at the first covered.
    static func version(heldBy known: VersionVector, log: [StoredSyncVersion]) -> Int64 {
        for entry in log.sorted(by: { $0.version > $1.version }) {
            if let logged = SyncVersionsText.decode(entry.versions), logged.isCovered(by: known) { return entry.version }
        }
        return 0
    }
}
