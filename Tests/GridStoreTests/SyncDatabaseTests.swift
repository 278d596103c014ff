import Foundation
import GridLayout
import GridStoreAudit
import SeededRandom
import Testing
@testable import GridStore
@testable import GridStoreSQLite

/// Sync between databases: both ways, conflicts, copies, dry runs, undo, bundles, hostile bundles.
@Suite("Sync between databases")
struct SyncDatabaseTests {
    let directory = TemporaryDirectory()

    func database(_ name: String) throws -> GridDatabase { try GridDatabase(path: directory.file(name)) }

    @Test("a whole bundle of an unrelated grid is refused as unrelated unless allowed, in a grid's call and in a transaction; a bundle into a grid that is not here makes it")
    func unrelatedBundle() throws {
        let phone = try database("phone.sqlite"), tablet = try database("tablet.sqlite")
        for (database, keys) in [(phone, ["mail", "maps", "news", "notes"]), (tablet, ["chess", "go", "poker", "bridge"])] {
            try Grid(named: "apps", in: database, creatingWith: GridOptions(sectionItemCounts: [1])).update { editor in
                for key in keys { try editor.insertItem(at: GridIndexPath(item: 0), size: .small, key: key) }
            }
        }
        let bundle = try Grid(named: "apps", in: tablet, creatingWith: nil).syncBundle(since: .empty)
        let onPhone = try Grid(named: "apps", in: phone, creatingWith: nil)
        let before = try onPhone.storedSnapshot()
        for apply in [{ try onPhone.applySyncBundle(bundle) },
                      { try phone.write { try $0.applySyncBundle(bundle.encoded(), to: onPhone) } }] as [() throws -> GridSyncResult] {
            let error = try #require(throws: GridError.self) { try apply() }
            guard case .sync(let refusal) = error else { Issue.record("\(error)"); continue }
            #expect(refusal.kind == .unrelated && "\(refusal)".contains("each has 4 or more keyed items and no key in common"), "\(refusal)")
            #expect(try onPhone.storedSnapshot() == before)
        }
        // A bundle made for the phone's cursor, once the phone synced with another device: the
        // tablet never met those replicas, so it holds the whole grid too.
        let watch = try database("watch.sqlite")
        _ = try phone.sync(with: watch)
        let forCursor = try Grid(named: "apps", in: tablet, creatingWith: nil).syncBundle(since: onPhone.syncCursor())
        #expect(!forCursor.cursor.entries.isEmpty)
        let refused = try #require(throws: GridError.self) { try onPhone.applySyncBundle(forCursor) }
        #expect("\(refused)".contains("cannot be one grid"), "\(refused)")
        #expect(try onPhone.storedSnapshot().content == before.content)
        let merged = try onPhone.applySyncBundle(bundle, allowingUnrelated: true)
        #expect(merged.received > 0)
        #expect(try onPhone.storedSnapshot().content.keys.joined().compactMap { $0 }.count == 8)
        // A grid not here is made from the bundle, whatever it holds.
        let fresh = try database("fresh.sqlite")
        #expect(try Grid(named: "apps", in: fresh, creatingWith: GridOptions()).applySyncBundle(bundle).revision.before == nil)
    }

    @Test("a sync takes each side's changes to the other; a second one moves nothing and makes no revision")
    func bothWays() throws {
        let phone = try database("phone.sqlite"), tablet = try database("tablet.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 3))
        try Grid(named: "default", in: tablet).update { try $0.insertItem(at: GridIndexPath(item: 0), size: .big, key: "mail") }
        try Grid(named: "notes", in: tablet).toggle(at: GridIndexPath(item: 1))
        try tablet.setReplicaName("Anna's iPad")
        let results = try phone.sync(with: tablet)
        #expect(results.map(\.grid) == ["default", "notes"])
        #expect(try phone.content() == tablet.content() && phone.content(of: "notes") == tablet.content(of: "notes"))
        // The grids began apart: keyless items are matched by their place among the keyless ones.
        let merged = try phone.content()
        #expect(merged.sections[0].count == 13 && merged.sections[0].compactMap { $0 } == [.big, .middle] || merged.sections[0].compactMap { $0 } == [.middle, .big])
        let mail = try #require(merged.keys.first?.firstIndex(of: "mail"))
        #expect(merged.sections[0][mail] == .big && merged.keys[0].compactMap { $0 } == ["mail"])
        let revisions = try (Grid(named: "default", in: phone).currentRevision(), Grid(named: "default", in: tablet).currentRevision())
        let again = try tablet.sync(with: phone)
        #expect(again.allSatisfy { $0.sent == 0 && $0.received == 0 && $0.conflicts == 0 })
        #expect(try (Grid(named: "default", in: phone).currentRevision(), Grid(named: "default", in: tablet).currentRevision()) == revisions)
        // The merge is a history entry of its own kind, naming the replica and its database's name, and undo does not take it back.
        let history = try Grid(named: "default", in: phone).history()
        let tabletID = try #require(try Grid(named: "default", in: tablet).syncReplicaID())
        #expect(history.first?.kind == .merge && history.first?.operation == "sync from Anna's iPad (replica \(tabletID))")
        #expect(throws: GridError.nothingToUndo(requested: 1, available: 0)) { try Grid(named: "default", in: phone).undo() }
    }

    @Test("devices that sync only with one server (PostgreSQL or a file) get each other's changes, and a second sync moves nothing",
          arguments: Backend.all)
    func hub(backend: Backend) throws {
        let server = try GridDatabase(location: try backend.database(in: directory, name: "server.sqlite"))
        let phone = try database("phone.sqlite"), tablet = try database("tablet.sqlite")
        try Grid(named: "default", in: phone).update { try $0.insertItem(at: GridIndexPath(item: 0), size: .big, key: "mail") }
        try Grid(named: "default", in: tablet).toggle(at: GridIndexPath(item: 4))
        _ = try phone.sync(with: server)
        _ = try tablet.sync(with: server)
        _ = try phone.sync(with: server)
        #expect(try phone.content() == tablet.content() && phone.content() == server.content())
        try Grid(named: "default", in: tablet).update { try $0.moveItem(from: GridIndexPath(item: 0), to: GridIndexPath(item: 6)) }
        try Grid(named: "default", in: phone).setSize(.middle, at: GridIndexPath(item: 0))
        _ = try tablet.sync(with: server)
        _ = try phone.sync(with: server)
        _ = try tablet.sync(with: server)
        let merged = try server.content()
        #expect(try phone.content() == merged && tablet.content() == merged)
        // The moved item kept the size the phone gave it meanwhile.
        #expect(merged.keys.first?[6] == "mail" && merged.sections[0][6] == .middle)
        let revision = try Grid(named: "default", in: server).currentRevision()
        #expect(try phone.sync(with: server).allSatisfy { $0.sent == 0 && $0.received == 0 })
        #expect(try Grid(named: "default", in: server).currentRevision() == revision)
        #expect(try server.replicaID() != phone.replicaID())
    }

    @Test("concurrent changes of one size: the later wins on both sides, the other is a conflict both list")
    func conflicts() throws {
        let phone = try database("phone.sqlite"), tablet = try database("tablet.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 2))
        _ = try phone.sync(with: tablet)
        try Grid(named: "default", in: phone).setSize(.big, at: GridIndexPath(item: 2))
        // Later by the wall clock, whose unit is the millisecond: within one, the replica ids decide.
        let madeAt = Int64(Date().timeIntervalSince1970 * 1000)
        while Int64(Date().timeIntervalSince1970 * 1000) <= madeAt {}
        try Grid(named: "default", in: tablet).setSize(.small, at: GridIndexPath(item: 2))
        let result = try tablet.sync(with: phone)
        #expect(result.first?.conflicts == 1)
        let onPhone = try Grid(named: "default", in: phone).syncConflicts()
        let onTablet = try Grid(named: "default", in: tablet).syncConflicts()
        #expect(onPhone == onTablet && onPhone.count == 1)
        let conflict = try #require(onPhone.first)
        let (tabletID, phoneID) = try (Grid(named: "default", in: tablet).syncReplicaID(), Grid(named: "default", in: phone).syncReplicaID())
        #expect(conflict.field == .size && conflict.item == GridIndexPath(item: 2) && conflict.kept == "small"
                && conflict.overwritten == "big" && conflict.keptBy == tabletID && conflict.overwrittenBy == phoneID)
        #expect(try phone.content().sections[0][2] == .small)
        // A change made after seeing both settles it, on every side once synced.
        try Grid(named: "default", in: phone).setSize(.middle, at: GridIndexPath(item: 2))
        _ = try phone.sync(with: tablet)
        #expect(try Grid(named: "default", in: tablet).syncConflicts().isEmpty)
        #expect(try tablet.content().sections[0][2] == .middle)
    }

    @Test("a copy of a database file takes a replica id of its own, and its changes are not taken for the original's")
    func copiedFile() throws {
        let original = try database("original.sqlite")
        try Grid(named: "default", in: original).toggle(at: GridIndexPath(item: 1))
        let id = try original.replicaID()
        _ = try original.checkpoint()
        try FileManager.default.copyItem(atPath: directory.file("original.sqlite"), toPath: directory.file("copy.sqlite"))
        let copy = try database("copy.sqlite")
        try Grid(named: "default", in: copy).toggle(at: GridIndexPath(item: 5))
        try Grid(named: "default", in: original).toggle(at: GridIndexPath(item: 7))
        _ = try copy.sync(with: original)
        #expect(try copy.replicaID() != id && original.replicaID() == id)
        let merged = try original.content()
        #expect(merged == (try copy.content()) && merged.sections[0][1] == .middle && merged.sections[0][5] == .middle
                && merged.sections[0][7] == .middle)
    }

    @Test("a move conflict shows positions a person can find: where the tile is, and where the other move would have put it")
    func moveConflictPositions() throws {
        let phone = try database("phone.sqlite"), tablet = try database("tablet.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 2))
        _ = try phone.sync(with: tablet)
        try Grid(named: "default", in: tablet).update { try $0.moveItem(from: GridIndexPath(item: 2), to: GridIndexPath(item: 5)) }
        let madeAt = Int64(Date().timeIntervalSince1970 * 1000)
        while Int64(Date().timeIntervalSince1970 * 1000) <= madeAt {}
        try Grid(named: "default", in: phone).update { try $0.moveItem(from: GridIndexPath(item: 2), to: GridIndexPath(item: 9)) }
        _ = try phone.sync(with: tablet)
        let conflicts = try Grid(named: "default", in: phone).syncConflicts().filter { $0.field == .place }
        #expect(conflicts.count == 1)
        let conflict = try #require(conflicts.first)
        #expect(conflict.item == GridIndexPath(item: 9) && conflict.kept == "item 9 of section 0" && conflict.overwritten == "item 5 of section 0",
                "\(conflict)")
        #expect(try phone.content().sections[0][9] == .middle && tablet.content() == phone.content())
    }

    @Test("grids that began apart merge change by change at their first sync: tiles one deleted are deleted on both, each side's sizes kept")
    func firstSyncReplaysChanges() throws {
        let phone = try database("phone.sqlite"), tablet = try database("tablet.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        try Grid(named: "default", in: tablet).setSize(.big, at: GridIndexPath(item: 9))
        try Grid(named: "default", in: tablet).update {
            try $0.deleteItem(at: GridIndexPath(item: 4))
            try $0.deleteItem(at: GridIndexPath(item: 6))
        }
        let results = try phone.sync(with: tablet)
        #expect(results.first?.conflicts == 0)
        let merged = try phone.content()
        #expect(merged == (try tablet.content()) && merged.sections[0].count == 10, "\(merged.sections[0])")
        // The phone's tile 1 is middle; the tablet's tile 9 (now 7, after the two deletions) big.
        #expect(merged.sections[0][1] == .middle && merged.sections[0][7] == .big && merged.sections[0].compactMap { $0 }.count == 2)
    }

    @Test("a file copy, or a backup, meets its original: a tile inserted before the copy, not yet synced, is one tile everywhere")
    func copyMeetsOriginal() throws {
        let original = try database("original.sqlite"), hub = try database("hub.sqlite")
        try Grid(named: "default", in: original).toggle(at: GridIndexPath(item: 1))
        _ = try original.sync(with: hub)
        try Grid(named: "default", in: original).update { try $0.insertItem(at: GridIndexPath(item: 0), size: .big) }
        try Grid(named: "default", in: original).update { try $0.moveItem(from: GridIndexPath(item: 3), to: GridIndexPath(item: 9)) }
        _ = try original.checkpoint()
        try FileManager.default.copyItem(atPath: directory.file("original.sqlite"), toPath: directory.file("copy.sqlite"))
        let copy = try database("copy.sqlite")
        try Grid(named: "default", in: copy).toggle(at: GridIndexPath(item: 5))
        _ = try original.sync(with: hub)
        _ = try copy.sync(with: hub)
        _ = try original.sync(with: hub)
        let merged = try hub.content()
        #expect(merged.sections[0].count == 13, "\(merged.sections[0])")
        #expect(merged.sections[0][0] == .big && merged.sections[0][5] == .middle)
        #expect(try original.content() == merged && copy.content() == merged)
    }

    @Test("a synced grid copied to another database with Grid.copy syncs item by item with the original's peers")
    func copiedGridKeepsIdentity() throws {
        let phone = try database("phone.sqlite"), hub = try database("hub.sqlite"), laptop = try database("laptop.sqlite")
        try Grid(named: "default", in: phone).update { try $0.insertItem(at: GridIndexPath(item: 0), size: .big, key: "mail") }
        try Grid(named: "default", in: phone).update { try $0.insertItem(at: GridIndexPath(item: 2), size: .middle) }
        _ = try phone.sync(with: hub)
        try Grid.copy(from: phone, to: laptop)
        // On the hub, a tile moves to the front; on the laptop, the copy, the tile at 5 is made big.
        try Grid(named: "default", in: hub).update { try $0.moveItem(from: GridIndexPath(item: 7), to: GridIndexPath(item: 0)) }
        try Grid(named: "default", in: laptop).setSize(.big, at: GridIndexPath(item: 5))
        _ = try laptop.sync(with: hub)
        let merged = try hub.content(), onLaptop = try laptop.content()
        #expect(merged.sections[0].count == 14 && merged == onLaptop, "\(merged.sections[0])")
        // The tile made big on the laptop is the one that was at 5, now at 6 after the move.
        #expect(merged.sections[0][6] == .big && merged.sections[0].filter { $0 == .big }.count == 2)
        #expect(try Grid(named: "default", in: laptop).syncReplicaID() != Grid(named: "default", in: phone).syncReplicaID())
    }

    @Test("a grid dropped and made again syncs its new content; a database restored from a backup syncs again")
    func recreatedAndRestored() throws {
        let phone = try database("phone.sqlite"), tablet = try database("tablet.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: tablet)
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 2))
        _ = try phone.sync(with: tablet)
        // init --force on a synced grid replaces its content as one change, which syncs: the tablet loses the tiles the phone lost.
        try Grid.create(named: "default", in: phone, content: GridContent(columns: 4, sections: [[.big] + Array(repeating: nil, count: 9)]),
                        replacing: true)
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 3))
        _ = try phone.sync(with: tablet)
        #expect(try phone.content() == tablet.content() && tablet.content().columns == 4 && tablet.content().sections[0][0] == .big)
        #expect(try tablet.content().sections[0].count == 10 && tablet.content().sections[0][3] == .middle)
        // Made again as a honeycomb: every replica takes it.
        try Grid.create(named: "honey", in: phone, content: GridContent(columns: 4, sections: [[nil, nil]]))
        _ = try phone.sync(with: tablet)
        var honeycomb = GridContent(columns: 4, sections: [Array(repeating: nil, count: 7)])
        honeycomb.honeycomb = try HoneycombConfiguration()
        try Grid.create(named: "honey", in: phone, content: honeycomb, replacing: true)
        _ = try phone.sync(with: tablet)
        #expect(try tablet.content(of: "honey") == phone.content(of: "honey") && tablet.content(of: "honey").honeycomb != nil
                && tablet.content(of: "honey").sections.flatMap { $0 }.count == 7)
        // A backup of the tablet's file, restored in place after the tablet synced changes it no longer has.
        let backup = try takeBackup(of: tablet, "tablet.sqlite")
        try Grid(named: "default", in: tablet).setSize(.middle, at: GridIndexPath(item: 5))
        _ = try tablet.sync(with: phone)
        let restored = try {
            try backup.write(to: URL(fileURLWithPath: directory.file("tablet.sqlite")))
            return try database("tablet.sqlite")
        }()
        try Grid(named: "default", in: restored).setSize(.big, at: GridIndexPath(item: 7))
        _ = try restored.sync(with: phone)
        let merged = try phone.content()
        #expect(try restored.content() == merged && merged.sections[0][5] == .middle && merged.sections[0][7] == .big)
        #expect(try restored.sync(with: phone).allSatisfy { $0.sent == 0 && $0.received == 0 })
    }

    /// The bytes of the database file `name` of `database`, as a backup of it takes them.
    func takeBackup(of database: GridDatabase, _ name: String) throws -> Data {
        _ = try database.checkpoint()
        return try Data(contentsOf: URL(fileURLWithPath: directory.file(name)))
    }

    /// Puts `backup` in place of the database file `name`: over the same file, or as a new file moved into place.
    func restore(_ backup: Data, as name: String, newFile: Bool) throws -> GridDatabase {
        let path = directory.file(name)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        if newFile {
            try backup.write(to: URL(fileURLWithPath: path + ".new"))
            #expect(rename(path + ".new", path) == 0)
        } else {
            try backup.write(to: URL(fileURLWithPath: path))
        }
        return try database(name)
    }

    @Test("a database restored in place whose lost change left by Grid.copy meets that copy first: the change comes back, on both")
    func restoredMeetsCopyFirst() throws {
        var phone = try database("phone.sqlite")
        let hub = try database("hub.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: hub)
        let backup = try takeBackup(of: phone, "phone.sqlite")
        try Grid(named: "default", in: phone).update { try $0.deleteItem(at: GridIndexPath(item: 4)) }
        let laptop = try database("laptop.sqlite")
        try Grid.copy(from: phone, to: laptop)
        try phone.close()
        phone = try restore(backup, as: "phone.sqlite", newFile: false)
        // The laptop never synced as itself: what its copied state knows shows the restore.
        _ = try phone.sync(with: laptop)
        #expect(try phone.content().sections[0].count == 11 && phone.content() == laptop.content())
        try Grid(named: "default", in: phone).setSize(.big, at: GridIndexPath(item: 7))
        _ = try phone.sync(with: hub)
        _ = try hub.sync(with: laptop)
        let merged = try hub.content()
        #expect(merged.sections[0].count == 11 && merged.sections[0][7] == .big, "\(merged.sections[0])")
        #expect(try phone.content() == merged && laptop.content() == merged)
        #expect(try Grid(named: "default", in: hub).syncConflicts().isEmpty)
    }

    @Test("a backup restored as a new file moved into place, twice, syncs as a copy: the change it lost comes back and none is claimed")
    func restoredTwiceAsNewFile() throws {
        var phone = try database("phone.sqlite")
        let hub = try database("hub.sqlite"), tablet = try database("tablet.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: hub)
        _ = try tablet.sync(with: hub)
        let backup = try takeBackup(of: phone, "phone.sqlite")
        // A tile inserted after the backup reaches the tablet only, in a copy of the file made then.
        try Grid(named: "default", in: phone).update { try $0.insertItem(at: GridIndexPath(item: 3), size: .big) }
        _ = try phone.checkpoint()
        try FileManager.default.copyItem(atPath: directory.file("phone.sqlite"), toPath: directory.file("old-phone.sqlite"))
        // Restored twice: the second new file may take the inode number the original had.
        for _ in 0..<2 {
            try phone.close()
            phone = try restore(backup, as: "phone.sqlite", newFile: true)
        }
        try Grid(named: "default", in: phone).setSize(.middle, at: GridIndexPath(item: 6))
        _ = try phone.sync(with: hub)
        _ = try database("old-phone.sqlite").sync(with: hub)
        _ = try phone.sync(with: hub)
        _ = try tablet.sync(with: hub)
        let merged = try hub.content()
        #expect(merged.sections[0].count == 13 && merged.sections[0][3] == .big, "\(merged.sections[0])")
        #expect(try phone.content() == merged && tablet.content() == merged)
    }

    @Test("a file's identity has its birth time; one an earlier gridstore recorded (device and inode) still names the file")
    func fileIdentityWithBirthTime() throws {
        let path = directory.file("phone.sqlite")
        var phone = try database("phone.sqlite")
        let hub = try database("hub.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: hub)
        let replica = try Grid(named: "default", in: phone).syncReplicaID()
        let parts = FileIdentity.replicaText(of: path).split(separator: ":")
        // A file system that records no birth time (NFS, ext3) gives device and inode alone.
        guard parts.count == 3 else { return }
        try phone.close()
        // The record an earlier gridstore wrote: no birth time, and no send mark on the file.
        try SQLiteConnection(path: path, mode: .readWrite)
            .executeScript("UPDATE replica SET file_identity = '\(parts.prefix(2).joined(separator: ":"))'")
        _ = SendMark.remove(from: path)
        phone = try database("phone.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 2))
        _ = try phone.sync(with: hub)
        #expect(try Grid(named: "default", in: phone).syncReplicaID() == replica)
        #expect(try hub.content() == phone.content())
        // The sync wrote the record again with the birth time.
        try phone.close()
        let recorded = try SQLiteConnection(path: path).fetchOne("SELECT file_identity FROM replica") { $0.string(at: 0) }
        #expect(recorded.map { String(StoredReplicaRow.split($0).storage) } == FileIdentity.replicaText(of: path))
        // With the mark of the send it made, which the file carries (where it can carry one).
        #expect(recorded.flatMap { StoredReplicaRow.split($0).mark.map(String.init) } == SendMark.token(of: path))
        // A record cut to the device alone, by hand, names no file: the database syncs as a copy.
        try SQLiteConnection(path: path, mode: .readWrite).executeScript("UPDATE replica SET file_identity = '\(parts[0])'")
        phone = try database("phone.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 3))
        _ = try phone.sync(with: hub)
        #expect(try Grid(named: "default", in: phone).syncReplicaID() != replica)
        #expect(try hub.content() == phone.content())
    }

    @Test("a device's changes not yet synced, copied to a new device with Grid.copy, then synced with it: one replica, no second write, no conflict")
    func originalSyncsWithItsCopy() throws {
        let phone = try database("phone.sqlite"), hub = try database("hub.sqlite"), laptop = try database("laptop.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: hub)
        let replica = try Grid(named: "default", in: phone).syncReplicaID()
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 3))
        try Grid.copy(from: phone, to: laptop)
        _ = try phone.sync(with: laptop)
        #expect(try Grid(named: "default", in: phone).syncReplicaID() == replica)
        // The laptop overwrites the tile the copy carried: no conflict, on any replica.
        try Grid(named: "default", in: laptop).toggle(at: GridIndexPath(item: 3))
        for database in [phone, hub] { _ = try laptop.sync(with: database) }
        _ = try phone.sync(with: hub)
        for database in [phone, hub, laptop] {
            #expect(try Grid(named: "default", in: database).syncConflicts().isEmpty)
            #expect(try database.content().sections[0][3] == .big && database.content() == hub.content())
        }
    }

    @Test("a bundle made for the cursor a database had before a backup was restored adds what it can, and a sync brings the rest")
    func bundleForCursorBeforeRestore() throws {
        var tablet = try database("tablet.sqlite")
        let hub = try database("hub.sqlite")
        try Grid(named: "default", in: tablet).toggle(at: GridIndexPath(item: 0))
        _ = try tablet.sync(with: hub)
        let backup = try takeBackup(of: tablet, "tablet.sqlite")
        // The hub inserts a tile and the tablet takes it; the hub then deletes it and resizes another.
        try Grid(named: "default", in: hub).update { try $0.insertItem(at: GridIndexPath(item: 2), size: .big) }
        _ = try tablet.sync(with: hub)
        let cursor = try Grid(named: "default", in: tablet).syncCursor()
        try Grid(named: "default", in: hub).update { try $0.deleteItem(at: GridIndexPath(item: 2)) }
        try Grid(named: "default", in: hub).setSize(.middle, at: GridIndexPath(item: 5))
        let bundle = try Grid(named: "default", in: hub).syncBundle(since: cursor).encoded()
        try tablet.close()
        tablet = try restore(backup, as: "tablet.sqlite", newFile: false)
        // The bundle deletes a tile the restored tablet never had: it takes the resize, and says
        // it left that tile out.
        let applied = try Grid(named: "default", in: tablet).applySyncBundle(bundle)
        #expect(applied.leftOut == 1 && applied.received >= 1)
        #expect(try tablet.content().sections[0][5] == .middle)
        _ = try tablet.sync(with: hub)
        #expect(try tablet.content() == hub.content() && hub.content().sections[0].count == 12)
    }

    @Test("an import that moves a keyed tile to another section moves it, keeping a resize another replica made meanwhile")
    func importMovesKeyedTile() throws {
        let phone = try database("phone.sqlite"), tablet = try database("tablet.sqlite")
        var before = GridContent(columns: 4, sections: [[nil, nil], [nil]])
        before.keys = [[], ["mail"]]
        try Grid.create(named: "default", in: phone, content: before)
        _ = try phone.sync(with: tablet)
        try Grid(named: "default", in: tablet).update { try $0.setSize(.big, forKey: "mail") }
        var after = GridContent(columns: 4, sections: [[nil, nil, nil], []])
        after.keys = [["mail", nil, nil], []]
        try Grid(named: "default", in: phone).replaceContent(after)
        _ = try phone.sync(with: tablet)
        _ = try tablet.sync(with: phone)
        let merged = try phone.content()
        #expect(try tablet.content() == merged)
        #expect(merged.sections == [[.big, nil, nil], []] && merged.keys == [["mail", nil, nil], []], "\(merged)")
    }

    @Test("a dry run says what would move and leaves both files exactly as they were")
    func dryRun() throws {
        let phone = try database("phone.sqlite"), tablet = try database("tablet.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 3))
        try Grid(named: "default", in: tablet).toggle(at: GridIndexPath(item: 4))
        _ = try phone.checkpoint()
        _ = try tablet.checkpoint()
        let before = try [directory.file("phone.sqlite"), directory.file("tablet.sqlite")].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let results = try phone.sync(with: tablet, dryRun: true)
        #expect(results.first?.sent ?? 0 > 0 && results.first?.received ?? 0 > 0)
        #expect(results.first?.revision.before == 1 && results.first?.revision.after == 2)
        _ = try phone.checkpoint()
        _ = try tablet.checkpoint()
        let after = try [directory.file("phone.sqlite"), directory.file("tablet.sqlite")].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(before == after)
    }

    @Test("a grid that cannot sync is refused on its own: syncEach says how each ended, sync throws its refusal after the others synced")
    func oneGridNeverBlocksAnother() throws {
        let phone = try database("phone.sqlite"), tablet = try database("tablet.sqlite")
        for name in ["alpha", "beta", "gamma"] { try Grid(named: name, in: phone).toggle(at: GridIndexPath(item: 1)) }
        _ = try phone.sync(with: tablet)
        for name in ["alpha", "beta", "gamma"] { try Grid(named: name, in: phone).toggle(at: GridIndexPath(item: 2)) }
        try SQLiteConnection(path: directory.file("phone.sqlite")).execute(
            "UPDATE sync_registers SET register = 'garbage' WHERE grid_id = (SELECT id FROM grids WHERE name = 'beta')")
        let outcomes = try phone.syncEach(with: tablet)
        #expect(outcomes.map(\.grid) == ["alpha", "beta", "gamma"])
        guard case .refused(_, .corrupted(let reason)) = outcomes[1] else { Issue.record("\(outcomes[1])"); return }
        #expect(reason.contains("grid 'beta' has a sync state gridstore cannot read"))
        for name in ["alpha", "gamma"] { #expect(try tablet.content(of: name).sections[0][2] == .middle) }
        #expect(try tablet.content(of: "beta").sections[0][2] == nil)
        try Grid(named: "gamma", in: phone).toggle(at: GridIndexPath(item: 3))
        #expect(throws: GridError.corrupted(reason)) { try phone.sync(with: tablet) }
        #expect(try tablet.content(of: "gamma").sections[0][3] == .middle)
    }

    @Test("a bundle read from rows refuses a size row naming a replica number no replica has, or an entity that is no sync id, as a whole read does")
    func bundleOfEditedSizeRows() throws {
        for (edit, says) in [("register = substr(register, 1, length(register) - 3) || '99]]'", "replica"), ("entity = 'not an id 123456'", "sync id")] {
            let phone = try database("phone-\(says).sqlite"), tablet = try database("tablet-\(says).sqlite")
            let onPhone = try Grid(named: "default", in: phone)
            _ = try phone.sync(with: tablet)
            let cursor = try Grid(named: "default", in: tablet).syncCursor()
            try onPhone.update { try $0.setSizes([(GridIndexPath(item: 0), .big), (GridIndexPath(item: 1), .middle)]) }
            _ = try onPhone.syncBundle(since: cursor)
            try SQLiteConnection(path: directory.file("phone-\(says).sqlite")).execute("""
                UPDATE sync_registers SET \(edit) WHERE kind = 'item' AND field = 's'
                AND entity = (SELECT min(entity) FROM sync_registers WHERE kind = 'item' AND field = 's')
                """)
            #expect {
                _ = try onPhone.syncBundle(since: cursor)
            } throws: { error in
                guard case GridError.corrupted(let reason) = error else { return false }
                return reason.contains("grid 'default' has a sync state gridstore cannot read") && reason.contains(says)
            }
        }
    }

    @Test("an export reads a grid whose sections' counts were edited past their checks (negative, huge) as it reads any other")
    func exportWithEditedSectionCounts() throws {
        for (index, counts) in [("-9223372036854775808", "-4096"), ("9223372036854775807", "9223372036854775807"), ("0", "0")].enumerated() {
            let phone = try database("phone-\(index).sqlite"), tablet = try database("tablet-\(index).sqlite")
            let onPhone = try Grid(named: "default", in: phone)
            try onPhone.update { _ = try $0.appendSection(itemCount: 4) }
            _ = try phone.sync(with: tablet)
            let cursor = try Grid(named: "default", in: tablet).syncCursor()
            try onPhone.toggle(at: GridIndexPath(item: 0))
            let expected = try onPhone.syncBundle(since: cursor).encoded()
            try SQLiteConnection(path: directory.file("phone-\(index).sqlite")).execute("""
                PRAGMA ignore_check_constraints = 1;
                UPDATE sections SET item_count = \(counts.0) WHERE section = 0;
                UPDATE sections SET item_count = \(counts.1) WHERE section = 1;
                """)
            #expect(try onPhone.syncBundle(since: cursor).encoded() == expected)
        }
    }

    @Test("registers written one after another keep each its own bytes: fields Swift takes for equal (é and e + ◌́) are two rows")
    func registersWrittenByTheirBytes() throws {
        let phone = try database("phone.sqlite"), tablet = try database("tablet.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: tablet)
        // What a copy writes of a source whose rows a hand edit gave such fields.
        try phone.storageWrite { transaction in
            let header = try #require(try transaction.header(named: "default")?.header())
            let row = try #require(try transaction.syncState(gridID: header.id))
            let registers = ["\u{E9}", "e\u{301}"].enumerated().map { index, field in
                StoredSyncRegister(kind: "item", entity: "000000000000000\(index)", field: field, register: "[]", version: row.version)
            }
            try transaction.writeSyncState(StoredSyncWrite(state: row, replacing: false, replicas: [], registers: registers, removed: [],
                                                           log: nil), gridID: header.id)
        }
        let fields = try SQLiteConnection(path: directory.file("phone.sqlite")).fetchAll(
            "SELECT hex(field) FROM sync_registers WHERE entity LIKE '000000000000000_' ORDER BY entity", []) { $0.string(at: 0) }
        #expect(fields == ["C3A9", "65CC81"])
    }

    @Test("an export reads a register up to a NUL a hand edit put in it, as every other read of registers does")
    func exportOfRegisterWithNUL() throws {
        let phone = try database("phone.sqlite"), tablet = try database("tablet.sqlite")
        let onPhone = try Grid(named: "default", in: phone)
        _ = try phone.sync(with: tablet)
        let cursor = try Grid(named: "default", in: tablet).syncCursor()
        try onPhone.update { try $0.setSizes([(GridIndexPath(item: 0), .big), (GridIndexPath(item: 1), .middle)]) }
        let expected = try onPhone.syncBundle(since: cursor).encoded()
        try SQLiteConnection(path: directory.file("phone.sqlite")).execute(
            "UPDATE sync_registers SET register = register || CAST(X'00' AS TEXT) || 'garbage' WHERE kind = 'item'")
        #expect(try onPhone.syncBundle(since: cursor).encoded() == expected)
    }

    @Test("a bundle since a cursor brings a peer up to date; applying it again, or an older one after, changes nothing")
    func bundles() throws {
        let phone = try database("phone.sqlite"), tablet = try database("tablet.sqlite")
        let onPhone = try Grid(named: "default", in: phone), onTablet = try Grid(named: "default", in: tablet)
        try onPhone.toggle(at: GridIndexPath(item: 0))
        let first = try onPhone.syncBundle(since: onTablet.syncCursor()).encoded()
        try onPhone.update { try $0.moveItem(from: GridIndexPath(item: 0), to: GridIndexPath(item: 5)) }
        let second = try onPhone.syncBundle(since: onTablet.syncCursor()).encoded()
        #expect(SyncCursor(try onTablet.syncCursor().description) == (try onTablet.syncCursor()))
        try onTablet.applySyncBundle(second)
        let revision = try onTablet.currentRevision()
        try onTablet.applySyncBundle(second)
        try onTablet.applySyncBundle(first)
        #expect(try onTablet.currentRevision() == revision)
        #expect(try tablet.content() == phone.content())
        #expect(try tablet.content().sections[0][5] == .middle)
    }

    @Test("an app syncs from its repositories: a cursor as text and back, a bundle as Data, a never-synced grid's cursor is 'none'")
    func repositories() throws {
        let phone = try DatabaseGridSizeRepository(suiteName: "home", database: database("phone.sqlite"))
        let tablet = try DatabaseGridSizeRepository(suiteName: "home", database: database("tablet.sqlite"))
        try phone.set(.big, at: GridIndexPath(item: 4))
        #expect(try tablet.syncCursor() == .empty && tablet.syncCursor().description == "none")
        let text = try tablet.syncCursor().description
        let bundle = Data(try phone.syncBundle(since: SyncCursor(parsing: text)).encoded())
        let result = try tablet.applySyncBundle(bundle)
        let size = try tablet.size(at: GridIndexPath(item: 4))
        #expect(result.received > 0 && size == .big)
        let cursor = try tablet.syncCursor()
        let parsed = try SyncCursor(parsing: cursor.description)
        #expect(cursor != .empty && parsed == cursor && SyncCursor("") == .empty)
        let refusal = #expect(throws: SyncError.self) { try SyncCursor(parsing: "phone\nlast week") }
        #expect(refusal?.kind == .malformed && refusal?.message.hasPrefix("'phone?last week' is not a sync cursor") == true)
    }

    @Test("a hostile bundle is refused whole in one line, and nothing is applied", arguments: HostileBundle.allCases)
    func hostile(_ kind: HostileBundle) throws {
        let phone = try database("phone.sqlite"), tablet = try database("tablet.sqlite")
        let onPhone = try Grid(named: "default", in: phone), onTablet = try Grid(named: "default", in: tablet)
        try onPhone.toggle(at: GridIndexPath(item: 0))
        try onTablet.toggle(at: GridIndexPath(item: 1))
        try onTablet.applySyncBundle(try onPhone.syncBundle(since: .empty).encoded())
        try onPhone.toggle(at: GridIndexPath(item: 2))
        // The JSON of format 1, which is edited here as text; format 2 has tests of its own (SyncBundleFormatTests).
        let text = String(decoding: try onPhone.syncBundle(since: .empty).encodedAsJSON(), as: UTF8.self)
        let bytes = try kind.make(from: text, phone: #require(try onPhone.syncReplicaID()), tablet: #require(try onTablet.syncReplicaID()))
        let before = try tablet.content()
        let revision = try onTablet.currentRevision()
        let error = #expect(throws: GridError.self) { try onTablet.applySyncBundle(bytes) }
        guard case .sync(let refusal)? = error else {
            Issue.record("\(kind): \(String(describing: error))")
            return
        }
        #expect(refusal.kind == kind.expected, "\(kind): \(refusal.message)")
        #expect(!refusal.message.contains("\n") && refusal.message.count < 400, "\(kind): \(refusal.message)")
        #expect(try tablet.content() == before && onTablet.currentRevision() == revision)
    }

    enum HostileBundle: String, CaseIterable, Sendable {
        case notJSON, truncated, notABundle, newerFormat, unknownField, badReplicaID, replicaOutOfRange, twoWritesOfOneReplica,
             badSize, longOrderKey, unknownSection, duplicateItem, forgedOwnReplica, clockFarAhead, wrongGrid, tooManyReplicas

        var expected: SyncError.Kind {
            switch self {
            case .newerFormat: .newerFormat
            case .forgedOwnReplica: .forged
            case .clockFarAhead: .clockAhead
            case .wrongGrid: .wrongGrid
            case .tooManyReplicas: .tooLarge
            default: .malformed
            }
        }

        func make(from text: String, phone: ReplicaID, tablet: ReplicaID) throws -> [UInt8] {
            func replacing(_ old: String, _ new: String) throws -> [UInt8] {
                guard text.contains(old) else { throw CancellationError() }
                return Array(text.replacingOccurrences(of: old, with: new).utf8)
            }
            switch self {
            case .notJSON: return Array("not json".utf8)
            case .truncated: return Array(text.utf8.prefix(text.utf8.count / 2))
            case .notABundle: return Array(#"{"grid":"default","layout":"tiles","sections":[]}"#.utf8)
            case .newerFormat: return try replacing(#""gridstore-sync":1"#, #""gridstore-sync":3"#)
            case .unknownField: return try replacing(#""options":"#, #""extra":1,"options":"#)
            case .badReplicaID: return try replacing("\"\(phone)\"", "\"\(phone.description.uppercased())\"")
            case .replicaOutOfRange: return try replacing(#""cursor":["#, #""cursor":[[7,12],"#)
            case .twoWritesOfOneReplica:
                let write = try #require(text.firstRange(of: #/\["middle",\d+,\d\]/#))
                return try replacing(String(text[write]), String(text[write]) + "," + String(text[write]).replacingOccurrences(of: "middle", with: "big"))
            case .badSize: return try replacing(#""middle""#, #""huge""#)
            case .longOrderKey:
                let place = try #require(text.firstRange(of: #/"[0-9a-f]{16}","[0-9A-Za-z]+"/#))
                let key = String(text[place]).split(separator: ",")[1]
                return try replacing(String(text[place]), String(String(text[place]).dropLast(key.count)) + "\"" + String(repeating: "1", count: 97) + "\"")
            case .unknownSection:
                let place = try #require(text.firstRange(of: #/\["[0-9a-f]{16}","[0-9A-Za-z]+"\]/#))
                return try replacing(String(text[place]), #"["00000000000000ff","1"]"#)
            case .duplicateItem:
                let item = try #require(text.firstRange(of: #/"[0-9a-f]{16}":\{"p"/#))
                let entry = String(text[item])
                return try replacing(entry, String(entry.dropLast(4)) + #"{"a":[[true,5,0]]},"# + entry)
            case .forgedOwnReplica:
                // The phone's writes, stamped as the tablet's own.
                return Array(text.replacingOccurrences(of: phone.description, with: "swap").replacingOccurrences(of: tablet.description, with: phone.description)
                    .replacingOccurrences(of: "swap", with: tablet.description).utf8)
            case .clockFarAhead:
                let time = (Int64(Date().timeIntervalSince1970 * 1000) + 86_400_000) << 16
                let write = try #require(text.firstRange(of: #/\["middle",\d+,/#))
                return try replacing(String(text[write]), "[\"middle\",\(time),")
            case .wrongGrid: return try replacing(#""grid":"default""#, #""grid":"other""#)
            case .tooManyReplicas:
                let many = (0..<10_001).map { "\"" + String(repeating: "0", count: 27) + String(format: "%05x", $0) + "\"" }
                return try replacing(#""replicas":["#, #""replicas":["# + many.joined(separator: ",") + ",")
            }
        }
    }

    @Test("replicas editing at random and syncing in part, by bundles out of order, end with one grid (replica 0 on each backend)",
          arguments: Backend.all.flatMap { backend in (0..<(backend == .sqlite ? 6 : 3)).map { (backend, UInt64($0)) } })
    func randomReplicas(backend: Backend, seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed &+ 3_600)
        let comment: Comment = "seed \(seed) on \(backend) (replay with arguments: [(.\(backend), \(seed))])"
        let replicas = try (0..<Int.random(in: 3...4, using: &generator)).map { index in
            index == 0 ? try GridDatabase(location: try backend.database(in: directory, name: "replica0.sqlite"))
                       : try database("replica\(index).sqlite")
        }
        for replica in replicas { try Grid(named: "default", in: replica).update { try $0.setItemCount(6, inSection: 0) } }
        var bundles: [(to: Int, bytes: [UInt8])] = []
        let keys = ["mail", "maps", "news", "notes"]
        for _ in 0..<40 {
            let index = Int.random(in: 0..<replicas.count, using: &generator)
            let grid = try Grid(named: "default", in: replicas[index])
            let snapshot = try grid.snapshot()
            let items = snapshot.itemCounts.first ?? 0
            let path = GridIndexPath(item: Int.random(in: 0..<max(1, items), using: &generator))
            do {
                switch Int.random(in: 0..<12, using: &generator) {
                case 0, 1: try grid.toggle(at: path)
                case 2: try grid.update { try $0.insertItem(at: GridIndexPath(item: Int.random(in: 0...items, using: &generator)),
                                                            size: .big, key: Bool.random(using: &generator) ? keys.randomElement(using: &generator) : nil) }
                case 3: try grid.update { try $0.deleteItem(at: path) }
                case 4: try grid.update { try $0.moveItem(from: path, to: GridIndexPath(item: Int.random(in: 0..<max(1, items), using: &generator))) }
                case 5: try grid.update { try $0.setColumns([4, 6, 8].randomElement(using: &generator)!) }
                case 6: try grid.undo()
                case 7: try grid.redo()
                case 8, 9:
                    let other = Int.random(in: 0..<replicas.count, using: &generator)
                    if other != index { _ = try replicas[index].sync(with: replicas[other]) }
                case 10:
                    let other = Int.random(in: 0..<replicas.count, using: &generator)
                    let cursor = try Grid(named: "default", in: replicas[other]).syncCursor()
                    if other != index { bundles.append((other, try grid.syncBundle(since: cursor).encoded())) }
                default:
                    guard !bundles.isEmpty else { break }
                    let bundle = bundles.remove(at: Int.random(in: 0..<bundles.count, using: &generator))
                    try Grid(named: "default", in: replicas[bundle.to]).applySyncBundle(bundle.bytes)
                }
            } catch let error as GridError {
                switch error {
                case .itemOutOfRange, .duplicateKey, .nothingToUndo, .nothingToRedo, .customColumns: break
                default: Issue.record("\(error); \(comment)")
                }
            }
        }
        for _ in 0..<2 { for replica in replicas.dropFirst() { _ = try replica.sync(with: replicas[0]) } }
        let expected = try replicas[0].content()
        let conflicts = try Grid(named: "default", in: replicas[0]).syncConflicts()
        for (index, replica) in replicas.enumerated() {
            #expect(try replica.content() == expected, "replica \(index); \(comment)")
            #expect(try Grid(named: "default", in: replica).syncConflicts() == conflicts, "replica \(index)'s conflicts; \(comment)")
            let revision = try Grid(named: "default", in: replica).currentRevision()
            let again = try replica.sync(with: replicas[(index + 1) % replicas.count])
            #expect(again.allSatisfy { $0.sent == 0 && $0.received == 0 }, "a second sync moved changes; \(comment)")
            #expect(try Grid(named: "default", in: replica).currentRevision() == revision, "a second sync made a revision; \(comment)")
        }
    }
}
