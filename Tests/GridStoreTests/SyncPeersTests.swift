import Foundation
import GridLayout
import Testing
import TestSupport
@testable import GridStore
@testable import GridStoreSQLite

/// The peers a synced grid met (`sync_states.peers`): who, the latest sync version of the grid
/// each holds, and when; forgotten after 90 days or past 64; never trusted past the state.
@Suite("Sync peers")
struct SyncPeersTests {
    let directory = TemporaryDirectory()

    static let phoneID = ReplicaID("0123456789abcdef0123456789abcdef")!
    static let tabletID = ReplicaID("fedcba9876543210fedcba9876543210")!

    /// The peers the grid's stored state records; `nil` when it has no state or cannot be read.
    func peers(_ database: GridDatabase, _ grid: String = "default") throws -> SyncPeers? {
        try database.storageRead { transaction in
            guard let header = try transaction.header(named: grid)?.header(), let row = try transaction.syncState(gridID: header.id)
            else { return nil }
            return SyncPeers(stored: row)
        }
    }

    /// The grid's stored state row.
    func state(_ database: GridDatabase, _ grid: String = "default") throws -> StoredSyncState? {
        try database.storageRead { transaction in
            guard let header = try transaction.header(named: grid)?.header() else { return nil }
            return try transaction.syncState(gridID: header.id)
        }
    }

    func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    @Test("a text reads back as written; anything gridstore would not write is refused")
    func text() throws {
        var peers = SyncPeers()
        peers.meet(Self.phoneID, holding: 7, at: 1_000)
        peers.meet(Self.tabletID, holding: 3, at: 2_000)
        #expect(peers.text == "\(Self.tabletID):3:2000,\(Self.phoneID):7:1000")
        #expect(SyncPeers(text: peers.text) == peers && SyncPeers(text: "") == SyncPeers())
        let odd = ["x", "\(Self.phoneID):1", "\(Self.phoneID):1:2:3", "\(Self.phoneID):-1:2", "\(Self.phoneID)::2",
                   "\(Self.phoneID):1:2,\(Self.phoneID):3:4", "\(Self.phoneID.description.uppercased()):1:2", "\(Self.phoneID):1:2,",
                   "\(Self.phoneID):99999999999999999999:2", "\(Self.phoneID): 1:2",
                   String(repeating: "\(Self.phoneID):1:2,", count: 300)]
        for text in odd { #expect(SyncPeers(text: text) == nil, "\(text.prefix(80))") }
        let many = (0..<65).map { "\(ReplicaID(high: 1, low: UInt64($0))):1:\($0)" }.joined(separator: ",")
        #expect(SyncPeers(text: many) == nil && SyncPeers(text: String(many.split(separator: ",").dropLast().joined(separator: ","))) != nil)
        // A peer said to hold a version the grid has not reached is not trusted.
        let row = StoredSyncState(replica: "\(Self.phoneID)", databaseReplica: "\(Self.phoneID)", revision: 0, clock: 0, versions: "",
                                  conflicts: 0, version: 5, peers: "\(Self.tabletID):6:1")
        #expect(SyncPeers(stored: row) == nil)
        var within = row
        within.peers = "\(Self.tabletID):5:1"
        #expect(SyncPeers(stored: within)?.peer(Self.tabletID)?.version == 5)
        within.peers = nil
        #expect(SyncPeers(stored: within) == SyncPeers())
    }

    @Test("a peer holds what it showed last; one not met for 90 days, or met longest ago past 64, is forgotten; a day's news only")
    func meeting() {
        var peers = SyncPeers()
        peers.meet(Self.phoneID, holding: 9, at: 1_000)
        // What it shows now, even less than before (a database restored from a backup holds less).
        peers.meet(Self.phoneID, holding: 4, at: 2_000)
        #expect(peers.peer(Self.phoneID) == .init(replica: Self.phoneID, version: 4, metAt: 2_000))
        // Met again holding the same version within a day: nothing to write.
        #expect(!peers.isNews(Self.phoneID, holding: 4, at: 2_000 + SyncPeers.metAtResolution - 1)
                && peers.isNews(Self.phoneID, holding: 4, at: 2_000 + SyncPeers.metAtResolution)
                && peers.isNews(Self.phoneID, holding: 5, at: 2_001) && peers.isNews(Self.tabletID, holding: 0, at: 2_001)
                && peers.isNews(Self.phoneID, holding: 4, at: 1_999))
        // A peer met by a clock that was ahead counts as met now.
        var ahead = SyncPeers()
        ahead.meet(Self.tabletID, holding: 1, at: 9_000_000_000_000)
        ahead.meet(Self.phoneID, holding: 1, at: 5_000)
        #expect(ahead.peer(Self.tabletID)?.metAt == 5_000)
        let day: Int64 = 24 * 60 * 60 * 1000
        peers.meet(Self.tabletID, holding: 1, at: 2_000 + 90 * day)
        #expect(peers.peers.count == 2)
        peers.meet(Self.tabletID, holding: 1, at: 2_001 + 90 * day)
        #expect(peers.peers.map(\.replica) == [Self.tabletID])
        for index in 0..<70 { peers.meet(ReplicaID(high: 2, low: UInt64(index)), holding: 1, at: 3_000 + 90 * day + Int64(index)) }
        #expect(peers.peers.count == SyncPeers.maximumCount && peers.peers.first?.replica == ReplicaID(high: 2, low: 69)
                && peers.peer(Self.tabletID) == nil && peers.peer(ReplicaID(high: 2, low: 5)) == nil && peers.peer(ReplicaID(high: 2, low: 6)) != nil)
        #expect(SyncPeers(text: peers.text) == peers && peers.text.utf8.count <= StoredSyncState.maximumPeersBytes)
        // The longest text gridstore writes is within the bound every backend enforces.
        var longest = SyncPeers()
        for index in 0..<64 { longest.meet(ReplicaID(high: .max, low: UInt64(index)), holding: .max, at: .max - Int64(index)) }
        #expect(longest.text.utf8.count <= StoredSyncState.maximumPeersBytes && SyncPeers(text: longest.text) == longest)
    }

    @Test("the version a peer holds is the latest logged version its knowledge covers")
    func heldVersion() {
        let log = [StoredSyncVersion(version: 3, versions: "\(Self.phoneID):10"),
                   StoredSyncVersion(version: 5, versions: "\(Self.phoneID):10,\(Self.tabletID):4"),
                   StoredSyncVersion(version: 8, versions: "\(Self.phoneID):12,\(Self.tabletID):4"),
                   StoredSyncVersion(version: 9, versions: "odd")]
        func known(_ phone: Int64, _ tablet: Int64) -> VersionVector {
            VersionVector([Self.phoneID: HybridTime(rawValue: phone), Self.tabletID: HybridTime(rawValue: tablet)])
        }
        #expect(SyncPeers.version(heldBy: known(12, 4), log: log) == 8)
        #expect(SyncPeers.version(heldBy: known(11, 9), log: log) == 5)
        #expect(SyncPeers.version(heldBy: known(10, 0), log: log) == 3)
        #expect(SyncPeers.version(heldBy: known(9, 9), log: log) == 0)
    }

    @Test("a sync records each side on the other, with when; the side that merged last holds every register; a dry run records nothing",
          arguments: Backend.all)
    func sync(backend: Backend) throws {
        let phone = try GridDatabase(path: directory.file("phone.sqlite"))
        let tablet = try GridDatabase(location: try backend.database(in: directory, name: "tablet.sqlite"))
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 3))
        try Grid(named: "default", in: tablet).toggle(at: GridIndexPath(item: 5))
        _ = try phone.sync(with: tablet, dryRun: true)
        #expect(try state(phone) == nil && state(tablet) == nil)
        let before = now()
        _ = try phone.sync(with: tablet)
        let after = now()
        let phoneID = try #require(try Grid(named: "default", in: phone).syncReplicaID())
        let tabletID = try #require(try Grid(named: "default", in: tablet).syncReplicaID())
        let phonePeers = try #require(try peers(phone)), tabletPeers = try #require(try peers(tablet))
        #expect(phonePeers.peers.map(\.replica) == [tabletID] && tabletPeers.peers.map(\.replica) == [phoneID])
        // The phone merged the tablet's answer, which knew everything: it holds all the phone has.
        #expect(phonePeers.peer(tabletID)?.version == (try state(phone)?.version))
        let tabletVersion = try #require(try state(tablet)?.version)
        #expect(tabletPeers.peer(phoneID).map { $0.version <= tabletVersion } == true)
        // Each side's clock (a server's own) is within a few seconds of this process's.
        for met in [phonePeers.peer(tabletID)?.metAt, tabletPeers.peer(phoneID)?.metAt] {
            #expect(met.map { (before - 5_000...after + 5_000).contains($0) } == true, "\(String(describing: met)) not near \(before)")
        }
        #expect(try Grid(named: "default", in: phone).syncReplicas().map { "\($0.isHere) \($0.lastSynced != nil)" } == ["true false", "false true"])
        // A change, then a sync in the other direction: the phone now holds every register of the tablet's.
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try tablet.sync(with: phone)
        #expect(try peers(tablet)?.peer(phoneID)?.version == (try state(tablet)?.version))
        #expect(try peers(phone)?.peers.count == 1 && peers(tablet)?.peers.count == 1)
        // A sync with nothing new writes nothing.
        let rows = try (state(phone), state(tablet))
        _ = try phone.sync(with: tablet)
        #expect(try (state(phone), state(tablet)) == rows)
    }

    @Test("devices syncing with a hub are its peers, and the hub theirs; devices that never met are not each other's")
    func hub() throws {
        let server = try GridDatabase(path: directory.file("server.sqlite"))
        let phone = try GridDatabase(path: directory.file("phone.sqlite")), tablet = try GridDatabase(path: directory.file("tablet.sqlite"))
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 0))
        _ = try phone.sync(with: server)
        try Grid(named: "default", in: tablet).toggle(at: GridIndexPath(item: 2))
        _ = try tablet.sync(with: server)
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 4))
        _ = try phone.sync(with: server)
        let ids = try [phone, tablet, server].map { try #require(try Grid(named: "default", in: $0).syncReplicaID()) }
        #expect(try Set(#require(try peers(server)).peers.map(\.replica)) == [ids[0], ids[1]])
        #expect(try peers(phone)?.peers.map(\.replica) == [ids[2]] && peers(tablet)?.peers.map(\.replica) == [ids[2]])
        // The phone's second sync found the hub holding the tablet's change, which the phone
        // lacked: the hub records the phone at a version before it, never past what the phone held.
        let held = try #require(try peers(server)?.peer(ids[0])?.version)
        let serverVersion = try #require(try state(server)?.version)
        #expect(held > 0 && held < serverVersion)
        let lastSynced = try Grid(named: "default", in: tablet).syncReplicas().filter { $0.lastSynced != nil }.map(\.id)
        #expect(lastSynced == [ids[2]])
    }

    @Test("an imported bundle records its maker; an exported one records nothing")
    func bundles() throws {
        let phone = try GridDatabase(path: directory.file("phone.sqlite")), tablet = try GridDatabase(path: directory.file("tablet.sqlite"))
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 3))
        let bundle = try Grid(named: "default", in: phone).syncBundle(since: .empty)
        #expect(try peers(phone) == SyncPeers())
        try Grid(named: "default", in: tablet).applySyncBundle(bundle.encoded())
        let phoneID = try #require(try Grid(named: "default", in: phone).syncReplicaID())
        #expect(try peers(tablet)?.peers.map(\.replica) == [phoneID] && peers(tablet)?.peer(phoneID)?.version == (try state(tablet)?.version))
        // Taken again, it changes nothing in the grid, and meets the phone again.
        let revision = try Grid(named: "default", in: tablet).currentRevision()
        try Grid(named: "default", in: tablet).applySyncBundle(bundle.encoded())
        #expect(try Grid(named: "default", in: tablet).currentRevision() == revision && peers(tablet)?.peers.count == 1)
    }

    @Test("a record of peers edited by hand is taken for none; check finds it and --repair clears it",
          arguments: ["not peers", "fedcba9876543210fedcba9876543210:999:1"])
    func handEdit(text: String) throws {
        let phone = try GridDatabase(path: directory.file("phone.sqlite")), tablet = try GridDatabase(path: directory.file("tablet.sqlite"))
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 3))
        _ = try phone.sync(with: tablet)
        try SQLiteConnection(path: directory.file("phone.sqlite")).execute("UPDATE sync_states SET peers = ?", [text])
        #expect(try peers(phone) == nil)
        let found = try Grid.checkSyncStates(in: phone)
        #expect(found.first?.problems == ["its record of the peers it met in syncs cannot be read, and is taken for none; 'gridstore check "
                                          + "--repair' clears it, and each peer is recorded again at its next sync"], "\(found)")
        #expect(try Grid.checkSyncStates(in: phone, repairing: true).first?.repaired == true)
        #expect(try peers(phone) == SyncPeers() && Grid.checkSyncStates(in: phone).first?.problems == [])
        // A versions log rebuilt by --repair is what the peers' versions were judged by: they hold none until met again.
        let tabletID = try #require(try Grid(named: "default", in: tablet).syncReplicaID())
        try Grid(named: "default", in: tablet).toggle(at: GridIndexPath(item: 2))
        _ = try phone.sync(with: tablet)
        #expect(try peers(phone)?.peer(tabletID)?.version ?? 0 > 0)
        try SQLiteConnection(path: directory.file("phone.sqlite")).execute("""
            UPDATE sync_registers SET version = (SELECT version FROM sync_states) + 3
            WHERE kind = 'item' AND field = 'p' AND entity = (SELECT min(entity) FROM sync_registers WHERE kind = 'item')
            """)
        #expect(try Grid.checkSyncStates(in: phone, repairing: true).first?.repaired == true)
        #expect(try peers(phone)?.peer(tabletID)?.version == 0)
        // A sync still works with the edit in place, and records the peer again.
        try SQLiteConnection(path: directory.file("phone.sqlite")).execute("UPDATE sync_states SET peers = ?", [text])
        try Grid(named: "default", in: tablet).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: tablet)
        #expect(try peers(phone)?.peers.count == 1 && Grid(named: "default", in: phone).storedSnapshot().content
                == Grid(named: "default", in: tablet).storedSnapshot().content)
        // A text past the bound cannot be written.
        #expect(throws: (any Error).self) {
            try SQLiteConnection(path: directory.file("phone.sqlite")).execute("UPDATE sync_states SET peers = ?",
                                                                                [String(repeating: "x", count: 4_673)])
        }
    }
}
