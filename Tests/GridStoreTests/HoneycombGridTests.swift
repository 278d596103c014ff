import GridLayout
import GridStoreAudit
import Testing
@testable import GridStore
@testable import GridStoreSQLite

@Suite("Honeycomb grids")
struct HoneycombGridTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file("hive.sqlite") }

    /// The stored honeycomb placements, as "item ring q r x y w h".
    func storedPlacements(_ name: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        return try connection.fetchAll("""
            SELECT item, ring, q, r, x, y, width, height FROM honeycomb_placements
            WHERE grid_id = (SELECT id FROM grids WHERE name = ?) ORDER BY item
            """, [name]) { row in
            (0..<8).map { index -> String in
                index < 4 ? String(row.int(at: Int32(index))) : String(row.double(at: Int32(index)))
            }.joined(separator: " ")
        }
    }

    func expected(_ layout: HoneycombLayout) -> [String] {
        let frames = layout.frames(), cells = layout.cells()
        return (0..<layout.itemCount).map { item in
            let frame = frames[item], cell = cells[item]
            return "\(item) \(cell.ring) \(cell.q) \(cell.r) \(frame.minX) \(frame.minY) \(frame.size.width) \(frame.size.height)"
        }
    }

    @Test("a honeycomb grid stores its geometry and placements, and keeps them right as items come and go")
    func storesPlacements() throws {
        let database = try GridDatabase(path: path)
        let configuration = try HoneycombConfiguration(elementWidth: 50, itemSpacing: 4, centerItem: .last)
        let grid = try Grid(named: "hive", in: database, creatingWith: GridOptions(honeycomb: configuration, itemCount: 19))
        var snapshot = try grid.snapshot()
        #expect(snapshot.kind == .honeycomb)
        #expect(try storedPlacements("hive") == expected(try #require(snapshot.honeycombLayout)))
        for count in [20, 37, 5, 0, 61] {
            snapshot = try grid.update { try $0.setItemCount(count, inSection: 0) }
            #expect(try storedPlacements("hive") == expected(try #require(snapshot.honeycombLayout)), "\(count)")
        }
        snapshot = try grid.update { try $0.insertItem(at: GridIndexPath(item: 0)) }
        #expect(snapshot.itemCounts == [62])
        // Read back through a fresh connection, the grid is the same honeycomb.
        let reopened = try Grid(named: "hive", in: GridDatabase(path: path), creatingWith: nil).snapshot()
        #expect(reopened.honeycomb == configuration)
        #expect(reopened.itemCounts == [62])
        let tiles = try database.readSQLite { try scalar($0, "SELECT count(*) FROM placement_chunks") }
        #expect(tiles == 0)
    }

    @Test("the original ring order and scaling curve are stored with the grid, on both backends", arguments: Backend.all)
    func originalOptions(backend: Backend) throws {
        let location = try backend.database(in: directory, name: "hive.sqlite")
        let configuration = try HoneycombConfiguration(centerItem: .last, ringOrder: .original, scalingCurve: .original)
        let grid = try Grid(named: "hive", in: GridDatabase(location: location),
                            creatingWith: GridOptions(honeycomb: configuration, itemCount: 8))
        let grown = try grid.update { try $0.setItemCount(12, inSection: 0) }
        let reread = try Grid(named: "hive", in: GridDatabase(location: location), creatingWith: nil).snapshot()
        #expect(reread == grown)
        #expect(reread.honeycomb?.ringOrder == .original && reread.honeycomb?.scalingCurve == .original)
        #expect(reread.honeycombLayout?.coordinate(ofItem: 0) == HexCoordinate(q: 0, r: 1))
        if backend == .sqlite {
            #expect(try storedPlacements("hive") == expected(try #require(reread.honeycombLayout)))
        }
        // Switching back to the standard order rewrites the placements that moved.
        let standard = try HoneycombConfiguration(centerItem: .last)
        let switched = try grid.replaceContent(GridContent(honeycomb: standard, itemCount: 12))
        #expect(switched.honeycombLayout?.coordinate(ofItem: 0) == HexCoordinate(q: 1, r: 0))
        if backend == .sqlite {
            #expect(try storedPlacements("hive") == expected(try #require(switched.honeycombLayout)))
        }
    }

    @Test("size, type and section changes are refused with a message that says how to switch layouts")
    func refusals() throws {
        let grid = try Grid(named: "hive", in: GridDatabase(path: path),
                            creatingWith: GridOptions(honeycomb: try HoneycombConfiguration(), itemCount: 7))
        _ = try grid.snapshot()
        let before = try DatabaseAudit.rows(path: path)
        let refusals: [(inout GridEditor) throws -> Void] = [
            { try $0.toggle(at: GridIndexPath(item: 0)) }, { try $0.setSize(.big, at: GridIndexPath(item: 1)) },
            { try $0.setType(.less) }, { try $0.toggleType() }, { try $0.setDirection(.horizontal) },
            { try $0.appendSection(itemCount: 3) }, { try $0.swapItems(GridIndexPath(item: 0), GridIndexPath(item: 1)) },
            { try $0.resetSizes() }, { try $0.moveItem(from: GridIndexPath(item: 0), to: GridIndexPath(item: 1)) },
        ]
        for refusal in refusals {
            #expect(throws: GridError.self) { try grid.update(refusal) }
        }
        #expect(try DatabaseAudit.rows(path: path) == before)
        let error = GridError.notTiles(operation: "have sizes", grid: "hive")
        #expect(error.description == "'hive' is a honeycomb: its items have no sizes and it has one section, so it cannot have sizes")
    }

    @Test("replacing content switches between tiles and a honeycomb, cleaning up the other layout's rows")
    func switchingLayouts() throws {
        let database = try GridDatabase(path: path)
        let grid = try Grid(named: "g", in: database)
        try grid.toggle(at: GridIndexPath(item: 0))
        try grid.replaceContent(GridContent(honeycomb: try HoneycombConfiguration(), itemCount: 10))
        var counts = try database.readThroughViews { connection in
            [try scalar(connection, "SELECT count(*) FROM placement_chunks"), try scalar(connection, "SELECT count(*) FROM item_sizes"),
             try scalar(connection, "SELECT count(*) FROM honeycomb_placements"), try scalar(connection, "SELECT count(*) FROM honeycombs")]
        }
        #expect(counts == [0, 0, 10, 1])
        try grid.replaceContent(GridContent(columns: 6, sections: [[.big, nil]]))
        counts = try database.readThroughViews { connection in
            [try scalar(connection, "SELECT count(*) FROM placement_chunks"), try scalar(connection, "SELECT count(*) FROM item_sizes"),
             try scalar(connection, "SELECT count(*) FROM honeycomb_placements"), try scalar(connection, "SELECT count(*) FROM honeycombs")]
        }
        #expect(counts == [1, 1, 0, 0])
        #expect(try StoredGrid.read("g", path: path)?.placements == ["0:0:big:0,0,4,2", "0:1:small:4,0,1,1"])
    }
}
