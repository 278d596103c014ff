import Foundation
import GridLayout
import Synchronization
import TestSupport
import Testing
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit
import GridStorePostgreSQL

/// The library under an app's hands: nested calls, readers beside waiting writers, read-only
/// reads, files that move, and paths that are not files.
@Suite("The library under an app's hands")
struct LibraryRobustnessTests {
    let directory = TemporaryDirectory()

    @Test("two grids changed in one write transaction commit together, or not at all", arguments: Backend.all)
    func twoGridsInOneTransaction(backend: Backend) throws {
        let location = try backend.database(in: directory)
        let database = try GridDatabase(location: location)
        let phone = try Grid(named: "phone", in: database), tablet = try Grid(named: "tablet", in: database)
        try phone.setSize(.big, at: GridIndexPath(item: 0))
        _ = try tablet.snapshot()
        // Copying a size from one grid into another, and changing the first: one transaction.
        let revisions = try database.write { transaction in
            #expect(try transaction.grids().map(\.name) == ["phone", "tablet"])
            let big = try transaction.snapshot(of: phone).size(at: GridIndexPath(item: 0))
            let copied = try transaction.update(tablet) { try $0.setSize(big, at: GridIndexPath(item: 0)) }
            let toggled = try transaction.update(gridNamed: "phone") { try $0.toggle(at: GridIndexPath(item: 1)) }
            #expect(try transaction.snapshot(of: "tablet").revision == copied.revision)
            return (copied.revision, toggled.revision)
        }
        #expect(revisions == (1, 2))
        #expect(try tablet.snapshot().size(at: GridIndexPath(item: 0)) == .big)
        #expect(try phone.snapshot().size(at: GridIndexPath(item: 1)) == .middle)
        // When the closure fails, every change made through the transaction is rolled back.
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try database.write { transaction in
                try transaction.update(tablet) { try $0.toggle(at: GridIndexPath(item: 5)) }
                try transaction.update(phone) { try $0.toggle(at: GridIndexPath(item: 5)) }
                throw Refused()
            }
        }
        #expect(try tablet.snapshot().size(at: GridIndexPath(item: 5)) == .small)
        #expect(try tablet.snapshot().revision == 1)
        #expect(try phone.snapshot().revision == 2)
        // The rolled-back state never serves a later call, even once another connection brings
        // the grid to the revision it had.
        #expect(throws: Refused.self) {
            try database.write { transaction in
                try transaction.update(tablet) { try $0.toggle(at: GridIndexPath(item: 7)) }
                throw Refused()
            }
        }
        let elsewhere = try Grid(named: "tablet", in: GridDatabase(location: location), creatingWith: nil)
        try elsewhere.setSize(.big, at: GridIndexPath(item: 8))
        #expect(try tablet.snapshot().revision == 2)
        #expect(try tablet.snapshot().size(at: GridIndexPath(item: 7)) == .small)
        #expect(try tablet.snapshot().size(at: GridIndexPath(item: 8)) == .big)
        // A grid created in a transaction that rolls back is not there.
        #expect(throws: Refused.self) {
            try database.write { transaction in
                try transaction.update(gridNamed: "watch") { try $0.toggle(at: GridIndexPath(item: 0)) }
                throw Refused()
            }
        }
        #expect(try !Grid.exists(named: "watch", in: database))
    }

    @Test("a call on the database inside a transaction's closure is refused, never joined, trapped or waited for",
          arguments: Backend.all)
    func nestedCallsRefused(backend: Backend) throws {
        let database = try GridDatabase(location: backend.database(in: directory))
        let grid = try Grid(named: "g", in: database)
        let other = try Grid(named: "other", in: database)
        _ = try grid.snapshot()
        _ = try other.snapshot()
        #expect(throws: GridError.reentrantCall) { try grid.update { _ in try other.toggle(at: GridIndexPath(item: 0)) } }
        #expect(throws: GridError.reentrantCall) { try grid.update { _ in _ = try other.snapshot() } }
        #expect(throws: GridError.reentrantCall) { try database.write { _ in try Grid.list(in: database) } }
        #expect(throws: GridError.reentrantCall) { try database.read { _ in try database.read { _ in 1 } } }
        #expect(throws: GridError.reentrantCall) { try database.read { _ in try grid.toggle(at: GridIndexPath(item: 0)) } }
        #expect(throws: GridError.reentrantCall) { try database.write { _ in try Grid.drop(named: "g", in: database) } }
        // A grid's change inside its own change through the transaction would be overwritten.
        #expect(throws: GridError.reentrantCall) {
            try database.write { transaction in
                try transaction.update(grid) { _ in try transaction.update(gridNamed: "g") { try $0.toggle(at: GridIndexPath(item: 0)) } }
            }
        }
        #expect(throws: GridError.reentrantCall) {
            try database.write { transaction in try transaction.update(grid) { _ in try transaction.drop(gridNamed: "g") } }
        }
        // Another grid inside a grid's change, through the transaction, is fine.
        _ = try database.write { transaction in
            try transaction.update(grid) { editor in
                try transaction.update(other) { try $0.toggle(at: GridIndexPath(item: 0)) }
                try editor.toggle(at: GridIndexPath(item: 0))
            }
        }
        #expect(try grid.snapshot().revision == 1)
        #expect(try other.snapshot().revision == 1)
        // A handle made inside a transaction, for it, is fine; the transaction says what exists.
        try database.write { transaction in
            let handle = try Grid(named: "other", in: database, creatingWith: nil)
            try transaction.update(handle) { try $0.toggle(at: GridIndexPath(item: 1)) }
            let missing = try Grid(named: "missing", in: database, creatingWith: nil)
            #expect(throws: GridError.gridNotFound("missing")) { try transaction.snapshot(of: missing) }
        }
        #expect(try other.snapshot().revision == 2)
    }

    @Test("an async call from a task started inside a transaction, while it runs, is refused, not queued behind it")
    func asyncCallInsideATransaction() async throws {
        let database = try GridDatabase(path: directory.file("nested-async.sqlite"))
        let grid = try Grid(named: "g", in: database)
        _ = try grid.snapshot()
        // The transaction waits for the task on a thread of its own, not one of the cooperative
        // pool, which the task needs.
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<GridSnapshot, any Error>?, Never>) in
            Thread.detachNewThread {
                let done = DispatchSemaphore(value: 0)
                let result = Locked<Result<GridSnapshot, any Error>?>(nil)
                _ = try? database.write { transaction in
                    try transaction.update(grid) { try $0.toggle(at: GridIndexPath(item: 0)) }
                    Task {
                        let called: Result<GridSnapshot, any Error>
                        do {
                            called = .success(try await grid.changing { try $0.toggle(at: GridIndexPath(item: 1)) })
                        } catch {
                            called = .failure(error)
                        }
                        result.withLock { $0 = called }
                        done.signal()
                    }
                    done.wait()
                }
                continuation.resume(returning: result.withLock { $0 })
            }
        }
        #expect(throws: GridError.reentrantCall) { try outcome?.get() }
        #expect(try grid.snapshot().revision == 1)
    }

    @Test("a task started inside a transaction may call the database once the transaction has ended")
    func taskStartedInsideATransaction() async throws {
        let database = try GridDatabase(path: directory.file("task.sqlite"))
        let grid = try Grid(named: "g", in: database)
        _ = try grid.snapshot()
        // The tasks wait without blocking a thread of the cooperative pool, which other tests share.
        let ended = Tally()
        let task = try database.write { transaction in
            try transaction.update(grid) { try $0.toggle(at: GridIndexPath(item: 0)) }
            return Task.detached {
                while ended.value < 1 { try await Task.sleep(for: .milliseconds(1)) }
                return try grid.storedSnapshot().revision
            }
        }
        ended.add()
        #expect(try await task.value == 1)
        // An unstructured task inherits the transaction's scope; once the transaction ended it
        // no longer counts.
        let inherited = try database.write { _ in
            Task {
                while ended.value < 2 { try await Task.sleep(for: .milliseconds(1)) }
                return try grid.storedSnapshot().revision
            }
        }
        ended.add()
        #expect(try await inherited.value == 1)
    }

    @Test("a change through another GridDatabase of the same file, inside a change, is refused at once, not after a timeout")
    func nestedThroughAnotherDatabase() throws {
        let path = directory.file("g.sqlite")
        let first = try Grid(named: "a", in: GridDatabase(path: path))
        let second = try Grid(named: "b", in: GridDatabase(path: path))
        _ = try first.snapshot()
        let start = ContinuousClock.now
        #expect(throws: GridError.reentrantCall) {
            try first.update { _ in try second.toggle(at: GridIndexPath(item: 0)) }
        }
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test("a read transaction reads; a change inside a read is refused; reads cannot write")
    func readsAreReadOnly() throws {
        let database = try GridDatabase(path: directory.file("g.sqlite"))
        let grid = try Grid(named: "g", in: database)
        _ = try grid.snapshot()
        let names = try database.read { try $0.grids().map(\.name) }
        #expect(names == ["g"])
        #expect(throws: GridError.reentrantCall) {
            try database.read { _ in try grid.toggle(at: GridIndexPath(item: 0)) }
        }
        #expect(throws: SQLiteError.self) {
            try database.readSQLite { try $0.execute("UPDATE grids SET revision = 99") }
        }
        #expect(try grid.snapshot().revision == 0)
        try grid.toggle(at: GridIndexPath(item: 0))
        #expect(try grid.snapshot().revision == 1)
    }

    @Test("a read on the same database and grid does not wait for a change waiting for another process's lock")
    func readersDoNotQueue() throws {
        let path = directory.file("g.sqlite")
        let database = try GridDatabase(path: path)
        let grid = try Grid(named: "g", in: database)
        _ = try grid.snapshot()
        let holder = try SQLiteConnection(path: path, mode: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        let writerDone = Mutex(false)
        let writerThread = Mutex<String?>(nil)
        let writer = Thread {
            writerThread.withLock { $0 = KernelWait.currentThread() }
            _ = try? grid.toggle(at: GridIndexPath(item: 0))
            writerDone.withLock { $0 = true }
        }
        writer.start()
        // The writer now waits for the holder's lock: asleep in SQLite's busy handler.
        var writerPath: String?
        while writerPath == nil && !writerDone.withLock({ $0 }) {
            writerPath = writerThread.withLock { $0 }
            if writerPath == nil { usleep(1_000) }
        }
        #expect(KernelWait.waitUntilSleeping(try #require(writerPath)))
        #expect(try grid.snapshot().revision == 0)
        #expect(try Grid.list(in: database).count == 1)
        // The reads answered while the writer still waits: they did not queue behind it.
        #expect(!writerDone.withLock { $0 })
        try holder.execute("COMMIT")
        while !writerDone.withLock({ $0 }) { usleep(10_000) }
        #expect(try grid.snapshot().revision == 1)
    }

    @Test("on PostgreSQL too, a read does not wait for a change waiting for a row lock",
          .enabled(if: PostgreSQLTestServer.shouldTest))
    func postgreSQLReadersDoNotQueue() throws {
        let uri = try PostgreSQLTestServer.shared().makeDatabase()
        let database = try GridDatabase(location: uri)
        let grid = try Grid(named: "g", in: database)
        _ = try grid.snapshot()
        let holder = try PostgreSQLConnection(try #require(PostgreSQLLocation(uri)))
        try holder.executeScript("BEGIN; SELECT 1 FROM grids WHERE name = 'g' FOR UPDATE")
        let writerDone = Mutex(false)
        let writer = Thread {
            _ = try? grid.toggle(at: GridIndexPath(item: 0))
            writerDone.withLock { $0 = true }
        }
        writer.start()
        // The writer now waits for the holder's row lock: the server shows its lock ungranted.
        let probe = try PostgreSQLConnection(try #require(PostgreSQLLocation(uri)))
        var waiting = false
        for _ in 0..<6_000 where !waiting {
            waiting = try probe.execute("SELECT count(*) FROM pg_locks WHERE NOT granted").int(0, 0) > 0
            if !waiting { usleep(5_000) }
        }
        #expect(waiting)
        #expect(try grid.snapshot().revision == 0)
        #expect(try Grid.list(in: database).count == 1)
        #expect(!writerDone.withLock { $0 })
        try holder.executeScript("COMMIT")
        while !writerDone.withLock({ $0 }) { usleep(10_000) }
        #expect(try grid.snapshot().revision == 1)
    }

    @Test("a database file deleted or replaced while open is noticed, and nothing goes to the old file")
    func replacedFile() throws {
        let path = directory.file("g.sqlite")
        let database = try GridDatabase(path: path)
        let grid = try Grid(named: "g", in: database)
        try grid.toggle(at: GridIndexPath(item: 0))
        // Replaced by a rename of another database over the path.
        let other = directory.file("other.sqlite")
        _ = try Grid(named: "g", in: GridDatabase(path: other)).snapshot()
        #expect(rename(other, path) == 0)
        let replaced = GridError.storage(GridStorageFailure(DatabaseFileError.replaced(path: path)))
        #expect(throws: replaced) { try grid.toggle(at: GridIndexPath(item: 1)) }
        let failure = try #require(throws: GridError.self) { try grid.snapshot() }
        guard case .storage(let storage) = failure else { Issue.record("\(failure)"); return }
        #expect(storage.kind == .databaseFile)
        #expect(storage.underlying as? DatabaseFileError == .replaced(path: path))
        // Opening again sees the new file.
        #expect(try Grid(named: "g", in: GridDatabase(path: path)).snapshot().revision == 0)
        // Deleted.
        let second = try GridDatabase(path: directory.file("second.sqlite"))
        try Grid(named: "g", in: second).toggle(at: GridIndexPath(item: 0))
        #expect(unlink(directory.file("second.sqlite")) == 0)
        #expect(throws: GridError.storage(GridStorageFailure(DatabaseFileError.replaced(path: directory.file("second.sqlite"))))) {
            try Grid(named: "g", in: second).toggle(at: GridIndexPath(item: 0))
        }
    }

    @Test("paths that cannot name a file are refused before anything touches the disk", arguments: [":memory:", "a\0b", ""])
    func invalidPaths(path: String) throws {
        // Relative paths: SQLite would make `:memory:`, or `a` (cut at the NUL) and its -wal, here.
        let leftovers = [":memory:", "a", "a-wal", "a-shm"]
        let existed = leftovers.filter { FileManager.default.fileExists(atPath: $0) }
        #expect(throws: DatabaseFileError.self) { try GridDatabase(path: path) }
        #expect(leftovers.filter { FileManager.default.fileExists(atPath: $0) } == existed)
    }
}

/// Every operation on a grid and a repository but `update` throws `GridError` alone.
@Suite("Typed throws")
struct TypedThrowsTests {
    @Test("do throws(GridError) compiles around grid and repository calls, and storage failures arrive as GridError.storage")
    func typedThrows() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("typed.sqlite")
        let database = try GridDatabase(path: path)
        let grid = try Grid(named: "g", in: database)
        let repository = try DatabaseGridSizeRepository(suiteName: "g", database: database)
        do throws(GridError) {
            try grid.toggle(at: GridIndexPath(item: 0))
            _ = try repository.size(at: GridIndexPath(item: 0))
            try repository.set(.big, forKey: "missing")
            Issue.record("a missing key was accepted")
        } catch .keyNotFound(let key, _) {
            #expect(key == "missing")
        } catch {
            Issue.record("\(error)")
        }
        do throws(GridError) {
            _ = try repository.itemCount(inSection: 3)
        } catch {
            #expect(error == .sectionOutOfRange(3, sectionCount: 1))
        }
        // A database file that is not one: the failure names its kind and keeps the database's own error.
        let notADatabase = directory.file("text.sqlite")
        try "not a database".write(toFile: notADatabase, atomically: true, encoding: .utf8)
        do throws(GridError) {
            _ = try DatabaseGridSizeRepository(path: notADatabase)
            Issue.record("a text file was opened")
        } catch .storage(let failure) {
            #expect(failure.kind == .databaseFile)
            #expect(failure.underlying is DatabaseFileError)
        } catch {
            Issue.record("\(error)")
        }
        // The body's own error passes through update as it is.
        struct Mine: Error {}
        #expect(throws: Mine.self) { try grid.update { _ in throw Mine() } }
        // A storage failure encodes as its kind and message.
        let failure = GridStorageFailure(kind: .busy, message: "locked")
        let decoded = try JSONDecoder().decode(GridError.self, from: JSONEncoder().encode(GridError.storage(failure)))
        #expect(decoded == .storage(failure))
    }
}
