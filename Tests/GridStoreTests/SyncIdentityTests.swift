import GridLayout
import GridStoreAudit
import Testing
import TestSupport
@testable import GridStore
@testable import GridStoreSQLite

/// A grid's sections and items keep their sync ids through a document exported and imported.
@Suite("Sync identity through documents")
struct SyncIdentityTests {
    let directory = TemporaryDirectory()

    @Test("a new device set up from the hub's exported document syncs as the same tiles: nothing doubled, every size on its tile, the hub's later changes kept",
          arguments: Backend.all)
    func deviceFromExport(backend: Backend) throws {
        let hub = try GridDatabase(location: try backend.database(in: directory, name: "hub.sqlite"))
        let phone = try GridDatabase(path: directory.file("phone.sqlite"))
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: hub)
        // Tiles inserted, moved and resized after the first sync: ids no position gives.
        try Grid(named: "default", in: phone).update { editor in
            try editor.insertItem(at: GridIndexPath(item: 0), size: .big)
            try editor.insertItem(at: GridIndexPath(item: 3), size: .middle, key: "mail")
            try editor.moveItem(from: GridIndexPath(item: 10), to: GridIndexPath(item: 2))
            _ = try editor.appendSection(itemCount: 2)
        }
        _ = try phone.sync(with: hub)
        let grid = try Grid(named: "default", in: hub)
        let document = GridDocument.encode(try grid.storedSnapshot(), syncIdentity: try grid.syncIdentity())
        #expect(document.contains("\"sync\":{\"id\":"))
        // The phone changes the grid after the export; the hub takes it.
        try Grid(named: "default", in: phone).setSize(.big, at: GridIndexPath(item: 5))
        _ = try phone.sync(with: hub)

        let tablet = try GridDatabase(path: directory.file("tablet.sqlite"))
        let decoded = try GridDocument.decode(document)
        #expect(decoded.syncIdentity != nil)
        try Grid(named: "default", in: tablet).importDocument(decoded)
        try Grid(named: "default", in: tablet).setSize(.middle, at: GridIndexPath(item: 7))
        let results = try tablet.sync(with: hub)
        let merged = try hub.content()
        #expect(try tablet.content() == merged)
        #expect(merged.sections.map(\.count) == [14, 2] && merged.sections[0][5] == .big && merged.sections[0][7] == .middle, "\(merged)")
        #expect(merged.keys[0].compactMap { $0 } == ["mail"])
        #expect(try results.first?.conflicts == 0 && Grid(named: "default", in: tablet).syncConflicts().isEmpty)
        _ = try phone.sync(with: hub)
        #expect(try phone.content() == merged)
        #expect(try tablet.sync(with: hub).allSatisfy { $0.sent == 0 && $0.received == 0 })
    }

    @Test("a document whose sync ids are partial, malformed, repeated or out of order is refused whole")
    func refusedIdentities() throws {
        let base = """
            {"grid":"default","type":"less","sections":[{"section":0,"sync":{"id":"00000000000000aa","order":"1"},"items":[
             {"index":0,"sync":{"id":"0000000000000001","order":"1"},"size":"big"},
             {"index":1,"sync":{"id":"0000000000000002","order":"2"},"size":"small"}]}]}
            """
        let accepted = try GridDocument.decode(base)
        #expect(accepted.syncIdentity?.items.first?.count == 2)
        try accepted.validate()
        let partial = base.replacingOccurrences(of: "\"sync\":{\"id\":\"0000000000000002\",\"order\":\"2\"},", with: "")
        #expect(throws: GridDocumentError.invalid("\"sync\" is given for some sections and items and not others: every one has it, or none")) {
            try GridDocument.decode(partial)
        }
        for (from, to, problem) in [("0000000000000002", "000000000000000G", "is not a sync id"),
                                    ("0000000000000002", "0000000000000001", "is given twice"),
                                    ("\"0000000000000001\",\"order\":\"1\"", "\"0000000000000001\",\"order\":\"3\"", "must ascend")] {
            let decoded = try GridDocument.decode(base.replacingOccurrences(of: from, with: to))
            #expect(throws: GridError.self) { try decoded.validate() }
            let database = try GridDatabase(path: directory.file("refused.sqlite"))
            do {
                try Grid(named: "default", in: database).importDocument(decoded)
                Issue.record("imported \(to)")
            } catch {
                #expect("\(error)".contains(problem), "\(error)")
            }
            #expect((try? Grid(named: "default", in: database, creatingWith: nil).syncReplicaID()) == nil)
        }
    }

    @Test("two devices that appended a tile at once give both one order key; the export of that grid imports, and syncs as the same tiles")
    func tiedOrderKeys() throws {
        let phone = try GridDatabase(path: directory.file("phone.sqlite")), tablet = try GridDatabase(path: directory.file("tablet.sqlite"))
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 0))
        _ = try phone.sync(with: tablet)
        for (database, size) in [(phone, TileSize.big), (tablet, TileSize.middle)] {
            try Grid(named: "default", in: database).update { try $0.insertItem(at: GridIndexPath(item: 12), size: size) }
        }
        _ = try phone.sync(with: tablet)
        let grid = try Grid(named: "default", in: phone)
        let identity = try #require(try grid.syncIdentity())
        #expect(identity.items[0][12].order == identity.items[0][13].order)
        let laptop = try GridDatabase(path: directory.file("laptop.sqlite"))
        try Grid(named: "default", in: laptop).importDocument(try GridDocument.decode(GridDocument.encode(grid.storedSnapshot(), syncIdentity: identity)))
        _ = try laptop.sync(with: phone)
        #expect(try laptop.content() == phone.content() && laptop.content().sections[0].count == 14)
    }
}
