import Foundation
import GridLayout
import Testing
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit

/// The SQLite file's `size_chunks`: exactly the letters of the explicit sizes, after every kind of change.
@Suite("Size chunks")
struct SizeChunksTests {
    let directory = TemporaryDirectory()

    /// The stored chunks as `section first_item letters`, in order.
    func chunks(_ database: GridDatabase) throws -> [String] {
        try database.readSQLite { connection in
            try connection.fetchAll("SELECT section, first_item, sizes FROM size_chunks ORDER BY section, first_item") {
                "\($0.int(at: 0)) \($0.int(at: 1)) \($0.string(at: 2))"
            }
        }
    }

    func dots(_ count: Int) -> String { String(repeating: ".", count: count) }

    @Test("sizes set, cleared, shifted and cut across chunk boundaries are stored as the grid holds them")
    func edits() throws {
        let path = directory.file("chunks.sqlite")
        let database = try GridDatabase(path: path)
        let grid = try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [600, 2]))
        _ = try grid.update { editor in
            try editor.setSizes([(GridIndexPath(item: 10), .big), (GridIndexPath(item: 255), .middle), (GridIndexPath(item: 280), .small),
                                 (GridIndexPath(item: 520), .big), (GridIndexPath(item: 599), .middle),
                                 (GridIndexPath(item: 1, section: 1), .big)])
        }
        #expect(try chunks(database) == ["0 0 \(dots(10))b\(dots(244))m", "0 256 \(dots(24))s", "0 512 \(dots(8))b\(dots(78))m", "1 0 .b"])

        // Clearing the last size of a chunk deletes it; clearing one in the middle keeps the rest.
        _ = try grid.setSize(nil, at: GridIndexPath(item: 280))
        _ = try grid.setSize(nil, at: GridIndexPath(item: 255))
        #expect(try chunks(database) == ["0 0 \(dots(10))b", "0 512 \(dots(8))b\(dots(78))m", "1 0 .b"])

        // Inserting an item moves every later size up by one, across the boundary.
        _ = try grid.update { try $0.insertItem(at: GridIndexPath(item: 0)) }
        #expect(try chunks(database) == ["0 0 \(dots(11))b", "0 512 \(dots(9))b\(dots(78))m", "1 0 .b"])

        // Cutting the section inside a chunk rewrites that chunk and deletes those after it.
        _ = try grid.update { try $0.setItemCount(530, inSection: 0) }
        #expect(try chunks(database) == ["0 0 \(dots(11))b", "0 512 \(dots(9))b", "1 0 .b"])
        _ = try grid.update { try $0.setItemCount(512, inSection: 0) }
        #expect(try chunks(database) == ["0 0 \(dots(11))b", "1 0 .b"])

        // Removing a section takes its chunks with it; resetting every size leaves none.
        _ = try grid.update { try $0.removeSection(at: 1) }
        #expect(try chunks(database) == ["0 0 \(dots(11))b"])
        _ = try grid.update { try $0.resetSizes() }
        #expect(try chunks(database).isEmpty)

        // What a fresh open reads back is what was written, every time.
        let reopened = try Grid(named: "g", in: GridDatabase(path: path)).snapshot()
        #expect(reopened.explicitSizes == [Array(repeating: nil, count: 512)])
    }

    @Test("a grid read back from its chunks has the sizes it was given", arguments: [1, 255, 256, 257, 1_000])
    func roundTrip(count: Int) throws {
        let path = directory.file("round-\(count).sqlite")
        var generator = SystemRandomNumberGenerator()
        let sizes: [TileSize?] = (0..<count).map { _ in [nil, .small, .middle, .big][Int(generator.next() % 4)] }
        do {
            let grid = try Grid(named: "g", in: GridDatabase(path: path), creatingWith: GridOptions(sectionItemCounts: [count]))
            _ = try grid.update { editor in
                try editor.setSizes(sizes.enumerated().map { (GridIndexPath(item: $0.offset), $0.element) })
            }
        }
        let database = try GridDatabase(path: path)
        #expect(try Grid(named: "g", in: database).snapshot().explicitSizes == [sizes])
        // And the view shows each explicit size as a row.
        let rows = try database.readThroughViews { try $0.fetchAll("SELECT item, size FROM item_sizes") { "\($0.int(at: 0)) \($0.string(at: 1))" } }
        #expect(rows == sizes.enumerated().compactMap { item, size in size.map { "\(item) \($0.rawValue)" } })
    }
}
