import GridLayout
import Testing
import TestSupport
@testable import GridStore
@testable import GridStoreSQLite

/// What is derived from a grid's sync registers (the tiles' ids in order, the registers'
/// versions, the versions log) is input too: a hand edit of it never puts a change on another
/// tile or crashes, `check` finds it, and `check --repair` rebuilds it.
@Suite("Sync index edited by hand")
struct SyncIndexTests {
    let directory = TemporaryDirectory()

    /// A synced pair of files, and a connection to the first for hand edits.
    func pair() throws -> (GridDatabase, GridDatabase, SQLiteConnection) {
        let phone = try GridDatabase(path: directory.file("phone.sqlite")), tablet = try GridDatabase(path: directory.file("tablet.sqlite"))
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 0))
        _ = try phone.sync(with: tablet)
        return (phone, tablet, try SQLiteConnection(path: directory.file("phone.sqlite")))
    }

    func size(_ database: GridDatabase, _ item: Int) throws -> TileSize? {
        try Grid(named: "default", in: database).storedSnapshot().content.sections[0][item]
    }

    @Test("tiles' ids swapped, repeated or shifted in a chunk: a toggle still lands on its tile on every replica; check finds it and --repair rebuilds it",
          arguments: ["swap", "repeat", "shift"])
    func wrongChunk(edit: String) throws {
        let (phone, tablet, connection) = try pair()
        let text = try #require(try connection.fetchOne("SELECT ids FROM sync_item_ids") { $0.string(at: 0) })
        var ids = stride(from: 0, to: text.count, by: 16).map { String(Array(text)[$0..<$0 + 16]) }
        switch edit {
        case "swap": ids.swapAt(3, 4)
        case "repeat": ids[3] = ids[4]
        default: ids = Array(ids.dropFirst()) + [ids[0]]
        }
        try connection.execute("UPDATE sync_item_ids SET ids = ?", [ids.joined()])
        #expect(try Grid.checkSyncStates(in: phone).first?.problems.first?.contains("its sync index") == true)
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 3))
        _ = try phone.sync(with: tablet)
        #expect(try size(tablet, 3) == .middle && size(tablet, 4) == nil && size(phone, 3) == .middle)
        // The slow path wrote the ids again; a hand edit after is mended by --repair.
        #expect(try Grid.checkSyncStates(in: phone).allSatisfy(\.problems.isEmpty))
        try connection.execute("UPDATE sync_item_ids SET ids = ?", [ids.joined()])
        #expect(try Grid.checkSyncStates(in: phone, repairing: true).first?.repaired == true)
        #expect(try Grid.checkSyncStates(in: phone).allSatisfy(\.problems.isEmpty))
    }

    @Test("a versions log entry that claims less than the registers hold, or a register's version past the state's: check finds it, and after --repair an export leaves nothing out")
    func wrongLog() throws {
        let (phone, tablet, connection) = try pair()
        try Grid(named: "default", in: phone).update { try $0.insertItem(at: GridIndexPath(item: 0), size: .big) }
        let cursor = try Grid(named: "default", in: tablet).syncCursor()
        _ = try Grid(named: "default", in: phone).syncBundle(since: cursor)
        for edit in ["UPDATE sync_versions SET versions = ''", "UPDATE sync_registers SET version = version + 1000 WHERE rowid IN (SELECT rowid FROM sync_registers LIMIT 1)"] {
            if edit.contains("rowid") {
                try connection.execute("UPDATE sync_registers SET version = version + 1000 WHERE entity = (SELECT min(entity) FROM sync_registers WHERE kind = 'item')")
            } else {
                try connection.execute(edit)
            }
            #expect(try Grid.checkSyncStates(in: phone).first?.problems.first?.contains("its sync index") == true, "\(edit)")
            #expect(try Grid.checkSyncStates(in: phone, repairing: true).first?.repaired == true)
            #expect(try Grid.checkSyncStates(in: phone).allSatisfy(\.problems.isEmpty))
        }
        let bundle = try Grid(named: "default", in: phone).syncBundle(since: cursor)
        try Grid(named: "default", in: tablet).applySyncBundle(bundle.encoded())
        #expect(try Grid(named: "default", in: tablet).storedSnapshot().content == Grid(named: "default", in: phone).storedSnapshot().content)
    }

    @Test("a sync version at the last 64-bit value: a change is made and kept, the sync is refused in one line, check says the state cannot be read")
    func lastVersion() throws {
        let (phone, tablet, connection) = try pair()
        try connection.execute("UPDATE sync_states SET version = 9223372036854775807")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 3))
        #expect(try size(phone, 3) == .middle)
        #expect(throws: GridError.self) { try phone.sync(with: tablet) }
        #expect(try Grid.checkSyncStates(in: phone).first?.problems.first?.contains("cannot be read") == true)
    }
}
