import Foundation
import GridLayout
import Testing
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit

/// `Grid.item(at:)` and `item(forKey:)`: one item read by its rows alone.
@Suite("Reading one item")
struct GridItemTests {
    let directory = TemporaryDirectory()

    @Test("one item's size, whether it is its own, and its key, by index or by key, as the whole grid says", arguments: Backend.all)
    func item(backend: Backend) throws {
        let grid = try Grid(named: "default", in: GridDatabase(location: try backend.database(in: directory)),
                            creatingWith: GridOptions(type: .more, sectionItemCounts: [5, 3]))
        try grid.update { editor in
            try editor.setDefaultSize(.middle)
            try editor.setSize(.big, at: GridIndexPath(item: 2, section: 1))
            try editor.setKey("mail", at: GridIndexPath(item: 2, section: 1))
        }
        let snapshot = try grid.snapshot()
        for section in 0..<2 {
            for item in 0..<snapshot.itemCounts[section] {
                let path = GridIndexPath(item: item, section: section)
                let read = try grid.item(at: path)
                #expect(read.size == (try snapshot.size(at: path)))
                #expect(read.hasOwnSize == (try snapshot.explicitSize(at: path) != nil))
                #expect(read.key == (try snapshot.key(at: path)))
            }
        }
        #expect(try grid.item(forKey: "mail") == GridItem(indexPath: GridIndexPath(item: 2, section: 1), size: .big, hasOwnSize: true, key: "mail"))
        #expect(throws: GridError.itemOutOfRange(GridIndexPath(item: 3, section: 1), itemCount: 3, allowsEnd: false)) {
            try grid.item(at: GridIndexPath(item: 3, section: 1))
        }
        #expect(throws: GridError.sectionOutOfRange(2, sectionCount: 2)) { try grid.item(at: GridIndexPath(item: 0, section: 2)) }
        #expect(throws: GridError.keyNotFound("nope", grid: "default")) { try grid.item(forKey: "nope") }
        #expect(throws: GridError.gridNotFound("other")) {
            try Grid(named: "other", in: grid.database).item(at: GridIndexPath(item: 0))
        }
    }

    @Test("a stored size that is not one is reported, not trusted")
    func corrupted() throws {
        let path = directory.file("item.sqlite")
        do { try Grid(named: "default", in: GridDatabase(path: path)).setSize(.big, at: GridIndexPath(item: 1)) }
        let connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA ignore_check_constraints = ON")
        try connection.execute("UPDATE size_chunks SET sizes = '.h'")
        #expect(throws: GridError.corrupted("grid 'default' has an unknown size for item 1 of section 0")) {
            try Grid(named: "default", in: GridDatabase(path: path)).item(at: GridIndexPath(item: 1))
        }
        #expect(throws: GridError.corrupted("grid 'default' has an unknown size for item 1 of section 0")) {
            try Grid(named: "default", in: GridDatabase(path: path)).snapshot()
        }
        // A chunk that would overlap its neighbours is refused too, by a read of one item and of the grid.
        try connection.execute("UPDATE size_chunks SET sizes = '.b' || printf('%*s', 300, '')")
        let misplaced = GridError.corrupted("grid 'default' has a size chunk for section 0 at item 0 with 302 sizes "
                                            + "(a chunk starts at a multiple of 256 and holds at most 256)")
        #expect(throws: misplaced) { try Grid(named: "default", in: GridDatabase(path: path)).item(at: GridIndexPath(item: 1)) }
        #expect(throws: misplaced) { try Grid(named: "default", in: GridDatabase(path: path)).snapshot() }
    }
}
