import GridLayout
import SeededRandom
import GridStoreAudit
import Testing
import GridStorePostgreSQL
@testable import GridStore
@testable import GridStoreSQLite

@Suite("Grid")
struct GridTests {
    let directory = TemporaryDirectory()

    /// Checks that the stored placements are a fresh pack of the stored sizes and returns what is stored.
    @discardableResult
    func expectConsistent(_ name: String = "default", at path: String,
                          sourceLocation: SourceLocation = #_sourceLocation) throws -> StoredGrid {
        let stored = try #require(try StoredGrid.read(name, path: path), sourceLocation: sourceLocation)
        #expect(stored.placements == stored.freshPlacements(), sourceLocation: sourceLocation)
        return stored
    }

    @Test("a missing grid is created with 12 small items in one section of type more, at its first use", arguments: Backend.all)
    func creation(backend: Backend) throws {
        let path = try backend.database(in: directory)
        let grid = try Grid(named: "default", in: GridDatabase(location: path))
        #expect(try StoredGrid.read("default", path: path) == nil)
        let snapshot = try grid.snapshot()
        #expect(snapshot.itemCounts == [12])
        #expect(snapshot.type == .more)
        #expect(snapshot.revision == 0)
        let stored = try expectConsistent(at: path)
        #expect(stored.placements.count == 12)
        #expect(stored.placements[11] == "0:11:small:5,1,1,1")
        #expect(throws: GridError.gridNotFound("other")) { try Grid(named: "other", in: GridDatabase(location: path), creatingWith: nil) }
    }

    @Test("a refused change to a missing grid leaves no grid behind", arguments: Backend.all)
    func refusedFirstUse(backend: Backend) throws {
        let path = try backend.database(in: directory)
        let grid = try Grid(named: "default", in: GridDatabase(location: path))
        #expect(throws: GridError.self) { try grid.toggle(at: GridIndexPath(item: 12)) }
        #expect(try StoredGrid.read("default", path: path) == nil)
        try grid.toggle(at: GridIndexPath(item: 11))
        #expect(try StoredGrid.read("default", path: path)?.revision == 1)
    }

    @Test("every operation is one revision and leaves stored placements equal to a fresh pack", arguments: Backend.all)
    func everyOperation(backend: Backend) throws {
        let path = try backend.database(in: directory)
        let database = try GridDatabase(location: path)
        let grid = try Grid(named: "default", in: database)
        let operations: [(String, (inout GridEditor) throws -> Void)] = [
            ("toggle", { try $0.toggle(at: GridIndexPath(item: 3)) }),
            ("toggle again", { try $0.toggle(at: GridIndexPath(item: 3)) }),
            ("set", { try $0.setSize(.middle, at: GridIndexPath(item: 0)) }),
            ("unset", { try $0.setSize(nil, at: GridIndexPath(item: 0)) }),
            ("bulk", { try $0.setSizes([(GridIndexPath(item: 5), .big), (GridIndexPath(item: 1), .middle)]) }),
            ("default size", { try $0.setDefaultSize(.middle) }),
            ("type less", { try $0.setType(.less) }),
            ("toggle type", { try $0.toggleType() }),
            ("columns", { try $0.setColumns(9) }),
            ("direction", { try $0.setDirection(.horizontal) }),
            ("grow", { try $0.setItemCount(300, inSection: 0) }),
            ("insert", { try $0.insertItem(at: GridIndexPath(item: 0), size: .big) }),
            ("append", { try $0.insertItem(at: GridIndexPath(item: 301)) }),
            ("delete", { try $0.deleteItem(at: GridIndexPath(item: 2)) }),
            ("move down", { try $0.moveItem(from: GridIndexPath(item: 0), to: GridIndexPath(item: 250)) }),
            ("move up", { try $0.moveItem(from: GridIndexPath(item: 250), to: GridIndexPath(item: 1)) }),
            ("swap", { try $0.swapItems(GridIndexPath(item: 1), GridIndexPath(item: 299)) }),
            ("add section", { try $0.appendSection(itemCount: 40) }),
            ("add section 2", { try $0.appendSection(itemCount: 7) }),
            ("move across", { try $0.moveItem(from: GridIndexPath(item: 3), to: GridIndexPath(item: 0, section: 1)) }),
            ("remove middle section", { try $0.removeSection(at: 1) }),
            ("shrink", { try $0.setItemCount(100, inSection: 0) }),
            ("vertical", { try $0.setDirection(.vertical) }),
            ("reset", { try $0.resetSizes() }),
            ("replace", {
                try $0.replaceContent(GridContent(columns: 4, direction: .vertical, defaultSize: .small,
                                                  sections: [[.big, nil, .middle], [], [nil, .big]]))
            }),
        ]
        var revision = try grid.snapshot().revision
        for (name, operation) in operations {
            let snapshot = try grid.update(operation)
            revision += 1
            #expect(snapshot.revision == revision, "\(name)")
            let stored = try expectConsistent(at: path)
            #expect(stored.revision == revision, "\(name)")
            #expect(stored.itemCounts == snapshot.itemCounts, "\(name)")
            #expect(stored.columns == snapshot.columns, "\(name)")
        }
        let final = try expectConsistent(at: path)
        #expect(final.itemCounts == [3, 0, 2])
        #expect(final.explicitSizes == ["0:0:big", "0:2:middle", "2:1:big"])
    }

    @Test("a refused operation writes nothing, revision included", arguments: Backend.all)
    func refusedOperations(backend: Backend) throws {
        let path = try backend.database(in: directory)
        let grid = try Grid(named: "default", in: GridDatabase(location: path))
        try grid.setSize(.big, at: GridIndexPath(item: 2))
        let before = try DatabaseAudit.rows(path: path)
        let refusals: [(inout GridEditor) throws -> Void] = [
            { try $0.toggle(at: GridIndexPath(item: 12)) },
            { try $0.setColumns(3) },
            { try $0.setColumns(65) },
            { try $0.setItemCount(-1, inSection: 0) },
            { try $0.setItemCount(GridLimits.maximumItems + 1, inSection: 0) },
            { try $0.removeSection(at: 1) },
            { try $0.insertItem(at: GridIndexPath(item: 13)) },
            // Edits before a refusal in the same update are not saved either.
            { try $0.toggle(at: GridIndexPath(item: 0)); try $0.deleteItem(at: GridIndexPath(item: 40)) },
            { editor in try editor.setColumns(7); try editor.toggleType() },
        ]
        for refusal in refusals {
            #expect(throws: GridError.self) { try grid.update(refusal) }
        }
        #expect(try DatabaseAudit.rows(path: path) == before)
        #expect(try grid.snapshot().revision == 1)
    }

    @Test("a long random sequence of operations keeps placements equal to a fresh pack", arguments: Backend.all)
    func randomSequence(backend: Backend) throws {
        let path = try backend.database(in: directory)
        var generator = SeededGenerator(seed: 2026)
        let grid = try Grid(named: "random", in: GridDatabase(location: path),
                            creatingWith: GridOptions(type: .more, sectionItemCounts: [200, 50]))
        for step in 0..<300 {
            _ = try? grid.update { editor in
                let snapshot = editor.snapshot
                let section = Int.random(in: 0..<max(1, snapshot.itemCounts.count), using: &generator)
                let count = snapshot.itemCounts.isEmpty ? 0 : snapshot.itemCounts[section]
                let item = Int.random(in: 0..<max(1, count), using: &generator)
                let path = GridIndexPath(item: item, section: section)
                switch Int.random(in: 0..<12, using: &generator) {
                case 0, 1, 2: try editor.toggle(at: path)
                case 3: try editor.setSize(TileSize.allCases.randomElement(using: &generator), at: path)
                case 4: try editor.insertItem(at: GridIndexPath(item: Int.random(in: 0...count, using: &generator), section: section))
                case 5: try editor.deleteItem(at: path)
                case 6: try editor.moveItem(from: path, to: GridIndexPath(item: Int.random(in: 0..<max(1, count), using: &generator), section: section))
                case 7: try editor.setType(Bool.random(using: &generator) ? .less : .more)
                case 8: try editor.setItemCount(Int.random(in: 0...260, using: &generator), inSection: section)
                case 9: try editor.swapItems(path, GridIndexPath(item: Int.random(in: 0..<max(1, count), using: &generator), section: section))
                case 10: try editor.setDirection(Bool.random(using: &generator) ? .vertical : .horizontal)
                default:
                    if snapshot.itemCounts.count < 4 { try editor.appendSection(itemCount: 30) } else { try editor.removeSection(at: 0) }
                }
            }
            if step % 25 == 0 { try expectConsistent("random", at: path) }
        }
        try expectConsistent("random", at: path)
    }

    @Test("a change made through one connection is seen through another", arguments: Backend.all)
    func crossConnection(backend: Backend) throws {
        let path = try backend.database(in: directory)
        let first = try Grid(named: "default", in: GridDatabase(location: path))
        let second = try Grid(named: "default", in: GridDatabase(location: path))
        _ = try second.snapshot()
        try first.setSize(.big, at: GridIndexPath(item: 0))
        #expect(try second.snapshot().explicitSizesByPath == [GridIndexPath(item: 0): .big])
        #expect(try second.hasChanged(since: 0))
        try second.toggle(at: GridIndexPath(item: 0))
        #expect(try first.snapshot().explicitSizesByPath.isEmpty)   // back to the default size
        #expect(try first.currentRevision() == 2)
    }

    @Test("8 threads with separate connections, 200 operations each: no error, no lost update", arguments: Backend.all)
    func concurrentConnections(backend: Backend) async throws {
        let path = try backend.database(in: directory)
        _ = try Grid(named: "default", in: GridDatabase(location: path), creatingWith: GridOptions(sectionItemCounts: [60])).snapshot()
        let changes = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var changes = 0
                    let grid = try Grid(named: "default", in: GridDatabase(location: path), creatingWith: nil)
                    var generator = SeededGenerator(seed: UInt64(worker))
                    for _ in 0..<200 {
                        var changed = false
                        try grid.update { editor in
                            let before = (editor.snapshot.explicitSizes, editor.snapshot.itemCounts)
                            // Every operation is valid whatever the others did before it.
                            let count = editor.snapshot.itemCounts[0]
                            let item = Int.random(in: 0..<20, using: &generator)
                            switch Int.random(in: 0..<6, using: &generator) {
                            case 0, 1: try editor.toggle(at: GridIndexPath(item: item))
                            case 2: try editor.setSize(.middle, at: GridIndexPath(item: item))
                            case 3: try editor.insertItem(at: GridIndexPath(item: item), size: .big)
                            case 4: try count > 30 ? editor.deleteItem(at: GridIndexPath(item: item)) : editor.insertItem(at: GridIndexPath(item: 0))
                            default: try editor.moveItem(from: GridIndexPath(item: item), to: GridIndexPath(item: count - 1))
                            }
                            // Moving a tile among tiles of its size, or setting the size it has, changes nothing.
                            changed = (editor.snapshot.explicitSizes, editor.snapshot.itemCounts) != before
                        }
                        if changed { changes += 1 }
                    }
                    return changes
                }
            }
            return try await group.reduce(0, +)
        }
        let stored = try expectConsistent(at: path)
        // Every change adds exactly one revision; an operation that changes nothing adds none.
        #expect(stored.revision == changes)
        #expect(stored.revision > 1_000)
        if backend == .sqlite {
            let check = try SQLiteConnection(path: path)
            #expect(try text(check, "PRAGMA integrity_check") == "ok")
            #expect(try text(check, "PRAGMA foreign_key_check") == "")
        }
    }

    @Test("changes(): the current state, then each change, including another connection's", arguments: Backend.all)
    func observation(backend: Backend) async throws {
        let path = try backend.database(in: directory)
        let grid = try Grid(named: "default", in: GridDatabase(location: path))
        let other = try Grid(named: "default", in: GridDatabase(location: path))
        _ = try grid.snapshot()
        var iterator = grid.changes(pollingEvery: .milliseconds(5)).makeAsyncIterator()
        #expect(try await iterator.next()?.revision == 0)
        try other.toggle(at: GridIndexPath(item: 1))
        let seen = try await iterator.next()
        #expect(seen?.revision == 1)
        #expect(try seen?.snapshot.size(at: GridIndexPath(item: 1)) == .middle)
    }

    @Test("grids are listed, replaced with --force semantics, and dropped with their rows", arguments: Backend.all)
    func listAndDrop(backend: Backend) throws {
        let path = try backend.database(in: directory)
        let database = try GridDatabase(location: path)
        _ = try Grid(named: "b", in: database).snapshot()
        _ = try Grid(named: "a ' ; DROP TABLE grids; --", in: database, creatingWith: GridOptions(type: .less, sectionItemCounts: [3, 4]))
            .snapshot()
        let names = try Grid.list(in: database).map(\.name)
        #expect(names == ["a ' ; DROP TABLE grids; --", "b"])
        #expect(try Grid.list(in: database).first?.itemCount == 7)
        #expect(throws: GridError.gridExists("b")) {
            try Grid.create(named: "b", in: database, content: GridContent(columns: 6, sections: [[]]))
        }
        try Grid.create(named: "b", in: database, content: GridContent(columns: 8, sections: [[.big]]), replacing: true)
        #expect(try Grid(named: "b", in: database, creatingWith: nil).snapshot().columns == 8)
        try Grid.drop(named: "b", in: database)
        #expect(throws: GridError.gridNotFound("b")) { try Grid.drop(named: "b", in: database) }
        // One chunk for each of the remaining grid's two sections.
        #expect(try DatabaseAudit.rows(path: path).filter { $0.hasPrefix("placement_chunks:") }.count == 2)
        #expect(throws: GridError.self) { try Grid(named: "", in: database) }
        #expect(throws: GridError.self) { try Grid(named: "line\nbreak", in: database) }
    }
}

@Suite("Grid options an app could pass")
struct GridOptionsLimitTests {
    @Test("huge, negative and overflowing counts are refused before anything is allocated", arguments: [
        [Int.max], [Int.max, 1], [3_000_000_000], [-5], [GridLimits.maximumItems, 1],
    ])
    func refusedCounts(counts: [Int]) throws {
        let directory = TemporaryDirectory()
        let database = try GridDatabase(path: directory.file("grids.sqlite"))
        #expect(throws: GridError.self) { try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: counts)) }
        #expect(throws: GridError.self) { try InMemoryGridSizeRepository(options: GridOptions(sectionItemCounts: counts)) }
        if counts.count == 1 {
            #expect(throws: GridError.self) {
                try InMemoryGridSizeRepository(options: GridOptions(honeycomb: HoneycombConfiguration(), itemCount: counts[0]))
            }
        }
        #expect(try Grid.list(in: database).isEmpty)
    }
}
