import Foundation
import GridLayout
import GridStoreAudit
import SeededRandom
import Testing
import TestSupport
@testable import GridStore
@testable import GridStoreSQLite

/// Everything gridstore writes, gridstore reads back: each writer of a bounded field keeps to
/// the bound its reader enforces.
@Suite("What gridstore writes reads back")
struct WrittenReadsBackTests {
    let directory = TemporaryDirectory()

    @Test("operations and actors of any length or content are stored within what a reader takes", arguments: Backend.all)
    func longOperations(backend: Backend) throws {
        let database = try GridDatabase(location: try backend.database(in: directory))
        let grid = try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [4]))
        var generator = SeededGenerator(seed: 34)
        let pieces = ["a", "é", "e\u{301}", "🧩", "\u{0}", "'", "\n", "🇫🇷"]
        for round in 0..<6 {
            let length = [65_535, 65_536, 65_537, 100_000, 200_000, 1][round]
            var operation = ""
            while operation.utf8.count < length { operation += pieces.randomElement(using: &generator)! }
            try grid.update(operation: operation) { try $0.toggle(at: GridIndexPath(item: round % 4)) }
        }
        // Every reader of the history takes what was written.
        let entries = try grid.history(limit: 10)
        #expect(entries.count == 6)
        for entry in entries {
            #expect(entry.operation.utf8.count <= GridHistoryEntry.maximumTextBytes, "revision \(entry.revision)")
            #expect(!entry.operation.utf8.contains(0))
        }
        #expect(entries.filter { $0.operation.hasSuffix("…") }.count >= 3)
        _ = try grid.undo(6)
        _ = try grid.snapshot(at: 1)
        let copy = try GridDatabase(location: try backend.database(in: directory, name: "copy.sqlite"))
        try Grid.copy(from: database, to: copy)
        #expect(try Grid(named: "g", in: copy, creatingWith: nil).history(limit: 10).count == 7)
    }

    /// Ten changes of a million items: run by the plain test run; under ThreadSanitizer (whose
    /// run sets TSAN_OPTIONS) each takes past SQLite's 60-second statement limit.
    @Test("an undo over changes of millions of sizes is stored as an entry a reader takes", arguments: [Backend.sqlite])
    func undoOverLargeChanges(backend: Backend) throws {
        guard ProcessInfo.processInfo.environment["TSAN_OPTIONS"] == nil else { return }
        let database = try GridDatabase(location: try backend.database(in: directory))
        let grid = try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [0]))
        // Each change's entry holds a million sizes; nine of them together are past the bound.
        for _ in 0..<5 {
            try grid.update { try $0.setItemCount(GridLimits.maximumItems, inSection: 0) }
            try grid.update { try $0.setItemCount(0, inSection: 0) }
        }
        let undone = try grid.undo(9)
        #expect(undone.itemCounts == [GridLimits.maximumItems])
        #expect(try grid.history(limit: 2).count == 2)
        #expect(try grid.snapshot(at: 1).itemCounts == [GridLimits.maximumItems])
        #expect(try grid.undo().itemCounts == [0])
    }

    @Test("random batches of large edits: whatever an entry stores decodes, with the sizes a reader counts")
    func entriesFitTheirReader() throws {
        // Single-threaded, over up to 12 million sizes a round: run by the plain test run; under
        // ThreadSanitizer (whose run sets TSAN_OPTIONS) it took four minutes, most of CI's run.
        guard ProcessInfo.processInfo.environment["TSAN_OPTIONS"] == nil else { return }
        var generator = SeededGenerator(seed: 3_434)
        for round in 0..<12 {
            var edits: [GridEdit] = []
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let count = Int.random(in: 0...GridLimits.maximumItems, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: edits.append(.itemCount(section: 0, from: 0, to: count, tail: .plain(count)))
                case 1: edits.append(.insertSection(0, .plain(count)))
                case 2: edits.append(.section(0, from: .plain(count), to: .plain(count / 2)))
                default: edits.append(.size(GridIndexPath(item: 0), from: nil, to: .big))
                }
            }
            let sizes = edits.reduce(0) { $0 + HistoryDelta.sizeCount(of: $1) }
            #expect(HistoryDelta.fits(edits) == (sizes <= HistoryDelta.maximumSizesPerEntry), "seed 3434, round \(round)")
            if HistoryDelta.fits(edits) {
                let decoded = try HistoryDelta.decode(HistoryDelta.encode(edits), revision: 1, grid: "g")
                #expect(decoded == edits, "seed 3434, round \(round)")
            }
        }
    }

    @Test("the largest document export can write is within what import reads")
    func largestDocument() throws {
        // Keys of 255 four-byte characters, which JSON carries as they are; item indexes of six
        // digits. A thousand such items, scaled to a million, stay under the import's bound.
        let items = 1_000
        let keys = (0..<items).map { String(repeating: "😀", count: GridLimits.maximumKeyLength - 6) + String(100_000 + $0) }
        var content = GridContent(GridOptions(sectionItemCounts: [items]))
        content.sections[0] = Array(repeating: .middle, count: items)
        content.keys = [keys]
        let grid = try Grid.create(named: String(repeating: "😀", count: GridLimits.maximumNameLength),
                                   in: GridDatabase(location: directory.file("big.sqlite")), content: content)
        let bytes = GridDocument.encode(try grid.snapshot()).utf8.count
        // Each item's index may have one more digit in a million-item grid.
        let perItem = bytes / items + 1
        #expect(perItem * GridLimits.maximumItems + bytes < GridDocument.maximumDocumentBytes, "\(perItem) bytes per item")
    }

    @Test("a grid at the last revision gridstore can store takes no further change", arguments: [Backend.sqlite])
    func lastRevision(backend: Backend) throws {
        let path = try backend.database(in: directory)
        let database = try GridDatabase(location: path)
        let grid = try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [2]))
        try grid.toggle(at: GridIndexPath(item: 0))
        try SQLiteConnection(path: path, mode: .readWrite).executeScript("UPDATE grids SET revision = 9223372036854775806")
        let error = try #require(throws: GridError.self) { try Grid(named: "g", in: GridDatabase(location: path)).toggle(at: GridIndexPath(item: 1)) }
        #expect(error.description == "grid 'g' is at revision 9223372036854775806, the last one gridstore can store")
    }
}
