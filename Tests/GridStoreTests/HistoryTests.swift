import Foundation
import GridLayout
import GridStoreAudit
import SeededRandom
import Testing
@testable import GridStore
@testable import GridStoreSQLite

/// Every change recorded; undo, redo, revert and older revisions, on both backends.
@Suite("History")
struct HistoryTests {
    let directory = TemporaryDirectory()

    func sizes(_ snapshot: GridSnapshot) -> [TileSize] { snapshot.layout.sections.flatMap(\.sizes) }

    @Test("each change writes one entry with its revision, kind, operation and actor", arguments: Backend.all)
    func entries(backend: Backend) throws {
        let grid = try Grid(named: "default", in: GridDatabase(location: try backend.database(in: directory)))
        try grid.toggle(at: GridIndexPath(item: 3))
        try grid.update { try $0.insertItem(at: GridIndexPath(item: 0), size: .big) }
        try grid.update(operation: "items 20") { try $0.setItemCount(20, inSection: 0) }
        // A change that changes nothing writes no entry.
        try grid.update { try $0.setType(.more) }
        let history = try grid.history()
        #expect(history.map(\.revision) == [3, 2, 1])
        #expect(history.map(\.operation) == ["items 20", "insert 0 --size big", "set 3 middle"])
        #expect(history.allSatisfy { $0.kind == .change && $0.actor.contains("pid \(getpid())") && $0.madeAt.hasSuffix("Z") })
        #expect(try grid.history(limit: 1).map(\.revision) == [3])
    }

    @Test("undo and redo move through the history as an editor's do", arguments: Backend.all)
    func undoRedo(backend: Backend) throws {
        let grid = try Grid(named: "default", in: GridDatabase(location: try backend.database(in: directory)))
        var states = [try grid.snapshot()]
        for item in [1, 2, 3, 4, 5] { states.append(try grid.toggle(at: GridIndexPath(item: item))) }
        // undo 2 after five changes gives the state after the third.
        var now = try grid.undo(2)
        #expect(now.revision == 6)
        #expect(sizes(now) == sizes(states[3]))
        // A second undo goes one change further back; an undo is not itself undone by undo.
        now = try grid.undo()
        #expect(sizes(now) == sizes(states[2]))
        now = try grid.redo()
        #expect(sizes(now) == sizes(states[3]))
        now = try grid.redo(2)
        #expect(sizes(now) == sizes(states[5]))
        #expect(throws: GridError.nothingToRedo(requested: 1, available: 0)) { try grid.redo() }
        // A new change ends what could be redone.
        try grid.undo()
        try grid.toggle(at: GridIndexPath(item: 0))
        #expect(throws: GridError.nothingToRedo(requested: 1, available: 0)) { try grid.redo() }
        #expect(throws: GridError.nothingToUndo(requested: 9, available: 5)) { try grid.undo(9) }
        let kinds = try grid.history().map(\.kind)
        #expect(kinds == [.change, .undo, .redo, .redo, .undo, .undo, .change, .change, .change, .change, .change])
        #expect(try grid.history()[1].targets == [5])
    }

    @Test("every kind of edit is undone exactly, the stored rows included", arguments: Backend.all)
    func everyEdit(backend: Backend) throws {
        let location = try backend.database(in: directory)
        let grid = try Grid(named: "default", in: GridDatabase(location: location),
                            creatingWith: GridOptions(type: .more, sectionItemCounts: [30, 5]))
        let operations: [(inout GridEditor) throws -> Void] = [
            { try $0.toggle(at: GridIndexPath(item: 3)) },
            { try $0.setSizes([(GridIndexPath(item: 5), .big), (GridIndexPath(item: 1, section: 1), .middle)]) },
            { try $0.setDefaultSize(.middle) },
            { try $0.setType(.less) },
            { try $0.setDirection(.horizontal) },
            { try $0.setItemCount(40, inSection: 0) },
            { try $0.setItemCount(2, inSection: 0) },
            { try $0.insertItem(at: GridIndexPath(item: 0), size: .big, key: "mail") },
            { try $0.deleteItem(at: GridIndexPath(item: 1)) },
            { try $0.moveItem(from: GridIndexPath(item: 0), to: GridIndexPath(item: 2, section: 1)) },
            { try $0.appendSection(itemCount: 7) },
            { try $0.removeSection(at: 1) },
            { try $0.setKey("news", at: GridIndexPath(item: 0)) },
            { try $0.setItems(keys: ["a", "news", "b"], inSection: 0) },
            { try $0.swapItems(GridIndexPath(item: 0), GridIndexPath(item: 1)) },
            { try $0.resetSizes() },
            { try $0.replaceContent(GridContent(columns: 5, sections: [[.big, nil], [.middle]])) },
        ]
        _ = try grid.snapshot()   // made at its first use
        for operation in operations {
            let before = try DatabaseAudit.rows(path: location).filter { !$0.hasPrefix("grids:") && !$0.hasPrefix("history:") }
            let beforeSnapshot = try grid.snapshot()
            // A change that changes nothing (a swap of two tiles of one size) records nothing to undo.
            guard try grid.update(operation).revision > beforeSnapshot.revision else { continue }
            let undone = try grid.undo()
            #expect(undone.content == beforeSnapshot.content)
            let after = try DatabaseAudit.rows(path: location).filter { !$0.hasPrefix("grids:") && !$0.hasPrefix("history:") }
            #expect(after == before, "\(Set(after).symmetricDifference(before).sorted())")
            // And redone, then kept, for the next operation.
            try grid.redo()
        }
    }

    @Test("show at an older revision, and revert to it as a new revision that undo takes back", arguments: Backend.all)
    func olderRevisions(backend: Backend) throws {
        let grid = try Grid(named: "default", in: GridDatabase(location: try backend.database(in: directory)))
        var states = [try grid.snapshot()]
        var generator = SeededGenerator(seed: 14)
        for _ in 0..<30 {
            states.append(try grid.update { editor in
                let count = editor.snapshot.itemCounts[0]
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: try editor.insertItem(at: GridIndexPath(item: Int.random(in: 0...count, using: &generator)), size: .middle)
                case 1 where count > 1: try editor.deleteItem(at: GridIndexPath(item: Int.random(in: 0..<count, using: &generator)))
                case 2: try editor.setType(editor.snapshot.type == .less ? .more : .less)
                default: try editor.toggle(at: GridIndexPath(item: Int.random(in: 0..<count, using: &generator)))
                }
            })
        }
        for revision in [0, 1, 7, 29, 30] {
            let then = try grid.snapshot(at: revision)
            #expect(then.revision == revision)
            #expect(then.content == states[revision].content)
            #expect(then.layout.sections.map { Array($0) } == states[revision].layout.sections.map { Array($0) })
        }
        #expect(throws: GridError.revisionOutOfRange(31, current: 30)) { try grid.snapshot(at: 31) }
        let reverted = try grid.revert(to: 7)
        #expect(reverted.revision == 31)
        #expect(reverted.content == states[7].content)
        #expect(try grid.history(limit: 1).first?.kind == .revert)
        #expect(try grid.undo().content == states[30].content)
    }

    @Test("a trimmed history refuses what it no longer reaches; keep 0 records nothing", arguments: Backend.all)
    func retention(backend: Backend) throws {
        let grid = try Grid(named: "default", in: GridDatabase(location: try backend.database(in: directory)))
        try grid.toggle(at: GridIndexPath(item: 0))
        try grid.setHistoryRetention(3)
        for item in 1...5 { try grid.toggle(at: GridIndexPath(item: item)) }
        #expect(try grid.history().map(\.revision) == [6, 5, 4])
        #expect(try grid.historyRetention() == 3)
        try grid.undo(3)
        #expect(throws: GridError.historyTrimmed(oldestKept: 4, grid: "default")) { try grid.undo() }
        // The undo's own entry pushed out the oldest: revisions from 4 on can still be rebuilt.
        #expect(throws: GridError.historyTrimmed(oldestKept: 4, grid: "default")) { try grid.snapshot(at: 2) }
        #expect(try grid.snapshot(at: 4).revision == 4)
        try grid.setHistoryRetention(0)
        #expect(try grid.history().isEmpty)
        let before = try grid.snapshot().revision
        try grid.toggle(at: GridIndexPath(item: 9))
        #expect(try grid.history().isEmpty)
        #expect(throws: GridError.historyTrimmed(oldestKept: before + 1, grid: "default")) { try grid.undo() }
        #expect(throws: GridError.self) { try grid.setHistoryRetention(-1) }
    }

    @Test("a hand-edited history is reported as inconsistent, never applied blindly")
    func corruptedHistory() throws {
        let path = directory.file("history.sqlite")
        do {
            let grid = try Grid(named: "default", in: GridDatabase(path: path))
            try grid.toggle(at: GridIndexPath(item: 0))
            try grid.toggle(at: GridIndexPath(item: 1))
        }
        for (sql, expected) in [
            ("UPDATE history SET delta = '[[\"size\",0,99,null,\"big\"]]' WHERE revision = 2", "does not fit the grid"),
            ("UPDATE history SET delta = '[[\"explode\"]]' WHERE revision = 2", "cannot be read"),
            ("UPDATE history SET delta = '[[\"count\",0,1,999999999,\"5.\",[]]]' WHERE revision = 2", "cannot be read"),
            ("DELETE FROM history WHERE revision = 1", "trimmed"),
            ("UPDATE history SET kind = 'undo' WHERE revision = 2", "targets that do not fit its kind"),
        ] {
            let copy = directory.file("copy-\(expected.count)-\(sql.count).sqlite")
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            try SQLiteConnection(path: copy).execute(sql)
            let grid = try Grid(named: "default", in: GridDatabase(path: copy), creatingWith: nil)
            let before = try DatabaseAudit.rows(path: copy)
            #expect {
                try grid.undo(2)
            } throws: { error in
                "\(error)".contains(expected)
            }
            #expect(try DatabaseAudit.rows(path: copy) == before)
        }
    }

    @Test("a history with more entries than a grid can keep is found inconsistent in one line", arguments: Backend.all)
    func overfullHistory(backend: Backend) throws {
        let database = try GridDatabase(location: try backend.database(in: directory))
        let grid = try Grid(named: "default", in: database)
        for item in 0..<12 { try grid.toggle(at: GridIndexPath(item: item)) }
        // The bound is a grid's most kept entries, 1,000,000 (rows added by hand could pass it);
        // read here with smaller ones. The storage call is asked for one row past the bound.
        let read = { (bound: Int, limit: Int?) throws -> [Int64] in
            try database.storageRead { transaction in
                let id = try #require(try transaction.header(named: "default")).id
                return try GridHistory.entries(in: transaction, gridID: id, grid: "default", limit: limit, deltas: true, bound: bound)
                    .map(\.revision)
            }
        }
        #expect(try read(12, nil) == Array((1...12).reversed()))
        #expect(try read(11, 3) == [12, 11, 10])
        #expect {
            try read(11, nil)
        } throws: { error in
            "\(error)" == "the stored grid is inconsistent: grid 'default' has more history entries than a grid can keep (11)"
        }
        #expect(GridHistory.maximumKeep == 1_000_000)
    }

    @Test("the deltas are compact: a toggle of one of 100,000 items stores one size")
    func compactDeltas() throws {
        let path = directory.file("big.sqlite")
        let grid = try Grid(named: "big", in: GridDatabase(path: path), creatingWith: GridOptions(type: .more, sectionItemCounts: [100_000]))
        try grid.toggle(at: GridIndexPath(item: 0))
        try grid.update { try $0.setItemCount(200_000, inSection: 0) }
        let deltas = try SQLiteConnection(path: path, mode: .readOnly).fetchAll("SELECT delta FROM history ORDER BY revision") {
            $0.string(at: 0)
        }
        #expect(deltas == [#"[["size",0,0,null,"middle"]]"#, #"[["count",0,100000,200000,"100000.",[]]]"#])
        #expect(HistoryDelta.runs([nil, nil, .big, .small, .small, nil]) == "2.b2s.")
    }

    @Test("size edits, written in place, read back as what was recorded, among edits of other kinds")
    func sizeEditText() throws {
        let edits: [GridEdit] = [
            .size(GridIndexPath(item: 0, section: 0), from: nil, to: .middle),
            .size(GridIndexPath(item: 987_654, section: 12), from: .big, to: nil),
            .columns(from: 4, to: 6),
            .size(GridIndexPath(item: 10, section: 3), from: .small, to: .big),
        ]
        let text = HistoryDelta.encode(edits)
        #expect(text == #"[["size",0,0,null,"middle"],["size",12,987654,"big",null],["columns",4,6],["size",3,10,"small","big"]]"#)
        #expect(try HistoryDelta.decode(text, revision: 1, grid: "g") == edits)
        #expect(HistoryDelta.encode([]) == "[]")
    }

    @Test("a few kilobytes of runs that ask for billions of sizes are refused before any is built", arguments: [
        // A content edit of 10,000 sections of 1,000,000 default items: 10^10 sizes from 110 KB.
        #"[["content",{"columns":6,"direction":"vertical","defaultSize":"small","sections":["# + Array(repeating: #""1000000.""#, count: 10_000).joined(separator: ",")
            + #"]},{"columns":6,"direction":"vertical","defaultSize":"small","sections":[]}]]"#,
        // Count edits, each within the limits, that together grow sections past any grid.
        "[" + (0..<9_000).map { #"["count",\#($0),0,1000000,"1000000.",[]]"# }.joined(separator: ",") + "]",
        // Sections inserted, each of a million items.
        "[" + (0..<100).map { #"["insertSection",\#($0),"1000000.",[]]"# }.joined(separator: ",") + "]",
    ])
    func runBombs(text: String) throws {
        #expect(text.utf8.count < 400_000)
        #expect(throws: GridError.self) { try HistoryDelta.decode(text, revision: 2, grid: "g") }
    }

    @Test("more inserts, deletes and moves than an entry may hold are refused when read, and a change that makes them is recorded as its content")
    func positionalEdits() throws {
        // Single-threaded, and one change of 100,001 inserts: run by the plain test run; under
        // ThreadSanitizer (whose run sets TSAN_OPTIONS), beside the other tests, the change could
        // pass SQLite's 60-second operation limit.
        guard ProcessInfo.processInfo.environment["TSAN_OPTIONS"] == nil else { return }
        let many = "[" + (0...HistoryDelta.maximumPositionalEditsPerEntry).map { _ in #"["insert",0,0,null,null]"# }.joined(separator: ",") + "]"
        #expect(throws: GridError.self) { try HistoryDelta.decode(many, revision: 2, grid: "g") }
        let directory = TemporaryDirectory()
        let grid = try Grid(named: "g", in: GridDatabase(path: directory.file("many.sqlite")),
                            creatingWith: GridOptions(sectionItemCounts: [1]))
        try grid.update { editor in
            for item in 1...(HistoryDelta.maximumPositionalEditsPerEntry + 1) { try editor.insertItem(at: GridIndexPath(item: item)) }
        }
        #expect(try grid.snapshot().itemCounts == [HistoryDelta.maximumPositionalEditsPerEntry + 2])
        _ = try grid.undo()
        #expect(try grid.snapshot().itemCounts == [1])
    }

    @Test("replaying edits never grows a grid past the limits, even when each edit is within them")
    func replayBounded() throws {
        let snapshot = try GridSnapshot(name: "g", revision: 5, content: GridContent(columns: 6, sections: [[nil]]))
        var replay = GridEditor(packingOnceAtTheEnd: snapshot)
        let million = GridEdit.SectionContents(sizes: Array(repeating: nil, count: 999_999), keys: [])
        try GridEdit.itemCount(section: 0, from: 1, to: 1_000_000, tail: million).apply(to: &replay)
        #expect(throws: GridError.self) {
            try GridEdit.insertSection(1, GridEdit.SectionContents(sizes: [nil], keys: [])).apply(to: &replay)
        }
        #expect(replay.packedSnapshot.itemCounts == [1_000_000])
    }
}
