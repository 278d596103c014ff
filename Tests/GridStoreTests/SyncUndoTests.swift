import GridLayout
import GridStoreAudit
import SeededRandom
import Testing
@testable import GridStore
@testable import GridStoreSQLite

/// Undo and redo on grids that sync: a change is taken back by identity (the sync registers it
/// wrote), on the tiles it touched wherever they are now, after syncs too.
@Suite("Undo and redo by identity across syncs")
struct SyncUndoTests {
    let directory = TemporaryDirectory()

    /// A database of `backend` (the one that undoes) and an SQLite file (its peer), both holding
    /// the default grid, synced once, so every change after is recorded by identity.
    func pair(_ backend: Backend) throws -> (phone: GridDatabase, tablet: GridDatabase) {
        let phone = try GridDatabase(location: try backend.database(in: directory, name: "phone.sqlite"))
        let tablet = try GridDatabase(path: directory.file("tablet.sqlite"))
        _ = try Grid(named: "default", in: phone).snapshot()
        _ = try phone.sync(with: tablet)
        return (phone, tablet)
    }

    func grid(_ database: GridDatabase) throws -> Grid { try Grid(named: "default", in: database) }

    /// The sync ids of the grid's items in order.
    func ids(_ database: GridDatabase) throws -> [String] {
        try #require(try grid(database).syncIdentity()).items[0].map(\.id)
    }

    @Test("a tile deleted while a peer made it big, the delete undone after the sync, comes back big, the same tile on every replica",
          arguments: Backend.all)
    func deleteUndoneAfterSync(backend: Backend) throws {
        let (phone, tablet) = try pair(backend)
        let before = try ids(phone)
        try grid(phone).update { try $0.deleteItem(at: GridIndexPath(item: 2)) }
        try grid(tablet).setSize(.big, at: GridIndexPath(item: 2))
        _ = try phone.sync(with: tablet)
        // The delete wins.
        #expect(try phone.content().sections[0].count == 11 && tablet.content() == phone.content())
        try grid(phone).undo()
        #expect(try phone.content().sections[0][2] == .big && ids(phone) == before)
        _ = try tablet.sync(with: phone)
        #expect(try tablet.content() == phone.content() && ids(tablet) == before)
        // Redo deletes it again, everywhere.
        try grid(phone).redo()
        _ = try tablet.sync(with: phone)
        #expect(try tablet.content().sections[0].count == 11 && tablet.content() == phone.content())
    }

    @Test("a delete undone before the sync keeps the size a peer gave the tile meanwhile", arguments: Backend.all)
    func deleteUndoneBeforeSync(backend: Backend) throws {
        let (phone, tablet) = try pair(backend)
        let before = try ids(phone)
        try grid(phone).update { try $0.deleteItem(at: GridIndexPath(item: 2)) }
        try grid(phone).undo()
        try grid(tablet).setSize(.big, at: GridIndexPath(item: 2))
        _ = try phone.sync(with: tablet)
        #expect(try phone.content().sections[0][2] == .big && tablet.content() == phone.content())
        #expect(try ids(phone) == before && ids(tablet) == before)
    }

    @Test("undo takes back this replica's own change after syncs, on the tile wherever it is now; redo makes it again",
          arguments: Backend.all)
    func undoPastSyncs(backend: Backend) throws {
        let (phone, tablet) = try pair(backend)
        try grid(phone).toggle(at: GridIndexPath(item: 3))
        _ = try phone.sync(with: tablet)
        try grid(tablet).update {
            try $0.insertItem(at: GridIndexPath(item: 0), size: .big, key: "mail")
            try $0.insertItem(at: GridIndexPath(item: 0), size: nil, key: nil)
        }
        _ = try phone.sync(with: tablet)
        #expect(try phone.content().sections[0][5] == .middle)
        // Past two merges: the toggled tile is item 5 now.
        let undone = try grid(phone).undo()
        #expect(undone.content.sections[0][5] == nil && undone.content.sections[0][0...1] == [nil, .big])
        #expect(try grid(phone).history(limit: 1).first?.kind == .undo)
        _ = try tablet.sync(with: phone)
        #expect(try tablet.content() == phone.content())
        try grid(phone).redo()
        _ = try tablet.sync(with: phone)
        #expect(try tablet.content().sections[0][5] == .middle && tablet.content() == phone.content())
        // The toggle was the phone's only change: nothing is left to undo, and no sync stops undo.
        try grid(phone).undo()
        #expect(throws: GridError.nothingToUndo(requested: 1, available: 0)) { try grid(phone).undo() }
        #expect(try grid(phone).syncStoppingUndo() == nil)
    }

    @Test("a value a peer wrote after the change stays: undo takes back only what still holds the change's value",
          arguments: Backend.all)
    func peerLaterChangeStays(backend: Backend) throws {
        let (phone, tablet) = try pair(backend)
        try grid(phone).setSize(.middle, at: GridIndexPath(item: 1))
        try grid(phone).setSize(.middle, at: GridIndexPath(item: 4))
        _ = try phone.sync(with: tablet)
        try grid(tablet).setSize(.big, at: GridIndexPath(item: 4))
        _ = try phone.sync(with: tablet)
        try grid(phone).undo()
        #expect(try phone.content().sections[0][4] == .big)
        try grid(phone).undo()
        #expect(try phone.content().sections[0][1] == nil)
        _ = try tablet.sync(with: phone)
        #expect(try tablet.content() == phone.content())
    }

    @Test("a size undone on a tile a peer deleted since: the tile stays deleted, and comes back with its size only by an undo of the delete",
          arguments: Backend.all)
    func sizeOfDeletedTile(backend: Backend) throws {
        let (phone, tablet) = try pair(backend)
        try grid(phone).setSize(.big, at: GridIndexPath(item: 2))
        _ = try phone.sync(with: tablet)
        try grid(tablet).update { try $0.deleteItem(at: GridIndexPath(item: 2)) }
        _ = try phone.sync(with: tablet)
        try grid(phone).undo()
        #expect(try phone.content().sections[0].count == 11 && phone.content().sections[0].allSatisfy { $0 == nil })
        _ = try tablet.sync(with: phone)
        #expect(try tablet.content() == phone.content())
        // The tablet takes its delete back: the tile is big, the size the phone's undo left alone.
        try grid(tablet).undo()
        _ = try tablet.sync(with: phone)
        #expect(try phone.content().sections[0][2] == .big && tablet.content() == phone.content())
    }

    @Test("a move and an insert undone after a peer's changes: the tile goes back between its neighbours; the inserted one goes, wherever it is",
          arguments: Backend.all)
    func moveAndInsertUndone(backend: Backend) throws {
        let (phone, tablet) = try pair(backend)
        // A tile that differs from its neighbours, so that moving it changes the grid.
        try grid(phone).setSize(.big, at: GridIndexPath(item: 0))
        _ = try phone.sync(with: tablet)
        let start = try ids(phone)
        try grid(phone).update { try $0.moveItem(from: GridIndexPath(item: 0), to: GridIndexPath(item: 4)) }
        try grid(tablet).update { try $0.insertItem(at: GridIndexPath(item: 0), size: .big, key: "maps") }
        _ = try phone.sync(with: tablet)
        try grid(phone).undo()
        let afterUndo = try ids(phone)
        #expect(afterUndo.count == 13 && Array(afterUndo.filter(start.contains)) == start, "\(afterUndo) \(start)")

        try grid(phone).update { try $0.insertItem(at: GridIndexPath(item: 2), size: .middle, key: "mail") }
        _ = try phone.sync(with: tablet)
        try grid(tablet).update { try $0.moveItem(from: GridIndexPath(item: 2), to: GridIndexPath(item: 9)) }
        _ = try phone.sync(with: tablet)
        #expect(try phone.content().keys[0][9] == "mail")
        try grid(phone).undo()
        _ = try tablet.sync(with: phone)
        #expect(try !phone.content().keys[0].contains("mail") && tablet.content() == phone.content())
        #expect(try ids(phone) == afterUndo && ids(tablet) == afterUndo)
    }

    @Test("options and sections changed, undone after a peer's change: each goes back, the peer's change stays", arguments: Backend.all)
    func optionsAndSectionsUndone(backend: Backend) throws {
        let (phone, tablet) = try pair(backend)
        let columns = try phone.content().columns
        try grid(phone).update {
            try $0.setColumns(columns + 1)
            let section = try $0.appendSection(itemCount: 2)
            try $0.setSize(.big, at: GridIndexPath(item: 0, section: section))
            try $0.setSize(.middle, at: GridIndexPath(item: 1, section: section))
        }
        try grid(tablet).toggle(at: GridIndexPath(item: 7))
        _ = try phone.sync(with: tablet)
        #expect(try phone.content().columns == columns + 1 && phone.content().sections.count == 2 && phone.content().sections[0][7] == .middle)
        try grid(phone).undo()
        #expect(try phone.content().columns == columns && phone.content().sections.count == 1 && phone.content().sections[0][7] == .middle)
        _ = try tablet.sync(with: phone)
        #expect(try tablet.content() == phone.content())
        try grid(phone).redo()
        _ = try tablet.sync(with: phone)
        #expect(try tablet.content().sections == [phone.content().sections[0], [.big, .middle]] && tablet.content() == phone.content())
    }

    @Test("undo by identity is one change in the app's transaction, and rolls back whole with it", arguments: Backend.all)
    func undoInTransaction(backend: Backend) throws {
        let (phone, tablet) = try pair(backend)
        try grid(phone).toggle(at: GridIndexPath(item: 3))
        try grid(tablet).toggle(at: GridIndexPath(item: 0))
        _ = try phone.sync(with: tablet)
        let before = try (phone.content(), grid(phone).currentRevision(), grid(phone).syncCursor())
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try phone.write { transaction in
                _ = try transaction.undo(grid(phone))
                throw Stop()
            }
        }
        #expect(try (phone.content(), grid(phone).currentRevision(), grid(phone).syncCursor()) == before)
        try grid(phone).undo()
        #expect(try phone.content().sections[0][3] == nil && phone.content().sections[0][0] == .middle)
    }

    @Test("a history entry whose sync registers are not as gridstore writes them is refused in one line, and nothing is written")
    func hostileRegisters() throws {
        let (phone, tablet) = try pair(.sqlite)
        try grid(phone).toggle(at: GridIndexPath(item: 3))
        _ = try grid(tablet).toggle(at: GridIndexPath(item: 0))
        _ = try phone.sync(with: tablet)
        let revision = try grid(phone).currentRevision()
        for planted in ["item\tnot an id\ts\tnull\t\"middle\"", "item\t0000000000000001\ts\tnull", "item\t0000000000000001\tz\tnull\tnull",
                        "grid\t\tcolumns\t0\t4", "item\t0000000000000001\ts\t\"middle\",1,0],[\"big\"\t\"middle\"",
                        String(repeating: "grid\t\tcolumns\t4\t5\n", count: RegisterChange.maximumCount) + "grid\t\tcolumns\t4\t5"] {
            try phone.writeSQLite { try $0.execute("UPDATE history SET registers = ? WHERE revision = ?", [planted, revision - 1]) }
            let error = #expect(throws: GridError.self) { try grid(phone).undo() }
            guard case .corrupted(let message) = error else { Issue.record("\(String(describing: error))"); continue }
            #expect(message.contains("history entry for revision \(revision - 1) whose sync registers gridstore cannot read")
                    && !message.contains("\n"), "\(message)")
            #expect(try grid(phone).currentRevision() == revision)
        }
    }

    @Test("a merge keeps on the stacks the changes recorded by identity above the newest one that is not, and undo stops at the merge above that")
    func stacksAcrossMerges() throws {
        func entry(_ revision: Int, _ kind: GridHistoryEntry.Kind, _ targets: [Int] = []) -> GridHistoryEntry {
            GridHistoryEntry(revision: revision, madeAt: "", kind: kind, operation: "", actor: "", targets: targets)
        }
        let entries = [entry(1, .change), entry(2, .merge), entry(3, .change), entry(4, .merge), entry(5, .change), entry(6, .undo, [5])]
        let stacks = try GridHistory.stacks(entries, isComplete: true, byIdentity: [false, false, true, false, true, true], grid: "g")
        #expect(stacks == GridHistory.Stacks(done: [3], undone: [5], stoppedBy: 2))
        // A merge that cuts changes made before the first sync is where undo stops, even with changes above it.
        let cut = try GridHistory.stacks([entry(1, .change), entry(2, .change), entry(3, .change), entry(4, .merge)], isComplete: true,
                                         byIdentity: [false, false, true, false], grid: "g")
        #expect(cut == GridHistory.Stacks(done: [3], undone: [], stoppedBy: 4))
        // Without registers (a grid that did not sync), a merge ends both stacks, as before.
        let plain = try GridHistory.stacks(entries, isComplete: true, grid: "g")
        #expect(plain.done.isEmpty && plain.undone == [5] && plain.stoppedBy == 4)
        // A change that wrote more registers than an entry keeps keeps none.
        let many = [RegisterChange](repeating: RegisterChange(entity: nil, before: .columns(4), after: .columns(6)),
                                    count: RegisterChange.maximumCount + 1)
        #expect(RegisterChange.kept(many) == nil && RegisterChange.kept(Array(many.dropLast())) != nil)
    }

    @Test("registers written as text read back as they were, for values of every kind")
    func registersRoundTrip() throws {
        var generator = SeededGenerator(seed: 45)
        let section = SyncEntityID.random(using: &generator)
        func value(_ kind: Int) -> RegisterChange.Value {
            switch kind % 10 {
            case 0: .columns(Int.random(in: 1...12, using: &generator))
            case 1: .direction(Bool.random(using: &generator) ? .vertical : .horizontal)
            case 2: .defaultSize(TileSize.allCases.randomElement(using: &generator)!)
            case 3: .honeycomb(nil)
            case 4: .sectionOrder(OrderKey.spaced(Int.random(in: 0...1000, using: &generator)))
            case 5: .sectionAlive(Bool.random(using: &generator))
            case 6: .place(ReplicatedGrid.Place(section: section, order: .spaced(Int.random(in: 0...1000, using: &generator))))
            case 7: .size(TileSize.allCases.randomElement(using: &generator))
            case 8: .key(Bool.random(using: &generator) ? nil : "k \"\\ é/\(Int.random(in: 0...99, using: &generator))")
            default: .alive(Bool.random(using: &generator))
            }
        }
        for round in 0..<200 {
            let changes = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                let kind = Int.random(in: 0..<10, using: &generator)
                return RegisterChange(entity: kind < 4 ? nil : SyncEntityID.random(using: &generator), before: value(kind), after: value(kind))
            }
            let text = RegisterChange.text(changes)
            #expect(try RegisterChange.changes(in: text, revision: 1, grid: "g") == changes, "round \(round) (seed 45): \(text)")
            // A toggle's line, written directly, is the line of its change.
            let sizes = (TileSize.allCases.randomElement(using: &generator), TileSize.allCases.randomElement(using: &generator))
            let id = SyncEntityID.random(using: &generator)
            var line = ""
            RegisterChange.appendSizeLine(to: &line, item: id, before: sizes.0, after: sizes.1)
            #expect(line == RegisterChange.text([RegisterChange(entity: id, before: .size(sizes.0), after: .size(sizes.1))]))
        }
    }
}
