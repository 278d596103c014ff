import Foundation
import GridLayout
import Synchronization
import GridStorePostgreSQL
import Testing
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit

/// One behaviour, three storages: every test runs against an SQLite file, a PostgreSQL
/// server and memory.
@Suite("GridSizeRepository conformance")
struct RepositoryConformanceTests {
    /// Makes a repository of a grid with sections of 12 and 5 items, all small.
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgreSQL, inMemory

        var testDescription: String { rawValue }

        /// Every kind, PostgreSQL only where it is installed or required.
        static var all: [Kind] { PostgreSQLTestServer.shouldTest ? allCases : [.sqlite, .inMemory] }

        func make(in directory: TemporaryDirectory) throws -> any GridSizeRepository {
            let options = GridOptions(type: .more, sectionItemCounts: [12, 5])
            switch self {
            case .sqlite:
                return try DatabaseGridSizeRepository(suiteName: "suite", database: GridDatabase(path: directory.file("r.sqlite")),
                                                    creatingWith: options)
            case .postgreSQL:
                let database = try GridDatabase(location: try PostgreSQLTestServer.shared().makeDatabase())
                return try DatabaseGridSizeRepository(suiteName: "suite", database: database, creatingWith: options)
            case .inMemory:
                return try InMemoryGridSizeRepository(name: "suite", options: options)
            }
        }
    }

    static let path3 = GridIndexPath(item: 3)

    @Test("sizes default to the registered default and read back what was set", arguments: Kind.all)
    func setAndRead(kind: Kind) throws {
        let directory = TemporaryDirectory()
        let repository = try kind.make(in: directory)
        #expect(try repository.size(at: Self.path3) == .small)
        try repository.set(.big, at: Self.path3)
        #expect(try repository.size(at: Self.path3) == .big)
        try repository.register(defaultSize: .middle)
        #expect(try repository.size(at: GridIndexPath(item: 0)) == .middle)
        #expect(try repository.size(at: Self.path3) == .big)
        try repository.removeSize(at: Self.path3)
        #expect(try repository.size(at: Self.path3) == .middle)
        // As UserDefaults' dictionaryRepresentation includes the registration domain: every item.
        let all = try repository.dictionaryRepresentation()
        #expect(all.count == 17 && all.values.allSatisfy { $0 == .middle })
    }

    @Test("a data source's counts are set in one change, none when they are the grid's; the view layout fills with the default size", arguments: Kind.all)
    func dataSourceCounts(kind: Kind) throws {
        let directory = TemporaryDirectory()
        let repository = try kind.make(in: directory)
        try repository.set(.big, at: GridIndexPath(item: 1, section: 1))
        let start = try repository.snapshot().revision
        #expect(try repository.setItemCounts([12, 5]).revision == start)
        let grown = try repository.setItemCounts([3, 7, 2])
        #expect(grown.revision == start + 1 && grown.itemCounts == [3, 7, 2])
        #expect(try repository.size(at: GridIndexPath(item: 1, section: 1)) == .big)
        let shrunk = try repository.setItemCounts([4])
        #expect(shrunk.revision == start + 2 && shrunk.itemCounts == [4])
        #expect(throws: GridError.invalidItemCount(-1)) { try repository.setItemCounts([2, -1]) }
        #expect(try repository.snapshot().itemCounts == [4])
        try repository.setDefaultSize(.middle)
        // The view is ahead of the stored grid: its extra items take the grid's default size.
        let layout = try repository.snapshot().viewLayout(itemCounts: [5, 1], viewport: LayoutViewport(width: 600, height: 800))
        #expect(layout.itemCounts == [5, 1])
        #expect(layout.frame(at: GridIndexPath(item: 0, section: 1)) == LayoutRect(x: 0, y: 400, width: 200, height: 200))   // after 5 middle tiles, 3 a row
    }

    @Test("counts that move items between sections fit the limit when the result does: sections shrink before others grow")
    func countsShrinkFirst() throws {
        let repository = try InMemoryGridSizeRepository(name: "big", options: GridOptions(sectionItemCounts: [300_000, 600_000]))
        #expect(try repository.setItemCounts([600_000, 300_000]).itemCounts == [600_000, 300_000])
        #expect(throws: GridError.self) { try repository.setItemCounts(Array(repeating: 0, count: 10_001)) }
        #expect(try repository.snapshot().itemCounts == [600_000, 300_000])
    }

    @Test("counts the grid already has take no write lock: they are read while another connection holds it")
    func unchangedCountsOnlyRead() throws {
        let directory = TemporaryDirectory()
        let sizes = try DatabaseGridSizeRepository(suiteName: "suite", database: GridDatabase(path: directory.file("r.sqlite")),
                                                   creatingWith: GridOptions(sectionItemCounts: [12, 5]))
        #expect(try sizes.snapshot().itemCounts == [12, 5])
        let other = try GridDatabase(path: directory.file("r.sqlite"))
        let holder = try Grid(named: "holder", in: other)
        try other.write { transaction in
            try transaction.update(holder) { try $0.toggle(at: GridIndexPath(item: 0)) }
            // Another thread, as another part of the app would: a call on this thread is refused as nested.
            let result = Mutex<Result<Int, any Error>?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                result.withLock { $0 = Result { try sizes.setItemCounts([12, 5]).revision } }
                done.signal()
            }
            done.wait()
            #expect(try result.withLock { try $0?.get() } == 0)
        }
    }

    @Test("toggle cycles small → middle → big → small by index path or key, one revision each, sync and async", arguments: Kind.all)
    func toggle(kind: Kind) async throws {
        let directory = TemporaryDirectory()
        let repository = try kind.make(in: directory)
        let start = try repository.snapshot().revision
        // The synchronous forms, from synchronous code.
        func synchronously() throws {
            #expect(try repository.toggle(at: Self.path3) == .middle)
            try repository.setItems(keys: ["mail", "news"], inSection: 0)
            #expect(try repository.toggle(forKey: "news") == .middle)
            #expect(throws: GridError.keyNotFound("nope", grid: "suite")) { try repository.toggle(forKey: "nope") }
            #expect(throws: GridError.self) { try repository.toggle(at: GridIndexPath(item: 9)) }
        }
        try synchronously()
        // The async forms, each on the database's executor.
        #expect(try await repository.changing { try $0.toggle(forKey: "news") } == .big)
        #expect(try await repository.changing { try $0.toggle(forKey: "news") } == .small)
        #expect(try await repository.reading { try $0.size(at: GridIndexPath(item: 1)) } == .small)
        #expect(try await repository.reading { try $0.snapshot() }.revision == start + 5)
    }

    @Test("register(defaultSize:) is volatile: never written, no revision, packs only this instance", arguments: Kind.all)
    func volatileRegistration(kind: Kind) throws {
        let directory = TemporaryDirectory()
        let repository = try kind.make(in: directory)
        let revision = try repository.snapshot().revision
        for _ in 0..<3 { try repository.register(defaultSize: .middle) }
        #expect(repository.registeredDefaultSize == .middle)
        let snapshot = try repository.snapshot()
        #expect(snapshot.revision == revision)
        #expect(snapshot.defaultSize == .middle)
        #expect(try snapshot.placement(at: GridIndexPath(item: 1)) == CellRect(x: 2, y: 0, width: 2, height: 2))
        // A toggle cycles from the size the instance shows: middle → big.
        try repository.update { try $0.toggle(at: GridIndexPath(item: 0)) }
        #expect(try repository.size(at: GridIndexPath(item: 0)) == .big)
        #expect(try repository.snapshot().revision == revision + 1)
        if let stored = repository as? DatabaseGridSizeRepository {
            // Another instance on the same grid sees the stored default, and the stored toggle.
            let other = try DatabaseGridSizeRepository(suiteName: "suite", database: stored.grid.database)
            #expect(other.registeredDefaultSize == nil)
            #expect(try other.size(at: GridIndexPath(item: 1)) == .small)
            #expect(try other.size(at: GridIndexPath(item: 0)) == .big)
            #expect(try other.snapshot().defaultSize == .small)
            try other.setDefaultSize(.big)
            #expect(try other.size(at: GridIndexPath(item: 1)) == .big)
            #expect(try other.snapshot().revision == revision + 2)
            // The registration still wins in the instance that made it.
            #expect(try repository.size(at: GridIndexPath(item: 1)) == .middle)
        }
    }

    @Test("item counts are asked and set as the app's data source decides", arguments: Kind.all)
    func itemCounts(kind: Kind) throws {
        let directory = TemporaryDirectory()
        let repository = try kind.make(in: directory)
        #expect(try repository.sectionCount() == 2)
        #expect(try repository.itemCount(inSection: 0) == 12)
        #expect(try repository.itemCount(inSection: 1) == 5)
        #expect(throws: GridError.sectionOutOfRange(2, sectionCount: 2)) { try repository.itemCount(inSection: 2) }
        try repository.setItemCount(20, inSection: 0)
        try repository.set(.big, at: GridIndexPath(item: 19))
        #expect(try repository.itemCount(inSection: 0) == 20)
        #expect(throws: GridError.itemOutOfRange(GridIndexPath(item: 20), itemCount: 20, allowsEnd: false)) {
            try repository.set(.big, at: GridIndexPath(item: 20))
        }
        #expect(throws: GridError.invalidItemCount(-5)) { try repository.setItemCount(-5, inSection: 0) }
        try repository.setItemCount(3, inSection: 1)
        #expect(try repository.itemCount(inSection: 1) == 3)
    }

    @Test("dictionaryRepresentation holds exactly the sizes set; removeAll clears them", arguments: Kind.all)
    func dictionary(kind: Kind) throws {
        let directory = TemporaryDirectory()
        let repository = try kind.make(in: directory)
        let wanted: [GridIndexPath: TileSize] = [
            GridIndexPath(item: 0): .middle, GridIndexPath(item: 11): .big, GridIndexPath(item: 4, section: 1): .small,
        ]
        try repository.set(wanted)
        #expect(try repository.dictionaryRepresentation() == wanted)
        try repository.removeAll()
        #expect(try repository.dictionaryRepresentation().isEmpty)
        #expect(try repository.size(at: GridIndexPath(item: 11)) == .small)
    }

    @Test("swap exchanges two items' sizes, across sections too", arguments: Kind.all)
    func swap(kind: Kind) throws {
        let directory = TemporaryDirectory()
        let repository = try kind.make(in: directory)
        try repository.set(.big, at: GridIndexPath(item: 1))
        try repository.set(.middle, at: GridIndexPath(item: 2, section: 1))
        try repository.swap(GridIndexPath(item: 1), GridIndexPath(item: 2, section: 1))
        #expect(try repository.dictionaryRepresentation()
                == [GridIndexPath(item: 1): .middle, GridIndexPath(item: 2, section: 1): .big])
        try repository.swap(GridIndexPath(item: 1), GridIndexPath(item: 5))
        #expect(try repository.dictionaryRepresentation()
                == [GridIndexPath(item: 5): .middle, GridIndexPath(item: 2, section: 1): .big])
    }

    @Test("insert, delete and move carry sizes with their items", arguments: Kind.all)
    func collectionEdits(kind: Kind) throws {
        let directory = TemporaryDirectory()
        let repository = try kind.make(in: directory)
        try repository.set([GridIndexPath(item: 2): .big, GridIndexPath(item: 5): .middle])
        try repository.insertItem(at: GridIndexPath(item: 0))
        #expect(try repository.dictionaryRepresentation() == [GridIndexPath(item: 3): .big, GridIndexPath(item: 6): .middle])
        #expect(try repository.snapshot().itemCounts == [13, 5])
        try repository.deleteItem(at: GridIndexPath(item: 4))
        #expect(try repository.dictionaryRepresentation() == [GridIndexPath(item: 3): .big, GridIndexPath(item: 5): .middle])
        try repository.moveItem(from: GridIndexPath(item: 3), to: GridIndexPath(item: 11))
        #expect(try repository.dictionaryRepresentation() == [GridIndexPath(item: 11): .big, GridIndexPath(item: 4): .middle])
        try repository.moveItem(from: GridIndexPath(item: 11), to: GridIndexPath(item: 0, section: 1))
        #expect(try repository.dictionaryRepresentation() == [GridIndexPath(item: 0, section: 1): .big, GridIndexPath(item: 4): .middle])
        #expect(try repository.snapshot().itemCounts == [11, 6])
        try repository.insertItem(at: GridIndexPath(item: 6, section: 1))  // appending is allowed
        #expect(try repository.snapshot().itemCounts == [11, 7])
    }

    @Test("index paths that do not exist are refused, and nothing changes", arguments: Kind.all)
    func outOfRange(kind: Kind) throws {
        let directory = TemporaryDirectory()
        let repository = try kind.make(in: directory)
        try repository.set(.big, at: Self.path3)
        let before = try repository.snapshot()
        let attempts: [(String, () throws -> Void)] = [
            ("size", { _ = try repository.size(at: GridIndexPath(item: 12)) }),
            ("set", { try repository.set(.big, at: GridIndexPath(item: -1)) }),
            ("set section", { try repository.set(.big, at: GridIndexPath(item: 0, section: 2)) }),
            ("bulk", { try repository.set([GridIndexPath(item: 0): .big, GridIndexPath(item: 99): .big]) }),
            ("insert", { try repository.insertItem(at: GridIndexPath(item: 13)) }),
            ("delete", { try repository.deleteItem(at: GridIndexPath(item: 5, section: 1)) }),
            ("move", { try repository.moveItem(from: GridIndexPath(item: 0), to: GridIndexPath(item: 12)) }),
            ("swap", { try repository.swap(GridIndexPath(item: 0), GridIndexPath(item: 0, section: 9)) }),
        ]
        for (name, attempt) in attempts {
            #expect(throws: GridError.self, "\(name)") { try attempt() }
        }
        let after = try repository.snapshot()
        #expect(after.revision == before.revision)
        #expect(after.explicitSizesByPath == before.explicitSizesByPath)
        #expect(after.itemCounts == before.itemCounts)
        let error = GridError.itemOutOfRange(GridIndexPath(item: 12), itemCount: 12, allowsEnd: false)
        #expect(error.description == "item 12 does not exist: section 0 has 12 item(s), so the index is 0 to 11")
    }

    @Test("every change is one revision, and the layout follows the sizes", arguments: Kind.all)
    func revisionsAndLayout(kind: Kind) throws {
        let directory = TemporaryDirectory()
        let repository = try kind.make(in: directory)
        let start = try repository.snapshot().revision
        try repository.set(.big, at: GridIndexPath(item: 0))
        try repository.set([GridIndexPath(item: 1): .middle, GridIndexPath(item: 2): .middle])
        let snapshot = try repository.snapshot()
        #expect(snapshot.revision == start + 2)
        #expect(try snapshot.placement(at: GridIndexPath(item: 0)) == CellRect(x: 0, y: 0, width: 4, height: 2))
        #expect(try snapshot.placement(at: GridIndexPath(item: 1)) == CellRect(x: 4, y: 0, width: 2, height: 2))
        #expect(try snapshot.placement(at: GridIndexPath(item: 2)) == CellRect(x: 0, y: 2, width: 2, height: 2))
    }

    @Test("a change that changes nothing adds no revision and wakes no observer", arguments: Kind.all)
    func noOpChanges(kind: Kind) throws {
        let directory = TemporaryDirectory()
        let repository = try kind.make(in: directory)
        try repository.set(.big, at: GridIndexPath(item: 0))
        let revision = try repository.snapshot().revision
        try repository.set(.big, at: GridIndexPath(item: 0))
        try repository.swap(GridIndexPath(item: 1), GridIndexPath(item: 2))
        try repository.update { editor in
            for _ in 0..<3 { try editor.toggle(at: GridIndexPath(item: 5)) }
        }
        try repository.update { try $0.setType(.more) }
        #expect(try repository.snapshot().revision == revision)
        if let grid = (repository as? DatabaseGridSizeRepository)?.grid {
            #expect(try !grid.hasChanged(since: revision))
        }
        try repository.update { try $0.toggle(at: GridIndexPath(item: 5)) }
        #expect(try repository.snapshot().revision == revision + 1)
    }

    @Test("many threads at once lose no update", arguments: Kind.all)
    func threads(kind: Kind) async throws {
        let directory = TemporaryDirectory()
        let repository = try kind.make(in: directory)
        let start = try repository.snapshot().revision
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for step in 0..<25 {
                        let path = GridIndexPath(item: (worker + step) % 12)
                        // A toggle always changes the grid, so every call must add one revision.
                        try repository.update { try $0.toggle(at: path) }
                        _ = try repository.size(at: path)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try repository.snapshot().revision == start + 200)
    }

    @Test("history: undo, redo, older revisions and revert behave alike in every storage", arguments: Kind.all)
    func history(kind: Kind) throws {
        let directory = TemporaryDirectory()
        let repository = try kind.make(in: directory)
        var states = [try repository.snapshot()]
        try repository.set(.big, at: Self.path3)
        states.append(try repository.snapshot())
        try repository.insertItem(at: GridIndexPath(item: 0))
        states.append(try repository.snapshot())
        try repository.setItems(keys: ["a", "b"], inSection: 1)
        states.append(try repository.snapshot())
        #expect(try repository.history().map(\.kind) == [.change, .change, .change])
        #expect(try repository.undo(2).content == states[1].content)
        #expect(try repository.snapshot(at: 2).content == states[2].content)
        #expect(try repository.redo().content == states[2].content)
        #expect(throws: GridError.nothingToUndo(requested: 3, available: 2)) { try repository.undo(3) }
        #expect(try repository.revert(to: 0).content == states[0].content)
        #expect(try repository.history(limit: 2).map(\.kind) == [.revert, .redo])
        // With a registered default, what is read is what this instance sees.
        try repository.register(defaultSize: .middle)
        #expect(try repository.snapshot(at: 1).layout.size(at: GridIndexPath(item: 0)) == .middle)
    }
}

@Suite("Registered default sizes")
struct RegisteredDefaultSizeTests {
    @Test("a grid dropped and made again with the same revision is not mistaken for the old one")
    func recreatedGrid() throws {
        let directory = TemporaryDirectory()
        let database = try GridDatabase(path: directory.file("g.sqlite"))
        let repository = try DatabaseGridSizeRepository(suiteName: "s", database: database)
        repository.register(defaultSize: .middle)
        try repository.set(.big, at: GridIndexPath(item: 0))
        #expect(try repository.size(at: GridIndexPath(item: 0)) == .big)
        try Grid.drop(named: "s", in: database)
        let other = try DatabaseGridSizeRepository(suiteName: "s", database: database)
        try other.set(.small, at: GridIndexPath(item: 0))   // revision 1 again, other content
        #expect(try repository.size(at: GridIndexPath(item: 0)) == .small)
        #expect(try repository.size(at: GridIndexPath(item: 1)) == .middle)
    }

}
