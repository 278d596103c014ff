import Foundation
import GridLayout
import SeededRandom
import Testing
import TestSupport
@testable import GridStore
@testable import GridStoreSQLite

/// Changes to a grid that syncs are recorded for sync in their own transaction, by identity.
@Suite("Sync recorded with each change")
struct SyncRecordTests {
    let directory = TemporaryDirectory()

    /// What the stored sync state of `name` says, read whole, beside the grid.
    struct Stored {
        var revision: Int64
        var gridRevision: Int
        var conflicts: Int64
        var recounted: Int
        var content: GridContent
        var layoutContent: GridContent
        var itemIDs: [StoredSyncItemIDs]
        var layoutItemIDs: [StoredSyncItemIDs]
        var changedRows: Int
        /// Whether the latest version has an entry in sync_versions: a change of sizes read from its rows alone writes none.
        var versionLogged: Bool

        init(_ database: GridDatabase, _ name: String = "default") throws {
            (revision, gridRevision, conflicts, recounted, content, layoutContent, itemIDs, layoutItemIDs, changedRows, versionLogged) = try database.storageRead { transaction in
                let header = try #require(try transaction.header(named: name)?.header())
                let row = try #require(try transaction.syncState(gridID: header.id))
                let (state, layout, _) = try SyncSide.loadState(row, gridID: header.id, in: transaction, grid: name)
                let snapshot = try GridSnapshot.load(header, name: name, from: transaction)
                let expected = SyncSide.itemIDChunks(layout.itemIDs, gridID: header.id)
                let stored = try expected.map { chunk in
                    StoredSyncItemIDs(section: chunk.section, firstItem: chunk.firstItem,
                                      ids: try transaction.syncItemIDs(gridID: header.id, section: chunk.section, firstItem: chunk.firstItem) ?? "")
                }
                let changed = try transaction.syncRegisters(gridID: header.id, changedAfter: row.version - 1, limit: 100).registers
                    .filter { $0.kind != "replica" }.count
                return (row.revision, header.revision, row.conflicts, state.conflicts(in: layout).count, snapshot.content, layout.content,
                        stored, expected, changed, try transaction.syncVersionLog(gridID: header.id).first?.version == row.version)
            }
        }
    }

    /// A phone and a tablet that synced, changed item 2 each, and synced again: item 2 is in conflict.
    func syncedWithConflictOnItem2() throws -> (phone: GridDatabase, tablet: GridDatabase) {
        let phone = try GridDatabase(path: directory.file("phone.sqlite")), tablet = try GridDatabase(path: directory.file("tablet.sqlite"))
        try Grid(named: "default", in: phone).setSize(.big, at: GridIndexPath(item: 2))
        _ = try phone.sync(with: tablet)
        try Grid(named: "default", in: phone).setSize(.middle, at: GridIndexPath(item: 2))
        try Grid(named: "default", in: tablet).setSize(.small, at: GridIndexPath(item: 2))
        _ = try phone.sync(with: tablet)
        return (phone, tablet)
    }

    @Test("a toggle of a synced grid writes its one size register, the state of the new revision, and what a whole read finds")
    func toggleWritesOneRegister() throws {
        // A conflict on item 2, then a toggle of it here: the write replaces the conflict.
        let (phone, tablet) = try syncedWithConflictOnItem2()
        #expect(try Stored(phone).conflicts == 1)
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 2))
        let stored = try Stored(phone)
        #expect(!stored.versionLogged, "the toggle read the whole state")
        #expect(stored.revision == Int64(stored.gridRevision) && stored.changedRows == 1 && stored.conflicts == 0 && stored.recounted == 0)
        #expect(stored.content == stored.layoutContent && stored.itemIDs == stored.layoutItemIDs)
        // Nothing of the phone's is recovered from its history at the sync: the tablet takes the toggle.
        let result = try phone.sync(with: tablet)
        #expect(result.first?.sent == 1 && result.first?.received == 0)
        #expect(try Grid(named: "default", in: tablet).storedSnapshot().content == Grid(named: "default", in: phone).storedSnapshot().content)
    }

    @Test("an item read from its rows alone is the item of the whole state; a row of another item, or one it cannot read, is refused")
    func itemReadFromItsRows() throws {
        let (phone, _) = try syncedWithConflictOnItem2()
        try phone.storageRead { transaction in
            let header = try #require(try transaction.header(named: "default")?.header())
            let row = try #require(try transaction.syncState(gridID: header.id))
            let (state, layout, numbers) = try SyncSide.loadState(row, gridID: header.id, in: transaction, grid: "default")
            #expect(try transaction.syncReplicas(gridID: header.id, limit: 10).map(\.id) == numbers.ids.map(\.description))
            let ids = layout.itemIDs[0]
            #expect(state.items[ids[2]]?.size.heads.count == 2, "item 2 is in conflict")
            for id in ids {
                let rows = try transaction.syncRegisters(gridID: header.id, kind: "item", entity: id.description)
                // The conflicted item too: its size register holds both writes.
                #expect(try ReplicatedGrid.item(id, rows: rows, replicas: numbers, grid: "default") == state.items[id])
            }
            let first = try transaction.syncRegisters(gridID: header.id, kind: "item", entity: ids[0].description)
            #expect(throws: GridError.self) { try ReplicatedGrid.item(ids[1], rows: first, replicas: numbers, grid: "default") }
            var damaged = first
            damaged[0].register.removeLast()
            #expect(throws: GridError.self) { try ReplicatedGrid.item(ids[0], rows: damaged, replicas: numbers, grid: "default") }
        }
    }

    @Test("a file restored in place from a backup (the same file) that changed since gets back the changes it lost, and its own reach the peer",
          arguments: [false, true])
    func restoredInPlace(byBundle: Bool) throws {
        let phonePath = directory.file("phone.sqlite"), tabletPath = directory.file("tablet.sqlite")
        let phone = try GridDatabase(path: phonePath)
        var backup = Data()
        do {
            let tablet = try GridDatabase(path: tabletPath)
            try Grid(named: "default", in: tablet).toggle(at: GridIndexPath(item: 1))
            _ = try tablet.sync(with: phone)
            _ = try tablet.checkpoint()
            backup = try Data(contentsOf: URL(fileURLWithPath: tabletPath))
            // Changes that reach the phone, then are lost with the restore.
            try Grid(named: "default", in: tablet).setSize(.middle, at: GridIndexPath(item: 5))
            try Grid(named: "default", in: tablet).update { try $0.insertItem(at: GridIndexPath(item: 0), size: .big, key: "mail") }
            _ = try tablet.sync(with: phone)
            _ = try tablet.checkpoint()
            try tablet.close()
        }
        // Restored as a person restores a file: its bytes written into the same file (the same inode), the log gone.
        let inode = try FileManager.default.attributesOfItem(atPath: tabletPath)[.systemFileNumber] as? Int
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: tabletPath + suffix) }
        let handle = try #require(FileHandle(forWritingAtPath: tabletPath))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: backup)
        try handle.close()
        #expect(try FileManager.default.attributesOfItem(atPath: tabletPath)[.systemFileNumber] as? Int == inode)
        let restored = try GridDatabase(path: tabletPath)
        try Grid(named: "default", in: restored).setSize(.big, at: GridIndexPath(item: 7))
        if byBundle {
            // The phone exports for the restored tablet's cursor, and the tablet for the phone's.
            let toTablet = try Grid(named: "default", in: phone).syncBundle(since: Grid(named: "default", in: restored).syncCursor())
            let toPhone = try Grid(named: "default", in: restored).syncBundle(since: Grid(named: "default", in: phone).syncCursor())
            _ = try Grid(named: "default", in: phone).applySyncBundle(toPhone.encoded())
            _ = try Grid(named: "default", in: restored).applySyncBundle(toTablet.encoded())
            _ = try restored.sync(with: phone)
        } else {
            _ = try restored.sync(with: phone)
        }
        let merged = try Grid(named: "default", in: phone).storedSnapshot().content
        #expect(try Grid(named: "default", in: restored).storedSnapshot().content == merged)
        #expect(merged.sections[0][6] == .middle && merged.sections[0][8] == .big && merged.keys[0].first == "mail", "\(merged)")
        #expect(merged.sections[0].count == 13 && merged.sections[0][2] == .middle)
        #expect(try restored.sync(with: phone).allSatisfy { $0.sent == 0 && $0.received == 0 })
    }

    @Test("after every change of synced grids at random, each state is of its grid's revision, its counts and item ids what a whole read finds, and syncs converge",
          arguments: Backend.all.flatMap { backend in (0..<(backend == .sqlite ? 6 : 2)).map { (backend, UInt64($0)) } })
    func randomChanges(backend: Backend, seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed &+ 7_700)
        let comment: Comment = "seed \(seed) on \(backend) (replay with arguments: [(.\(backend), \(seed))])"
        let replicas = try [GridDatabase(location: try backend.database(in: directory, name: "hub.sqlite")),
                            GridDatabase(path: directory.file("device.sqlite"))]
        try Grid(named: "default", in: replicas[0]).update { try $0.setItemCount(300, inSection: 0) }
        _ = try replicas[0].sync(with: replicas[1])
        for _ in 0..<40 {
            let index = Int.random(in: 0...1, using: &generator)
            let grid = try Grid(named: "default", in: replicas[index])
            let counts = try grid.snapshot().itemCounts
            let section = Int.random(in: 0..<counts.count, using: &generator)
            let items = counts[section]
            func anyItem() -> GridIndexPath { GridIndexPath(item: Int.random(in: 0..<max(1, items), using: &generator), section: section) }
            var operation = Int.random(in: 0..<10, using: &generator)
            if items < 2 && operation != 7 && operation != 9 { operation = 4 }
            switch operation {
            case 0, 1, 2: try grid.toggle(at: anyItem())
            case 3:
                try grid.update { editor in
                    for _ in 0..<Int.random(in: 2...5, using: &generator) { try editor.setSize(TileSize.allCases.randomElement(using: &generator), at: anyItem()) }
                }
            case 4: try grid.update { try $0.insertItem(at: GridIndexPath(item: Int.random(in: 0...items, using: &generator), section: section), size: .big) }
            case 5: try grid.update { try $0.deleteItem(at: anyItem()) }
            case 6: try grid.update { try $0.moveItem(from: anyItem(), to: anyItem()) }
            case 7 where counts.count < 3: try grid.update { _ = try $0.appendSection(itemCount: 3) }
            case 8: _ = try? grid.undo()
            default: _ = try replicas[0].sync(with: replicas[1])
            }
            let stored = try Stored(replicas[index])
            #expect(stored.revision == Int64(stored.gridRevision), comment)
            #expect(stored.content == stored.layoutContent && stored.conflicts == Int64(stored.recounted), comment)
            #expect(stored.itemIDs == stored.layoutItemIDs, comment)
        }
        _ = try replicas[0].sync(with: replicas[1])
        #expect(try Grid(named: "default", in: replicas[0]).storedSnapshot().content
                == Grid(named: "default", in: replicas[1]).storedSnapshot().content, comment)
    }
}
