import Foundation
import GridLayout
import Synchronization
import Testing
@testable import GridStore
@testable import GridStoreSQLite

/// `GridDatabase.close()`: what an iOS app calls on its way to the background, so that it holds
/// no lock on a file in a shared container.
@Suite("Closing a database", .timeLimit(.minutes(5)))
struct CloseTests {
    /// The descriptors this process holds on the database file, its log and its shared memory.
    static func openDescriptors(on path: String) -> Int {
        let names = Set([path, path + "-wal", path + "-shm"].map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path })
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter { descriptor in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + descriptor) else { return false }
            return names.contains(target)
        }.count
    }

    static func isClosed(_ error: any Error) -> Bool {
        if case GridError.storage(let failure) = error { return failure.kind == .closed }
        return false
    }

    @Test("close() releases every descriptor on the file, its log and shared memory, observation's included; observation ends with the error")
    func releasesTheFile() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("closed.sqlite")
        let database = try GridDatabase(path: path)
        let grid = try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [8]))
        try grid.toggle(at: GridIndexPath(item: 1))
        let firstSeen = Mutex(false)
        let observation = Task {
            for try await _ in grid.changes() { firstSeen.withLock { $0 = true } }
        }
        while !firstSeen.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        _ = try grid.snapshot()
        #expect(Self.openDescriptors(on: path) > 0)
        try database.close()
        #expect(Self.openDescriptors(on: path) == 0)
        #expect(database.isClosed)
        await #expect { try await observation.value } throws: { Self.isClosed($0) }
        // What was committed is in the file alone: a copy of it without its -wal has every change.
        try FileManager.default.copyItem(atPath: path, toPath: directory.file("copy.sqlite"))
        #expect(try Grid(named: "g", in: GridDatabase(path: directory.file("copy.sqlite")), creatingWith: nil).snapshot().revision == 1)
    }

    @Test("after close() every call throws a closed failure; closing again does nothing; closing inside a call is refused")
    func callsAfterClose() throws {
        let directory = TemporaryDirectory()
        let database = try GridDatabase(path: directory.file("c.sqlite"))
        let grid = try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [4]))
        let sizes = try DatabaseGridSizeRepository(suiteName: "s", database: database, creatingWith: GridOptions(sectionItemCounts: [4]))
        _ = try sizes.snapshot()
        try grid.toggle(at: GridIndexPath(item: 3))
        #expect(throws: GridError.reentrantCall) { try database.write { _ in try database.close() } }
        #expect(!database.isClosed)
        try database.close()
        try database.close()
        #expect { try grid.toggle(at: GridIndexPath(item: 0)) } throws: { Self.isClosed($0) }
        #expect { try sizes.size(at: GridIndexPath(item: 0)) } throws: { Self.isClosed($0) }
        #expect { try Grid.list(in: database) } throws: { Self.isClosed($0) }
        #expect { try database.checkpoint() } throws: { Self.isClosed($0) }
        #expect { try database.migrationStatus() } throws: { Self.isClosed($0) }
        let notes = MigrationRunner(namespace: "notes", migrations: try MigrationSet(files: [("0001_notes.sql", "CREATE TABLE notes (body TEXT) STRICT;")]))
        #expect { try database.migrate(notes) } throws: { Self.isClosed($0) }
        // A sync with a closed database, either way, of another file or of the same one.
        for other in [try GridDatabase(path: directory.file("d.sqlite")), try GridDatabase(path: directory.file("c.sqlite"))] {
            #expect { try other.sync(with: database) } throws: { Self.isClosed($0) }
            #expect { try database.sync(with: other) } throws: { Self.isClosed($0) }
        }
        #expect(try Grid(named: "g", in: GridDatabase(path: directory.file("c.sqlite")), creatingWith: nil).snapshot().revision == 1)
        // A database in memory likewise.
        let memory = GridDatabase.inMemory()
        let kept = try Grid(named: "m", in: memory, creatingWith: GridOptions(sectionItemCounts: [2]))
        try memory.close()
        #expect(memory.isClosed)
        #expect { try kept.toggle(at: GridIndexPath(item: 0)) } throws: { Self.isClosed($0) }
        #expect { try Grid.list(in: memory) } throws: { Self.isClosed($0) }
        #expect { try memory.migrationStatus() } throws: { Self.isClosed($0) }
    }

    @Test("observing after close() opens nothing and ends with the closed failure")
    func observingAfterClose() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("o.sqlite")
        let database = try GridDatabase(path: path)
        let grid = try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [4]))
        try grid.toggle(at: GridIndexPath(item: 0))
        try database.close()
        await #expect { for try await _ in grid.changes() {} } throws: { Self.isClosed($0) }
        #expect(database.watch.loopsStarted == 0)
        #expect(Self.openDescriptors(on: path) == 0)
    }

    @Test("two threads closing at once both return with the database closed")
    func concurrentClose() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("two.sqlite")
        let database = try GridDatabase(path: path)
        try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [4])).toggle(at: GridIndexPath(item: 0))
        let closedOnReturn = Locked<[Bool]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            try? database.close()
            closedOnReturn.withLock { $0.append(database.isClosed && Self.openDescriptors(on: path) == 0) }
        }
        #expect(closedOnReturn.withLock { $0 } == [true, true])
    }

    @Test("close() waits for a change in progress, which commits")
    func waitsForCallsInProgress() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("w.sqlite")
        let database = try GridDatabase(path: path)
        let grid = try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [4]))
        _ = try grid.snapshot()
        let started = DispatchSemaphore(value: 0), closing = DispatchSemaphore(value: 0)
        let finished = Mutex(false)
        Thread.detachNewThread {
            do {
                try database.write { transaction in
                    do {
                        try transaction.update(grid) { try $0.toggle(at: GridIndexPath(item: 2)) }
                    } catch {
                        started.signal()
                        throw error
                    }
                    started.signal()
                    // The body ends only once close() has begun.
                    closing.wait()
                    finished.withLock { $0 = true }
                }
            } catch {
                Issue.record("the write failed: \(error)")
            }
        }
        started.wait()
        // A read refused as closed shows close() has begun (it waits for the write, which then ends).
        Thread.detachNewThread {
            while true {
                do {
                    _ = try grid.snapshot()
                } catch {
                    // Any other failure would end the write before close() began: the test then fails.
                    if !Self.isClosed(error) { Issue.record("a read failed before close(): \(error)") }
                    closing.signal()
                    return
                }
            }
        }
        try database.close()
        #expect(finished.withLock { $0 })
        #expect(Self.openDescriptors(on: path) == 0)
        #expect(try Grid(named: "g", in: GridDatabase(path: path), creatingWith: nil).snapshot().revision == 1)
    }
}
