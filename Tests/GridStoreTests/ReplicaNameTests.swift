import Foundation
import GridLayout
import Testing
import TestSupport
@testable import GridStore
@testable import GridStoreSQLite

/// A database goes by a name a person gave it ("Anna's iPad", else its host name), which syncs
/// with each grid and is shown wherever a replica is (docs/sync.md, "Which device is which").
@Suite("Replica names")
struct ReplicaNameTests {
    let directory = TemporaryDirectory()

    func state(_ database: GridDatabase, _ name: String = "default") throws -> ReplicatedGrid {
        try database.storageRead { try SyncSide.prepare(name, in: $0, minting: false).state }
    }

    @Test("names given on two devices reach each other through a hub, and conflicts and the merge's history entry show them",
          arguments: Backend.all)
    func namesThroughAHub(backend: Backend) throws {
        let hub = try GridDatabase(location: try backend.database(in: directory, name: "hub.sqlite"))
        let phone = try GridDatabase(path: directory.file("phone.sqlite")), tablet = try GridDatabase(path: directory.file("tablet.sqlite"))
        try phone.setReplicaName("Anna's phone")
        try tablet.setReplicaName("Anna's iPad")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 0))
        _ = try phone.sync(with: hub)
        _ = try tablet.sync(with: hub)
        // Both change one tile without seeing the other's change: the later, the tablet's, wins.
        try Grid(named: "default", in: phone).setSize(.big, at: GridIndexPath(item: 2))
        // Later by the wall clock, whose unit is the millisecond: within one, the replica ids decide.
        let madeAt = Int64(Date().timeIntervalSince1970 * 1000)
        while Int64(Date().timeIntervalSince1970 * 1000) <= madeAt {}
        try Grid(named: "default", in: tablet).setSize(.middle, at: GridIndexPath(item: 2))
        _ = try phone.sync(with: hub)
        let merged = try tablet.sync(with: hub)
        // The names are labels, not changes: the count is the tile's.
        #expect(merged.first?.sent == 1 && merged.first?.received == 0, "\(merged)")
        let phoneID = try #require(try Grid(named: "default", in: phone).syncReplicaID())
        let tabletID = try #require(try Grid(named: "default", in: tablet).syncReplicaID())
        let conflicts = try Grid(named: "default", in: tablet).syncConflicts()
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.keptBy == tabletID && conflicts.first?.keptByName == "Anna's iPad")
        #expect(conflicts.first?.overwrittenBy == phoneID && conflicts.first?.overwrittenByName == "Anna's phone")
        #expect(conflicts.first?.description == "size of item 2 of section 0: middle by Anna's iPad (replica \(tabletID)) overwrote "
                + "big by Anna's phone (replica \(phoneID))")
        // The phone takes the tablet's size from the hub: its history names the hub, by the host
        // name the hub took at its first sync.
        _ = try phone.sync(with: hub)
        let hubID = try #require(try Grid(named: "default", in: hub).syncReplicaID())
        let hubName = try #require(try hub.replicaName())
        let entry = try #require(try Grid(named: "default", in: phone).history(limit: 1).first)
        #expect(entry.kind == .merge && entry.operation == "sync from \(hubName) (replica \(hubID))", "\(entry.operation)")
        // The hub holds both names, and passes them to a device that joins later.
        let late = try GridDatabase(path: directory.file("late.sqlite"))
        _ = try late.sync(with: hub)
        let names = try state(late).names.mapValues { $0.winner?.value }
        #expect(names[phoneID] == "Anna's phone" && names[tabletID] == "Anna's iPad", "\(names)")
    }

    @Test("a new name reaches the peers with the next sync of a change; a second sync moves nothing; drops still reach the renamed device")
    func renameTravels() throws {
        let phone = try GridDatabase(path: directory.file("phone.sqlite")), tablet = try GridDatabase(path: directory.file("tablet.sqlite"))
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 0))
        try Grid.create(named: "old", in: phone, content: GridContent(columns: 4, sections: [[.small, .big]]))
        _ = try phone.sync(with: tablet)
        let phoneID = try #require(try Grid(named: "default", in: phone).syncReplicaID())
        try phone.setReplicaName("Phone 2")
        #expect(try phone.replicaName() == "Phone 2")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        let moved = try phone.sync(with: tablet)
        #expect(moved.first { $0.grid == "default" }?.sent == 1)
        #expect(try state(tablet).name(of: phoneID) == "Phone 2")
        #expect(try phone.sync(with: tablet).allSatisfy { $0.sent == 0 && $0.received == 0 })
        // A name is not a change a drop must have seen: the tablet, renamed after the phone's last
        // sync, still takes the phone's drop of a grid it did not change.
        try tablet.setReplicaName("Tablet")
        #expect(try Grid.drop(named: "old", in: phone))
        let dropped = try #require(try phone.sync(with: tablet).first { $0.grid == "old" })
        #expect(dropped.drop == .droppedThere, "\(dropped)")
        #expect(try Grid.list(in: tablet).map(\.name) == ["default"])
    }

    @Test("a database without a name goes by its host name, stored at its first sync")
    func hostNameByDefault() throws {
        let phone = try GridDatabase(path: directory.file("phone.sqlite")), tablet = try GridDatabase(path: directory.file("tablet.sqlite"))
        let host = try #require(Platform.hostName())
        #expect(try phone.replicaName() == host)
        #expect(try phone.storageRead { try $0.replicaRow()?.name } == nil)
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 0))
        _ = try phone.sync(with: tablet)
        #expect(try phone.storageRead { try $0.replicaRow()?.name } == host)
        let phoneID = try #require(try Grid(named: "default", in: phone).syncReplicaID())
        #expect(try state(tablet).name(of: phoneID) == host)
    }

    @Test("a name that cannot be one is refused, and the database is left as it was", arguments: [
        "", "   ", String(repeating: "n", count: 65), "evil\u{1B}[31m", "line\nbreak", "bidi\u{202E}txt", "line\u{2028}sep",
        "para\u{2029}sep", "\u{200B}", "\u{FEFF}\u{2060} ",
    ])
    func refusedNames(name: String) throws {
        let path = directory.file("phone.sqlite")
        let phone = try GridDatabase(path: path)
        try phone.setReplicaName("Kept")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: GridError.self) { try phone.setReplicaName(name) }
        #expect(try phone.replicaName() == "Kept")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a bundle's names are checked as the database's are: a hostile or forged name refuses the bundle whole, in both formats")
    func hostileNamesInBundles() throws {
        let sender = ReplicaID(high: 1, low: 2), other = ReplicaID(high: 3, low: 4)
        func bundle(_ names: [ReplicaID: MergeRegister<String>]) -> SyncBundle {
            var delta = ReplicatedGrid()
            delta.names = names
            delta.versions.advance(sender, to: HybridTime(rawValue: 9))
            return SyncBundle(grid: "default", replica: sender, cursor: VersionVector(), delta: delta)
        }
        func named(_ text: String, by writer: ReplicaID) -> MergeRegister<String> {
            MergeRegister(heads: [.init(value: text, stamp: SyncStamp(time: HybridTime(rawValue: 9), replica: writer))], context: [])
        }
        func refusal(_ bytes: [UInt8]) -> String? {
            do { _ = try SyncBundle(decoding: bytes); return nil } catch { return error.message }
        }
        let fine = bundle([sender: named("Anna's iPad", by: sender)])
        for bytes in [fine.encoded(), fine.encodedAsJSON()] {
            #expect(try SyncBundle(decoding: bytes).delta.names == fine.delta.names)
        }
        for (names, expected) in [([sender: named("evil\u{1B}]0;x\u{7}", by: sender)], "cannot contain control characters"),
                                  ([sender: named("", by: sender)], "at least one character"),
                                  ([sender: named("cafe\u{301}", by: sender)], "canonical form"),
                                  ([other: named("Not mine", by: sender)], "is one write, by that replica")] {
            let hostile = bundle(names)
            for bytes in [hostile.encoded(), hostile.encodedAsJSON()] {
                let refused = refusal(bytes)
                #expect(refused?.contains(expected) == true, "\(refused ?? "accepted")")
            }
        }
    }

    @Test("a bundle's names are taken where harmless: this replica's own, one stamped far ahead, one of an unknown replica are left out")
    func untrustedNamesLeftOut() throws {
        let phone = try GridDatabase(path: directory.file("phone.sqlite")), tablet = try GridDatabase(path: directory.file("tablet.sqlite"))
        try phone.setReplicaName("Phone")
        try tablet.setReplicaName("Tablet")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 0))
        _ = try phone.sync(with: tablet)
        let phoneGrid = try Grid(named: "default", in: phone), tabletGrid = try Grid(named: "default", in: tablet)
        let phoneID = try #require(try phoneGrid.syncReplicaID()), tabletID = try #require(try tabletGrid.syncReplicaID())
        try phoneGrid.toggle(at: GridIndexPath(item: 1))
        let honest = try phoneGrid.syncBundle(since: try tabletGrid.syncCursor())
        var delta = honest.delta
        let future = HybridTime(milliseconds: Platform.wallClockMilliseconds() + 365 * 86_400_000)
        func named(_ text: String, _ replica: ReplicaID, at time: HybridTime) -> MergeRegister<String> {
            MergeRegister(heads: [.init(value: text, stamp: SyncStamp(time: time, replica: replica))], context: [])
        }
        let stranger = ReplicaID(high: 7, low: 7)
        delta.names[phoneID] = named("Mallory", phoneID, at: future)
        delta.names[tabletID] = named("Not the tablet", tabletID, at: future)
        delta.names[stranger] = named("Stranger", stranger, at: HybridTime(milliseconds: 1_000))
        let forged = SyncBundle(grid: "default", replica: phoneID, cursor: honest.cursor, delta: delta)
        let applied = try tabletGrid.applySyncBundle(forged.encoded())
        #expect(applied.received == 1)
        var names = try state(tablet).names.mapValues { $0.winner?.value }
        #expect(names == [phoneID: "Phone", tabletID: "Tablet"], "\(names)")
        // The phone renames itself: the name reaches the tablet, and syncs both ways go on.
        try phone.setReplicaName("Phone 2")
        try phoneGrid.toggle(at: GridIndexPath(item: 2))
        #expect(try phone.sync(with: tablet).allSatisfy { $0.received == 0 })
        try tabletGrid.toggle(at: GridIndexPath(item: 3))
        #expect(try tablet.sync(with: phone).first?.sent == 1)
        names = try state(tablet).names.mapValues { $0.winner?.value }
        #expect(names[phoneID] == "Phone 2", "\(names)")
    }

    @Test("a name row gridstore did not write stops no sync; check finds it and --repair deletes it, and the replica's name comes back")
    func oddNameRows() throws {
        let phonePath = directory.file("phone.sqlite"), tabletPath = directory.file("tablet.sqlite")
        let phone = try GridDatabase(path: phonePath), tablet = try GridDatabase(path: tabletPath)
        try phone.setReplicaName("Phone")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 0))
        _ = try phone.sync(with: tablet)
        let phoneID = try #require(try Grid(named: "default", in: phone).syncReplicaID())
        let future = HybridTime(milliseconds: Platform.wallClockMilliseconds() + 365 * 86_400_000)
        func plant(_ planted: String) throws {
            try tablet.storageWrite { transaction in
                let gridID = try #require(try transaction.header(named: "default")?.header()).id
                let numbers = try transaction.syncRegisters(gridID: gridID, changedAfter: .max, limit: 100).replicas
                let number = try #require(numbers.first { $0.id == phoneID.description }).number
                try transaction.writeSyncState(StoredSyncWrite(
                    state: try #require(try transaction.syncState(gridID: gridID)), replacing: false, replicas: [],
                    registers: [StoredSyncRegister(kind: "replica", entity: phoneID.description, field: "name",
                                                   register: planted.replacing(",0]]", with: ",\(number)]]"), version: 1)],
                    removed: [], log: nil), gridID: gridID)
            }
        }
        func found() throws -> Bool {
            try Grid.checkSyncStates(in: tablet).first?.problems.contains {
                $0.contains("of the names its replicas go by cannot be read or are stamped ahead")
            } == true
        }
        for planted in [#"[["Phone\u001b[2J",5,0]]"#, "not json", #"[["Far ahead",\#(future.rawValue),0]]"#] {
            try plant(planted)
            #expect(try found(), "\(planted)")
            // Sync goes on; a name that cannot be read is never shown (one stamped far ahead is, until --repair).
            try Grid(named: "default", in: tablet).toggle(at: GridIndexPath(item: 1))
            #expect(try tablet.sync(with: phone).first?.sent == 1)
            #expect(try state(tablet).name(of: phoneID).map { $0 == "Phone" || $0 == "Far ahead" } == true)
            try plant(planted)
            let mended = try Grid.checkSyncStates(in: tablet, repairing: true)
            let stillFound = try found()
            #expect(mended.first?.repaired == true && !stillFound, "\(planted): \(mended)")
            // The phone's next sync that moves a change brings its name back.
            try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 2))
            _ = try phone.sync(with: tablet)
            #expect(try state(tablet).name(of: phoneID) == "Phone", "\(planted)")
        }
    }

    @Test("a stored database name gridstore would not write is taken for none: the host name stands for it, and replaces it at the next sync")
    func oddStoredName() throws {
        let phone = try GridDatabase(path: directory.file("phone.sqlite")), tablet = try GridDatabase(path: directory.file("tablet.sqlite"))
        try phone.storageWrite { try $0.setReplicaName("\u{1B}[31mred") }
        let host = try #require(Platform.hostName())
        #expect(try phone.replicaName() == host)
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 0))
        _ = try phone.sync(with: tablet)
        #expect(try phone.storageRead { try $0.replicaRow()?.name } == host)
    }
}
