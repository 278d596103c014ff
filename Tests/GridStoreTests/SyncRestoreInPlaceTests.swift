import CSQLite
import Foundation
import GridLayout
import GridStoreAudit
import Testing
@testable import GridStore
@testable import GridStoreSQLite

/// A backup restored over a database file that sent changes since (issue #43, item 5): the file
/// keeps the mark of its latest send (``SendMark``), so the database the backup brings back
/// syncs as a copy, whoever it meets first, and never as the replica whose changes it lost.
@Suite("Sync of a database restored in place")
struct SyncRestoreInPlaceTests {
    let directory = TemporaryDirectory()

    func database(_ name: String) throws -> GridDatabase { try GridDatabase(path: directory.file(name)) }

    /// The bytes of the database file `name`, as a backup takes them.
    func backup(of database: GridDatabase, _ name: String) throws -> Data {
        _ = try database.checkpoint()
        return try Data(contentsOf: URL(fileURLWithPath: directory.file(name)))
    }

    /// Writes `backup` over the file `name` itself, as `cp backup name` does: the same inode,
    /// with the attributes the file has.
    func restoreInPlace(_ backup: Data, _ name: String) throws -> GridDatabase {
        let path = directory.file(name)
        let inode = FileIdentity.of(path)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try overwriteFile(at: path, with: backup)
        #expect(FileIdentity.of(path) == inode)
        return try database(name)
    }

    /// Whether the file system here carries extended attributes (ext4, xfs, btrfs do).
    func carriesMarks(_ name: String) -> Bool { SendMark.token(of: directory.file(name)) != nil }

    /// A phone that toggled a tile and synced it with a hub, and the phone's file; `nil` where
    /// the file system carries no mark.
    func syncedPhone() throws -> (phone: GridDatabase, hub: GridDatabase, path: String)? {
        let phone = try database("phone.sqlite"), hub = try database("hub.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 0))
        _ = try phone.sync(with: hub)
        guard carriesMarks("phone.sqlite") else { return nil }
        return (phone, hub, directory.file("phone.sqlite"))
    }

    @Test("restored in place, a database that first syncs with a new device takes a replica id of its own; its lost change comes back everywhere",
          arguments: [false, true])
    func firstMeetsNewDevice(byBundle: Bool) throws {
        var phone = try database("phone.sqlite")
        let hub = try database("hub.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: hub)
        let saved = try backup(of: phone, "phone.sqlite")
        let replica = try Grid(named: "default", in: phone).syncReplicaID()
        // A change that reaches the hub, then lost on the phone by the restore.
        try Grid(named: "default", in: phone).setSize(.big, at: GridIndexPath(item: 5))
        _ = try phone.sync(with: hub)
        guard carriesMarks("phone.sqlite") else { return }
        try phone.close()
        phone = try restoreInPlace(saved, "phone.sqlite")
        #expect(try phone.content().sections[0][5] == nil)
        // The restored phone changes, then meets a device that never met the hub: before the
        // mark, it sent its change as the replica whose change it lost, and the hub's copy of
        // that change never reached the new device.
        try Grid(named: "default", in: phone).setSize(.middle, at: GridIndexPath(item: 7))
        let tablet = try database("tablet.sqlite")
        if byBundle {
            let bundle = try Grid(named: "default", in: phone).syncBundle(since: .empty).encoded()
            _ = try Grid(named: "default", in: tablet).applySyncBundle(bundle)
        } else {
            _ = try tablet.sync(with: phone)
        }
        #expect(try Grid(named: "default", in: phone).syncReplicaID() != replica)
        _ = try tablet.sync(with: hub)
        _ = try phone.sync(with: hub)
        _ = try tablet.sync(with: hub)
        let merged = try hub.content()
        #expect(merged.sections[0][5] == .big && merged.sections[0][7] == .middle && merged.sections[0][1] == .middle,
                "\(merged.sections[0])")
        #expect(try phone.content() == merged && tablet.content() == merged)
        for database in [phone, hub, tablet] { #expect(try Grid(named: "default", in: database).syncConflicts().isEmpty) }
        #expect(try tablet.sync(with: phone).allSatisfy { $0.sent == 0 && $0.received == 0 })
    }

    @Test("restored in place, a database that first pulls a bundle holding its lost change takes it: no refusal, nothing to settle by hand")
    func firstPullsItsLostChange() throws {
        var phone = try database("phone.sqlite")
        let hub = try database("hub.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: hub)
        let saved = try backup(of: phone, "phone.sqlite")
        try Grid(named: "default", in: phone).setSize(.big, at: GridIndexPath(item: 5))
        _ = try phone.sync(with: hub)
        guard carriesMarks("phone.sqlite") else { return }
        try phone.close()
        phone = try restoreInPlace(saved, "phone.sqlite")
        try Grid(named: "default", in: phone).setSize(.middle, at: GridIndexPath(item: 7))
        // The hub's bundle for the restored phone's cursor holds the change the restore lost,
        // made as the replica the phone was: before the mark, the phone refused it as forged.
        let bundle = try Grid(named: "default", in: hub).syncBundle(since: Grid(named: "default", in: phone).syncCursor())
        _ = try Grid(named: "default", in: phone).applySyncBundle(bundle.encoded())
        #expect(try phone.content().sections[0][5] == .big)
        _ = try phone.sync(with: hub)
        let merged = try hub.content()
        #expect(merged.sections[0][5] == .big && merged.sections[0][7] == .middle, "\(merged.sections[0])")
        #expect(try phone.content() == merged)
        for database in [phone, hub] { #expect(try Grid(named: "default", in: database).syncConflicts().isEmpty) }
    }

    @Test("a backup restored in place before the database sent anything since stays the database: nothing was lost that left it")
    func restoredBeforeAnySend() throws {
        var phone = try database("phone.sqlite")
        let hub = try database("hub.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: hub)
        let replica = try Grid(named: "default", in: phone).syncReplicaID()
        let saved = try backup(of: phone, "phone.sqlite")
        // Changes made after the backup and never sent are what the restore takes back.
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 2))
        try phone.close()
        phone = try restoreInPlace(saved, "phone.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 3))
        _ = try phone.sync(with: hub)
        #expect(try Grid(named: "default", in: phone).syncReplicaID() == replica)
        #expect(try hub.content() == phone.content() && hub.content().sections[0][2] == nil && hub.content().sections[0][3] == .middle)
    }

    @Test("many sends, from two handles of one file in turn, keep the database's replica id")
    func sendsKeepTheReplica() throws {
        let phone = try database("phone.sqlite"), again = try database("phone.sqlite")
        let hub = try database("hub.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 0))
        _ = try phone.sync(with: hub)
        let replica = try Grid(named: "default", in: phone).syncReplicaID()
        for round in 0..<6 {
            let handle = round.isMultiple(of: 2) ? phone : again
            try Grid(named: "default", in: handle).toggle(at: GridIndexPath(item: round + 1))
            if round == 3 {
                _ = try Grid(named: "default", in: handle).syncBundle(since: .empty)
            } else {
                _ = try handle.sync(with: hub)
            }
        }
        #expect(try Grid(named: "default", in: phone).syncReplicaID() == replica)
        #expect(try Grid(named: "default", in: again).syncReplicaID() == replica)
        _ = try phone.sync(with: hub)
        #expect(try hub.content() == phone.content())
        guard carriesMarks("phone.sqlite") else { return }
        // The token the database recorded with its latest send.
        let token = try #require(SendMark.token(of: directory.file("phone.sqlite")))
        #expect(try recordedIdentity(of: phone).hasSuffix("#" + token))
    }

    /// The identity the database `database` records with its replica id.
    func recordedIdentity(of database: GridDatabase) throws -> String {
        try #require(try database.sqlite?.readConnection { connection in
            try connection.fetchOne("SELECT file_identity FROM replica") { $0.string(at: 0) }
        })
    }

    @Test("a send that does not commit leaves the file and its mark as they were: the database syncs as itself")
    func sendThatRollsBack() throws {
        guard let (phone, hub, path) = try syncedPhone() else { return }
        let before = SendMark.token(of: path), recorded = try recordedIdentity(of: phone)
        let storage = try #require(phone.sqlite)
        struct Abandoned: Error {}
        #expect(throws: Abandoned.self) {
            try storage.write { transaction in
                try transaction.recordSend()
                // The transaction sees the send it records as the file's mark.
                #expect(try StoredReplicaRow.split(transaction.storageIdentity()).mark != before.map { $0[...] })
                throw Abandoned()
            }
        }
        #expect(SendMark.token(of: path) == before)
        #expect(try recordedIdentity(of: phone) == recorded)
        let replica = try Grid(named: "default", in: phone).syncReplicaID()
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: hub)
        #expect(try Grid(named: "default", in: phone).syncReplicaID() == replica)
        #expect(try hub.content() == phone.content())
    }

    @Test("a send whose commit fails after the file took its token (a crash between the two) leaves a database that syncs as a copy: nothing lost")
    func markedButNotCommitted() throws {
        guard let (phone, hub, path) = try syncedPhone() else { return }
        let replica = try Grid(named: "default", in: phone).syncReplicaID()
        // What such a crash leaves: the file carries a token the database never recorded.
        try Grid(named: "default", in: phone).setSize(.big, at: GridIndexPath(item: 1))
        #expect(SendMark.write(ReplicaID.random().description, to: path))
        _ = try phone.sync(with: hub)
        #expect(try Grid(named: "default", in: phone).syncReplicaID() != replica)
        #expect(try hub.content() == phone.content() && hub.content().sections[0][1] == .big)
        #expect(try phone.sync(with: hub).allSatisfy { $0.sent == 0 && $0.received == 0 })
    }

    @Test("a file with no room left among its attributes for the token loses its mark, and the database records none: never a stale token")
    func noRoomForTheToken() throws {
        guard let (phone, hub, path) = try syncedPhone() else { return }
        // Another program's attributes take the room the file system gives a file's attributes:
        // the mark removed first, then filled with the largest value that still fits.
        #expect(SendMark.remove(from: path))
        for size in stride(from: 4_096, through: 8, by: -4) {
            let value = String(repeating: "x", count: size)
            if value.withCString({ csqlite_set_file_attribute(path, "user.filler", $0, UInt(size)) }) == 0 { break }
        }
        for (index, name) in ["user.filler2", "user.filler3"].enumerated() {
            for size in stride(from: 256, through: 4, by: -4) {
                let value = String(repeating: "y", count: size + index)
                if value.withCString({ csqlite_set_file_attribute(path, name, $0, UInt(value.utf8.count)) }) == 0 { break }
            }
        }
        let replica = try Grid(named: "default", in: phone).syncReplicaID()
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: hub)
        #expect(try hub.content() == phone.content())
        #expect(try Grid(named: "default", in: phone).syncReplicaID() == replica)
        // The mark and the record agree, whether the token found room or not.
        let mark = StoredReplicaRow.split(try recordedIdentity(of: phone)).mark.map(String.init)
        #expect(mark == SendMark.token(of: path))
    }

    @Test("marks written by hand (too long, not tokens, empty) are taken for none: the database syncs as itself",
          arguments: ["", "x", "-", "-,-,-", String(repeating: "a", count: 32) + "," + String(repeating: "b", count: 32), String(repeating: "a", count: 32) + ",", String(repeating: "ab", count: 100),
                      String(repeating: "A", count: 32), "\u{0}"])
    func handWrittenMarks(_ value: String) throws {
        guard let (phone, hub, path) = try syncedPhone() else { return }
        let replica = try Grid(named: "default", in: phone).syncReplicaID()
        #expect(SendMark.write(value, to: path))
        if value != "-" { #expect(SendMark.token(of: path) == nil) }
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: hub)
        // "-" says the database recorded no send, which it did: it syncs as a copy, and loses nothing.
        #expect(try Grid(named: "default", in: phone).syncReplicaID() == replica || value == "-")
        #expect(try hub.content() == phone.content())
    }
}
