import GridLayout
import GridStoreAudit
import Testing
import TestSupport
@testable import GridStore
@testable import GridStoreSQLite

/// A grid dropped after it synced is dropped on its peers, through any hub, and comes back only
/// from a peer that changed it since (docs/sync.md, "Dropping a grid").
@Suite("Sync of dropped grids")
struct SyncDropTests {
    let directory = TemporaryDirectory()

    /// A phone and a tablet synced through a hub on `backend`, each with `default` and `old`.
    func devices(_ backend: Backend, prefix: String = "") throws -> (phone: GridDatabase, tablet: GridDatabase, hub: GridDatabase) {
        let hub = try GridDatabase(location: try backend.database(in: directory, name: prefix + "hub.sqlite"))
        let phone = try GridDatabase(path: directory.file(prefix + "phone.sqlite"))
        let tablet = try GridDatabase(path: directory.file(prefix + "tablet.sqlite"))
        try Grid.create(named: "old", in: phone, content: GridContent(columns: 4, sections: [Array(repeating: .small, count: 5)]))
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: hub)
        _ = try tablet.sync(with: hub)
        #expect(try names(tablet) == ["default", "old"])
        return (phone, tablet, hub)
    }

    func names(_ database: GridDatabase) throws -> [String] {
        try Grid.list(in: database).map(\.name)
    }

    func result(_ results: [GridSyncResult], _ name: String = "old") throws -> GridSyncResult {
        try #require(results.first { $0.grid == name })
    }

    @Test("a grid dropped on one device is dropped on the hub and on every other device, and stays dropped", arguments: Backend.all)
    func dropReachesEveryPeer(backend: Backend) throws {
        let (phone, tablet, hub) = try devices(backend)
        #expect(try Grid.drop(named: "old", in: phone))
        #expect(try result(phone.sync(with: hub)).drop == .droppedThere)
        #expect(try names(hub) == ["default"])
        let reached = try result(tablet.sync(with: hub))
        #expect(reached.drop == .droppedHere && reached.revision.after == nil, "\(reached)")
        #expect(try names(tablet) == ["default"])
        for (device, peer) in [(phone, hub), (tablet, hub), (phone, tablet)] {
            let again = try device.sync(with: peer)
            #expect(again.map(\.grid) == ["default"] && again.allSatisfy { $0.sent == 0 && $0.received == 0 }, "\(again)")
        }
        #expect(try names(phone) == ["default"])
    }

    @Test("a change made to the grid on another device without seeing the drop keeps it: it comes back where it was dropped, with that change",
          arguments: Backend.all)
    func changeSinceKeepsIt(backend: Backend) throws {
        let (phone, tablet, hub) = try devices(backend)
        try Grid.drop(named: "old", in: phone)
        try Grid(named: "old", in: tablet).toggle(at: GridIndexPath(item: 3))
        _ = try tablet.sync(with: hub)
        let back = try result(phone.sync(with: hub))
        #expect(back.drop == .kept && back.revision.before == nil && back.revision.after != nil, "\(back)")
        #expect(try phone.content(of: "old") == tablet.content(of: "old") && phone.content(of: "old").sections[0][3] == .middle)
        _ = try tablet.sync(with: hub)
        #expect(try tablet.content(of: "old") == hub.content(of: "old"))
        // The drop on the other order: the phone syncs first, and the hub's grid is dropped; the
        // tablet's change, made without seeing the drop, brings it back everywhere.
        let (phone2, tablet2, hub2) = try devices(backend, prefix: "second-")
        try Grid.drop(named: "old", in: phone2)
        try Grid(named: "old", in: tablet2).toggle(at: GridIndexPath(item: 2))
        #expect(try result(phone2.sync(with: hub2)).drop == .droppedThere)
        #expect(try result(tablet2.sync(with: hub2)).drop == .kept)
        #expect(try result(phone2.sync(with: hub2)).drop == .kept)
        #expect(try phone2.content(of: "old") == tablet2.content(of: "old") && hub2.content(of: "old") == tablet2.content(of: "old")
                && phone2.content(of: "old").sections[0][2] == .middle)
    }

    @Test("a grid made again under the dropped name is another grid: it replaces the old one on every peer, nothing of the old mixed in",
          arguments: Backend.all)
    func madeAgainIsAnotherGrid(backend: Backend) throws {
        let (phone, tablet, hub) = try devices(backend)
        try Grid.drop(named: "old", in: phone)
        try Grid.create(named: "old", in: phone, content: GridContent(columns: 6, sections: [[.small, .small]]))
        try Grid(named: "old", in: phone).setSize(.big, at: GridIndexPath(item: 1))
        let made = try phone.content(of: "old")
        let first = try result(phone.sync(with: hub))
        #expect(first.drop == .droppedThere && first.otherRevision.after != nil, "\(first)")
        #expect(try hub.content(of: "old") == made)
        #expect(try result(tablet.sync(with: hub)).drop == .droppedHere)
        #expect(try tablet.content(of: "old") == made && phone.content(of: "old") == made)
        #expect(try phone.sync(with: hub).allSatisfy { $0.sent == 0 && $0.received == 0 && $0.drop == nil })
    }

    @Test("dropped here alone (keepingOnPeers): the next sync brings the grid back as the peer has it", arguments: Backend.all)
    func keptOnPeers(backend: Backend) throws {
        let (phone, _, hub) = try devices(backend)
        let before = try hub.content(of: "old")
        #expect(try Grid.drop(named: "old", in: phone, keepingOnPeers: true))
        let back = try result(phone.sync(with: hub))
        #expect(back.drop == nil && back.revision.after != nil)
        #expect(try phone.content(of: "old") == before && names(hub) == ["default", "old"])
    }

    @Test("a grid that never synced is never dropped by another database's drop of its name: it comes over instead")
    func neverSyncedIsKept() throws {
        let (phone, _, hub) = try devices(.sqlite)
        try Grid.drop(named: "old", in: phone)
        let other = try GridDatabase(path: directory.file("other.sqlite"))
        try Grid.create(named: "old", in: other, content: GridContent(columns: 4, sections: [[.big, .small, .small]]))
        let made = try other.content(of: "old")
        let results = try other.sync(with: phone)
        #expect(try result(results).drop == nil && phone.content(of: "old") == made)
        _ = try phone.sync(with: hub)
        #expect(try hub.content(of: "old") == made)
    }

    @Test("bundles: one holding no change made since the drop leaves the grid dropped; a partial one with changes since is refused in one line; a whole one with changes since brings it back")
    func bundles() throws {
        let (phone, tablet, _) = try devices(.sqlite)
        let whole = try Grid(named: "old", in: tablet).syncBundle(since: .empty).encoded()
        try Grid.drop(named: "old", in: phone)
        let stays = try Grid(named: "old", in: phone).applySyncBundle(whole)
        #expect(stays.drop == .droppedHere && stays.received == 0 && stays.revision.after == nil)
        #expect(try names(phone) == ["default"])

        let cursor = try Grid(named: "old", in: tablet).syncCursor()
        try Grid(named: "old", in: tablet).toggle(at: GridIndexPath(item: 4))
        let partial = try Grid(named: "old", in: tablet).syncBundle(since: cursor).encoded()
        #expect(throws: GridError.sync(SyncError(.dropped, "grid 'old' was dropped here, and the sync bundle holds changes made to it since, "
                                                 + "but not the whole grid: take a bundle since 'none' to bring it back"))) {
            try Grid(named: "old", in: phone).applySyncBundle(partial)
        }
        #expect(try names(phone) == ["default"])
        let changed = try Grid(named: "old", in: tablet).syncBundle(since: .empty).encoded()
        let back = try Grid(named: "old", in: phone).applySyncBundle(changed)
        #expect(back.drop == .kept && back.revision.after != nil)
        #expect(try phone.content(of: "old") == tablet.content(of: "old"))
    }

    @Test("a dry run says where the grid would be dropped and writes nothing on either side")
    func dryRun() throws {
        let (phone, tablet, _) = try devices(.sqlite)
        try Grid.drop(named: "old", in: phone)
        let said = try result(phone.sync(with: tablet, dryRun: true))
        #expect(said.drop == .droppedThere && said.otherRevision.after == nil)
        #expect(try names(tablet) == ["default", "old"])
        let connection = try SQLiteConnection(path: directory.file("tablet.sqlite"))
        #expect(try connection.fetchOne("SELECT count(*) FROM sync_drops") { $0.int(at: 0) } == 0)
    }

    @Test("a drop reaches a peer's grid by its stored state's row, not its registers: one it cannot read does not stop the drop, a change since still keeps the grid")
    func dropReadsNoRegisters() throws {
        let (phone, tablet, _) = try devices(.sqlite)
        // The tablet's registers of "old" hold a text gridstore cannot read: reading them would
        // refuse the sync (a grid that shrank from a million tiles holds millions of them).
        let tabletFile = try SQLiteConnection(path: directory.file("tablet.sqlite"))
        try tabletFile.execute("""
            UPDATE sync_registers SET register = 'not a register'
            WHERE grid_id = (SELECT id FROM grids WHERE name = 'old') AND kind = 'item' AND field = 'p'
            """)
        #expect(try tabletFile.fetchOne("SELECT changes()") { $0.int(at: 0) } == 5)
        try Grid.drop(named: "old", in: phone)
        #expect(try result(phone.sync(with: tablet)).drop == .droppedThere)
        #expect(try names(tablet) == ["default"])

        // A grid changed since its last sync is made current first, reading its registers: the
        // change keeps it, as before.
        let (phone2, tablet2, _) = try devices(.sqlite, prefix: "again-")
        try Grid(named: "old", in: tablet2).toggle(at: GridIndexPath(item: 2))
        try Grid.drop(named: "old", in: phone2)
        _ = try phone2.sync(with: tablet2)
        #expect(try names(tablet2) == ["default", "old"] && names(phone2) == ["default", "old"])
    }

    @Test("a drop row not in the shape gridstore writes drops nothing: the grid comes back", arguments: [
        "UPDATE sync_drops SET versions = 'not versions'",
        "UPDATE sync_drops SET versions = '0123456789abcdef0123456789abcdef:0'",
        "UPDATE sync_drops SET versions = '0123456789abcdef0123456789abcdef:1,0123456789abcdef0123456789abcdef:2'",
    ])
    func oddRow(edit: String) throws {
        let (phone, tablet, _) = try devices(.sqlite)
        let before = try tablet.content(of: "old")
        try Grid.drop(named: "old", in: phone)
        try SQLiteConnection(path: directory.file("phone.sqlite")).execute(edit)
        let results = try phone.sync(with: tablet)
        #expect(try result(results).drop == nil && phone.content(of: "old") == before)
    }

    @Test("drop rows no grid matches, that cannot be read, or that name no grid gridstore allows, stop no sync and are carried only when readable",
          arguments: [
        "INSERT INTO sync_drops VALUES ('ghost', 'garbage', 0)",
        "INSERT INTO sync_drops VALUES (cast(x'6f6cff64' AS TEXT), '0123456789abcdef0123456789abcdef:5', 0)",
        "INSERT INTO sync_drops VALUES ('caf' || char(101, 769), '0123456789abcdef0123456789abcdef:5', 0)",
        "INSERT INTO sync_drops VALUES ('gone', '0123456789abcdef0123456789abcdef:5', 0)",
    ])
    func rowsWithoutGrids(edit: String) throws {
        let (phone, tablet, _) = try devices(.sqlite)
        try SQLiteConnection(path: directory.file("phone.sqlite")).execute(edit)
        for (one, other) in [(phone, tablet), (tablet, phone)] {
            let outcomes = try one.syncEach(with: other)
            #expect(outcomes.map(\.grid) == ["default", "old"], "\(outcomes)")
            #expect(outcomes.allSatisfy { if case .synced = $0 { true } else { false } })
        }
        let carried = try SQLiteConnection(path: directory.file("tablet.sqlite")).fetchAll("SELECT name FROM sync_drops") { $0.string(at: 0) }
        #expect(carried == (edit.contains("'gone'") ? ["gone"] : []))
    }

    @Test("a grid copied back after its drop is restored: every peer takes it back, the hub that holds the drop too", arguments: Backend.all)
    func copiedBack(backend: Backend) throws {
        let (phone, tablet, hub) = try devices(backend)
        let backup = try GridDatabase(path: directory.file("backup.sqlite"))
        try Grid.copy(from: phone, to: backup)
        try Grid.drop(named: "old", in: phone)
        _ = try phone.sync(with: hub)
        _ = try tablet.sync(with: hub)
        #expect(try names(hub) == ["default"] && names(tablet) == ["default"])
        try Grid.copy(from: backup, to: phone, names: ["old"])
        let back = try result(phone.sync(with: hub))
        #expect(back.drop == .kept && back.otherRevision.after != nil, "\(back)")
        #expect(try result(tablet.sync(with: hub)).drop == .kept)
        #expect(try tablet.content(of: "old") == backup.content(of: "old") && hub.content(of: "old") == backup.content(of: "old"))
    }

    @Test("a copy of every grid carries the drops, so a database moved elsewhere drops the same grids on its peers", arguments: Backend.all)
    func copyCarriesDrops(backend: Backend) throws {
        let (phone, tablet, _) = try devices(.sqlite)
        try Grid.drop(named: "old", in: phone)
        let moved = try GridDatabase(location: try backend.database(in: directory, name: "moved.sqlite"))
        try Grid.copy(from: phone, to: moved)
        #expect(try result(moved.sync(with: tablet)).drop == .droppedThere)
        #expect(try names(tablet) == ["default"])
    }

    @Test("a peer that holds the grid as it was at the drop merges with the grid that came back, keeping its history and settings; a device that never had the grid sees no drop")
    func revivedMergesWithCovered() throws {
        let (phone, tablet, hub) = try devices(.sqlite)
        // The tablet changes the direction and keeps its history; the phone sees it, then drops the grid.
        try Grid(named: "old", in: tablet).update { try $0.setDirection(.horizontal) }
        _ = try tablet.sync(with: phone)
        let history = try Grid(named: "old", in: tablet).history().count
        try Grid.drop(named: "old", in: phone)
        // The hub changes it without seeing the drop: the phone takes it back.
        try Grid(named: "old", in: hub).toggle(at: GridIndexPath(item: 4))
        #expect(try result(phone.sync(with: hub)).drop == .kept)
        // The tablet's grid, which the drop knew whole, merges with the one that came back.
        let merged = try result(tablet.sync(with: phone))
        #expect(merged.drop == nil && merged.revision.before != nil, "\(merged)")
        #expect(try Grid(named: "old", in: tablet).history().count > history)
        #expect(try tablet.content(of: "old") == phone.content(of: "old") && tablet.content(of: "old").sections[0][4] == .middle)
        #expect(try Grid(named: "old", in: tablet).storedSnapshot().direction == .horizontal)
        let fresh = try GridDatabase(path: directory.file("fresh.sqlite"))
        #expect(try result(phone.sync(with: fresh)).drop == nil)
    }

    @Test("check finds a drop row gridstore did not write, of a grid here or not, and --repair deletes it; a row it wrote is no problem")
    func checkFindsOddRows() throws {
        let (phone, _, _) = try devices(.sqlite)
        try Grid.drop(named: "old", in: phone)
        #expect(try Grid.checkSyncStates(in: phone).allSatisfy(\.problems.isEmpty))
        let connection = try SQLiteConnection(path: directory.file("phone.sqlite"))
        try connection.execute("INSERT INTO sync_drops VALUES ('ghost', 'garbage', 0), ('default', 'not versions', 0), "
                               + "(cast(x'6f6cff64' AS TEXT), 'garbage', 0)")
        let found = try Grid.checkSyncStates(in: phone)
        #expect(found.filter { !$0.problems.isEmpty }.map(\.grid).sorted() == ["default", "ghost", "ol\u{FFFD}d"], "\(found)")
        #expect(found.allSatisfy { !$0.repaired && $0.problems.allSatisfy { $0.contains("sync_drops") } })
        let mended = try Grid.checkSyncStates(in: phone, repairing: true)
        let unmended = mended.filter { !$0.problems.isEmpty && !$0.repaired }
        #expect(unmended.isEmpty, "\(mended)")
        #expect(try connection.fetchAll("SELECT name FROM sync_drops") { $0.string(at: 0) } == ["old"])
        #expect(try Grid.checkSyncStates(in: phone).allSatisfy(\.problems.isEmpty))
    }

    @Test("a transaction's drop records the drop as Grid.drop does")
    func transactionDrop() throws {
        let (phone, _, hub) = try devices(.sqlite)
        try phone.write { try $0.drop(gridNamed: "old") }
        #expect(try result(phone.sync(with: hub)).drop == .droppedThere)
        #expect(try names(hub) == ["default"])
    }
}
