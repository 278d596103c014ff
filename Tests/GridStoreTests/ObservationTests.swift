import Foundation
import GridLayout
import Synchronization
import Testing
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit

/// `changes()` on grids and repositories, and the `async` forms: what changed is listed,
/// slow consumers are coalesced, observing never creates, and waiting never blocks the pool.
@Suite("Observation and async")
struct ObservationTests {
    let directory = TemporaryDirectory()

    @Test("each change lists the items resized and moved since the state the observer saw", arguments: Backend.all)
    func diffs(backend: Backend) async throws {
        let grid = try Grid(named: "g", in: GridDatabase(location: backend.database(in: directory)),
                            creatingWith: GridOptions(type: .less, sectionItemCounts: [8]))
        _ = try grid.snapshot()
        var changes = grid.changes(pollingEvery: .milliseconds(5)).makeAsyncIterator()
        let first = try #require(try await changes.next())
        #expect(first.isInitial && first.resized.isEmpty && first.moved.isEmpty)
        try grid.toggle(at: GridIndexPath(item: 1))
        let change = try #require(try await changes.next())
        #expect(!change.isInitial)
        #expect(change.resized == [GridIndexPath(item: 1)])
        // Item 1 grows to 2x2 (its rectangle changes); it pushes item 3 to the second row.
        #expect(change.moved.contains(GridIndexPath(item: 1)))
        #expect(change.moved.contains(GridIndexPath(item: 3)))
        #expect(!change.moved.contains(GridIndexPath(item: 0)))
        try grid.update { try $0.insertItem(at: GridIndexPath(item: 8)) }
        #expect(try await changes.next()?.recountedSections == [0])
    }

    @Test("a slow consumer gets the latest state with everything that changed since it last looked")
    func coalesced() async throws {
        let grid = try Grid(named: "g", in: GridDatabase(path: directory.file("g.sqlite")))
        _ = try grid.snapshot()
        var changes = grid.changes(pollingEvery: .milliseconds(5)).makeAsyncIterator()
        _ = try await changes.next()
        for item in 0..<5 { try grid.toggle(at: GridIndexPath(item: item)) }
        let change = try #require(try await changes.next())
        #expect(change.revision == 5)
        #expect(change.resized == (0..<5).map { GridIndexPath(item: $0) })
    }

    @Test("observing never creates a grid; a dropped grid ends the stream with gridNotFound", arguments: Backend.all)
    func dropped(backend: Backend) async throws {
        let database = try GridDatabase(location: backend.database(in: directory))
        let grid = try Grid(named: "g", in: database)   // may be created by a change, not by looking
        #expect(throws: GridError.gridNotFound("g")) { try grid.currentRevision() }
        #expect(throws: GridError.gridNotFound("g")) { try grid.hasChanged(since: 0) }
        var missing = grid.changes(pollingEvery: .milliseconds(5)).makeAsyncIterator()
        await #expect(throws: GridError.gridNotFound("g")) { _ = try await missing.next() }
        #expect(try Grid.list(in: database).isEmpty)
        try grid.toggle(at: GridIndexPath(item: 0))
        var changes = grid.changes(pollingEvery: .milliseconds(5)).makeAsyncIterator()
        _ = try await changes.next()
        try Grid.drop(named: "g", in: database)
        await #expect(throws: GridError.gridNotFound("g")) { _ = try await changes.next() }
        #expect(try Grid.list(in: database).isEmpty)
    }

    @Test("a repository's changes: another process's change, and this instance's registered default", arguments: Backend.all)
    func repositoryChanges(backend: Backend) async throws {
        let database = try GridDatabase(location: backend.database(in: directory))
        let repository = try DatabaseGridSizeRepository(suiteName: "s", database: database)
        let other = try DatabaseGridSizeRepository(suiteName: "s", database: database)
        try repository.set(.big, at: GridIndexPath(item: 0))
        var changes = repository.changes(pollingEvery: .milliseconds(5)).makeAsyncIterator()
        #expect(try await changes.next()?.revision == 1)
        try other.set(.middle, at: GridIndexPath(item: 2))
        #expect(try await changes.next()?.resized == [GridIndexPath(item: 2)])
        repository.register(defaultSize: .middle)
        let registered = try #require(try await changes.next())
        #expect(registered.revision == 2 && registered.settingsChanged)
        #expect(registered.snapshot.defaultSize == .middle)
        let inMemory = try InMemoryGridSizeRepository()
        var memoryChanges = inMemory.changes(pollingEvery: .milliseconds(5)).makeAsyncIterator()
        _ = try await memoryChanges.next()
        try inMemory.set(.big, at: GridIndexPath(item: 3))
        #expect(try await memoryChanges.next()?.resized == [GridIndexPath(item: 3)])
    }

    @Test("async calls do their database work on a thread of gridstore's own, not the caller's")
    func offThePool() async throws {
        let grid = try Grid(named: "g", in: GridDatabase(path: directory.file("g.sqlite")))
        // Thread identities are reused once a thread ends, so the executor's own mark tells.
        #expect(!ConnectionExecutor.isServing)
        #expect(try await grid.changing { _ in ConnectionExecutor.isServing })
        // Calls queued at once run on the executor's threads, never the caller's.
        let served = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<50 { group.addTask { try await grid.reading { _ in ConnectionExecutor.isServing } } }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(served.count == 50 && !served.contains(false))
        #expect(try await grid.changing { try $0.toggle(at: GridIndexPath(item: 0)) }.revision == 1)
        // A synchronous call inside an async one runs in its turn, on the same thread.
        #expect(try await grid.changing { grid in try grid.toggle(at: GridIndexPath(item: 0)); return ConnectionExecutor.isServing })
        // Many waiting at once, more than the pool has threads, is checked by the reliability
        // suite ("async pool"), in a process of its own: here other tests keep the pool busy.
    }
}

extension ObservationTests {
    @Test("a hundred observed grids share one change signal; another connection's change wakes the one it changed",
          arguments: Backend.all)
    func hundredObservers(backend: Backend) async throws {
        let location = try backend.database(in: directory)
        let database = try GridDatabase(location: location)
        let grids = try (0..<100).map { try Grid(named: "g\($0)", in: database, creatingWith: GridOptions(sectionItemCounts: [4])) }
        try database.write { transaction in
            for grid in grids { try transaction.update(grid) { try $0.toggle(at: GridIndexPath(item: 0)) } }
        }
        let ready = Tally()
        // A long polling interval: a change seen sooner came through the signal.
        let seen = try await withThrowingTaskGroup(of: (Int, Int)?.self) { group in
            for (index, grid) in grids.enumerated() {
                group.addTask {
                    for try await change in grid.changes(pollingEvery: .seconds(60)) {
                        if change.isInitial { ready.add(); continue }
                        return (index, change.revision)
                    }
                    return nil
                }
            }
            while ready.value < grids.count { try await Task.sleep(for: .milliseconds(5)) }
            let elsewhere = try GridDatabase(location: location)
            try Grid(named: "g42", in: elsewhere, creatingWith: nil).toggle(at: GridIndexPath(item: 1))
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        #expect(seen?.0 == 42 && seen?.1 == 2)
        #expect(database.watch.loopsStarted == 1)
    }
}

extension ObservationTests {
    @Test("an observed grid dropped and made again is seen, though its revisions start anew")
    func recreated() async throws {
        let database = try GridDatabase(path: directory.file("again.sqlite"))
        let grid = try Grid(named: "g", in: database)
        for item in 0..<3 { try grid.toggle(at: GridIndexPath(item: item)) }
        var changes = grid.changes(pollingEvery: .milliseconds(5)).makeAsyncIterator()
        #expect(try await changes.next()?.revision == 3)
        try Grid.create(named: "g", in: GridDatabase(path: directory.file("again.sqlite")),
                        content: GridContent(GridOptions(sectionItemCounts: [2])), replacing: true)
        let again = try #require(try await changes.next())
        #expect(again.revision == 0)
        #expect(again.snapshot.totalItemCount == 2)
    }
}

/// A count shared between tasks.
final class Tally: Sendable {
    private let count = Atomic(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
