import Foundation
import GridLayout
import TestSupport
import GridStoreAudit
import Synchronization
import Testing
@testable import GridStore
@testable import GridStorePostgreSQL

/// One database handle over a pool of PostgreSQL connections, against a real server.
@Suite("PostgreSQL connection pool", .enabled(if: PostgreSQLTestServer.shouldTest))
struct PostgreSQLPoolTests {
    /// A database of its own on the shared server, through a pool of `connections`.
    func pooled(_ connections: Int, waitLimitMilliseconds: Int = GridDatabase.queueWaitLimitMilliseconds,
                on server: PostgreSQLTestServer? = nil) throws -> (GridDatabase, PostgreSQLStorage, String) {
        let uri = try (server ?? PostgreSQLTestServer.shared()).makeDatabase()
        let storage = try PostgreSQLStorage(PostgreSQLLocation(uri)!, connections: connections,
                                            waitLimitMilliseconds: waitLimitMilliseconds)
        return (GridDatabase(backend: storage), storage, uri)
    }

    /// The connections gridstore has open to the database `uri` names, as the server counts them.
    func serverConnections(_ uri: String) throws -> Int {
        let probe = try PostgreSQLConnection(PostgreSQLLocation(uri)!)
        let rows = try probe.execute("""
            SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
            """)
        return Int(rows.int(0, 0))
    }

    @Test("close() ends every session of the pool and of observation; later calls throw a closed failure")
    func close() async throws {
        let (database, storage, uri) = try pooled(3)
        let grid = try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [8]))
        DispatchQueue.concurrentPerform(iterations: 3) { item in _ = try? grid.toggle(at: GridIndexPath(item: item)) }
        let firstSeen = Locked(false)
        let observation = Task {
            for try await _ in grid.changes() { firstSeen.withLock { $0 = true } }
        }
        while !firstSeen.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(try serverConnections(uri) >= 2)
        try database.close()
        #expect(storage.pool.openCount == 0)
        await #expect { try await observation.value } throws: { error in
            if case GridError.storage(let failure) = error { return failure.kind == .closed }
            return false
        }
        #expect { try grid.snapshot() } throws: { error in
            if case GridError.storage(let failure) = error { return failure.kind == .closed }
            return false
        }
        // The server sees each session end as its backend exits.
        var remaining = try serverConnections(uri)
        for _ in 0..<100 where remaining > 0 {
            try await Task.sleep(for: .milliseconds(50))
            remaining = try serverConnections(uri)
        }
        #expect(remaining == 0)
    }

    @Test("N threads change N grids at once on N connections, no more, and every change is kept")
    func parallelChanges() throws {
        let (database, storage, uri) = try pooled(4)
        let grids = try (0..<8).map { try Grid(named: "g\($0)", in: database, creatingWith: GridOptions(sectionItemCounts: [50])) }
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for step in 0..<25 {
                do {
                    try grids[thread].toggle(at: GridIndexPath(item: (thread * 7 + step) % 50))
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(storage.pool.openCount <= storage.pool.capacity)
        #expect(try serverConnections(uri) <= 5)
        let fresh = try GridDatabase(location: uri)
        for grid in grids {
            #expect(try Grid(named: grid.name, in: fresh).snapshot().revision == 25)
        }
        // The placements every change wrote equal a fresh pack of the stored sizes.
        #expect(try Grid.checkPlacements(in: fresh).allSatisfy { $0.problems.isEmpty })
    }

    /// Starts a change of `grid` on a thread of its own that holds its connection until the
    /// returned semaphore is signalled, then toggles `item`; returns once the change holds it.
    func holdWriter(of grid: Grid, toggling item: Int, in group: DispatchGroup) -> DispatchSemaphore {
        let release = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        group.enter()
        Thread.detachNewThread {
            _ = try? grid.update { editor in
                holding.signal()
                release.wait()
                try editor.toggle(at: GridIndexPath(item: item))
            }
            group.leave()
        }
        holding.wait()
        return release
    }

    @Test("callers wait their turn in order, and one past the limit gives up in one line, having done nothing")
    func fairBoundedWait() throws {
        let (database, storage, uri) = try pooled(1, waitLimitMilliseconds: 1_500)
        let grid = try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [10]))
        try grid.toggle(at: GridIndexPath(item: 8))
        let order = Locked<[Int]>([])
        let group = DispatchGroup()
        // One change holds the only writer's connection until released.
        let release = holdWriter(of: grid, toggling: 0, in: group)
        // Three more queue behind it, one at a time, so their arrival order is known.
        for caller in 1...3 {
            group.enter()
            Thread.detachNewThread {
                do {
                    // Noted while the caller holds the connection: the order the pool served them in.
                    try grid.update { editor in
                        order.withLock { $0.append(caller) }
                        try editor.toggle(at: GridIndexPath(item: caller))
                    }
                } catch {
                    order.withLock { $0.append(-caller) }
                }
                group.leave()
            }
            while storage.pool.waitingCount < caller { Thread.sleep(forTimeInterval: 0.005) }
        }
        // A read is not queued behind them: it takes the pool's extra connection.
        #expect(try Grid(named: "g", in: database).snapshot().revision == 1)
        release.signal()
        group.wait()
        #expect(order.withLock { $0 } == [1, 2, 3])
        #expect(try grid.snapshot().revision == 5)

        // Held past the limit: the waiting change fails in one line and changes nothing.
        let again = holdWriter(of: grid, toggling: 9, in: group)
        let started = ContinuousClock.now
        let error = try #require(throws: GridError.self) { try grid.toggle(at: GridIndexPath(item: 5)) }
        #expect(ContinuousClock.now - started >= .milliseconds(1_400))
        again.signal()
        group.wait()
        guard case .storage(let failure) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(failure.kind == .busy)
        #expect(error.description.contains("gave up after waiting 1."), "\(error)")
        #expect(error.description.contains("having done nothing"), "\(error)")
        #expect(!error.description.contains("\n"))
        let stored = try Grid(named: "g", in: GridDatabase(location: uri)).snapshot()
        #expect(stored.revision == 6)
        #expect(try stored.size(at: GridIndexPath(item: 5)) == .small)
    }

    @Test("a pool wider than the server lets it connect keeps the connections it got, and every call succeeds on them")
    func poolPastTheServersLimit() throws {
        let server = try PostgreSQLTestServer.shared()
        let admin = try server.makeDatabase()
        let role = "limited_\(UInt32.random(in: 0...UInt32.max))", name = "db_" + role
        // A role, not the superuser, whom a connection limit binds.
        try PostgreSQLScript.run("CREATE ROLE \(role) LOGIN CONNECTION LIMIT 2", on: admin)
        try PostgreSQLScript.run("CREATE DATABASE \(name) OWNER \(role)", on: admin)
        let uri = admin.replacingOccurrences(of: "//\(server.user)@/\(admin.split(separator: "@/").last!.split(separator: "?").first!)",
                                             with: "//\(role)@/\(name)")
        let storage = try PostgreSQLStorage(PostgreSQLLocation(uri)!, connections: 4)
        let database = GridDatabase(backend: storage)
        let grids = try (0..<3).map { try Grid(named: "g\($0)", in: database, creatingWith: GridOptions(sectionItemCounts: [20])) }
        // Two changes hold the two connections the role may have; a third call needs one more.
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchGroup()
        let failures = Locked<[String]>([])
        for index in 0..<2 {
            done.enter()
            Thread.detachNewThread {
                do {
                    try grids[index].update { editor in
                        try editor.toggle(at: GridIndexPath(item: 1))
                        holding.signal()
                        release.wait()
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
                done.leave()
            }
        }
        holding.wait()
        holding.wait()
        done.enter()
        Thread.detachNewThread {
            do { try grids[2].toggle(at: GridIndexPath(item: 1)) } catch { failures.withLock { $0.append("\(error)") } }
            done.leave()
        }
        // The third call was refused a connection by the server and waits for one of the two.
        let deadline = Date().addingTimeInterval(10)
        while storage.pool.capacity != 2 && failures.withLock({ $0.isEmpty }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(storage.pool.capacity == 2)
        release.signal()
        release.signal()
        done.wait()
        #expect(failures.withLock { $0 } == [])
        #expect(storage.pool.openCount <= 2)
        for grid in grids { #expect(try grid.snapshot().revision == 1) }
    }

    @Test("a sync with nothing new reads the server's summary of the grid in one round trip (BEGIN and COMMIT with it)")
    func syncWithNothingNew() throws {
        let (database, storage, _) = try pooled(1)
        let directory = TemporaryDirectory()
        let device = try GridDatabase(path: directory.file("device.sqlite"))
        try Grid(named: "g", in: device, creatingWith: GridOptions(sectionItemCounts: [10_000])).toggle(at: GridIndexPath(item: 1))
        _ = try device.sync(with: database)
        let before = storage.pool.idleRoundTrips
        let result = try device.sync(with: database, grids: ["g"])
        #expect(result.first?.sent == 0 && result.first?.received == 0)
        #expect(storage.pool.idleRoundTrips - before == 1, "\(storage.pool.idleRoundTrips - before) round trips")
    }

    @Test("a device's sync of a few changes with a hub: the summary with the server's clock in one round trip, then one write transaction")
    func hubSyncRoundTrips() throws {
        let (database, storage, _) = try pooled(1)
        let directory = TemporaryDirectory()
        let device = try GridDatabase(path: directory.file("device.sqlite"))
        let onDevice = try Grid(named: "g", in: device, creatingWith: GridOptions(sectionItemCounts: [60]))
        try onDevice.toggle(at: GridIndexPath(item: 1))
        _ = try device.sync(with: database)
        let onHub = try Grid(named: "g", in: database, creatingWith: nil)
        for round in 0..<3 {
            for item in [3, 20, 41] { try onDevice.toggle(at: GridIndexPath(item: item + round)) }
            try onHub.toggle(at: GridIndexPath(item: 50 + round))
            let before = storage.pool.idleRoundTrips
            let merges = (device.mergesByRows.load(ordering: .relaxed), database.mergesByRows.load(ordering: .relaxed))
            let result = try device.sync(with: database, grids: ["g"])
            #expect(result.first?.sent == 3 && result.first?.received == 1, "round \(round)")
            // Sizes alone: each side merged what it received reading only the rows it names.
            #expect(device.mergesByRows.load(ordering: .relaxed) == merges.0 + 1 && database.mergesByRows.load(ordering: .relaxed) == merges.1 + 1,
                    "round \(round)")
            // The summary with the server's clock (before: then the clock in a read transaction of
            // its own); in the write transaction, the replica row with the storage's identity and
            // the clock (before: three), the grid's locked header and its content, its sync state's
            // rows, the header again for the merge's change (before: the content again), and the
            // writes with COMMIT. 18 before.
            #expect(storage.pool.idleRoundTrips - before == 10, "round \(round): \(storage.pool.idleRoundTrips - before) round trips")
        }
        #expect(try onDevice.storedSnapshot().content == onHub.storedSnapshot().content)
    }

    /// A device in `directory` and a hub that synced, each with a change since: the device toggled item 5, the hub item 9.
    func changedApart(in directory: TemporaryDirectory) throws
        -> (device: GridDatabase, hub: GridDatabase, storage: PostgreSQLStorage, before: (GridContent, GridContent)) {
        let (database, storage, _) = try pooled(1)
        let device = try GridDatabase(path: directory.file("device.sqlite"))
        let onDevice = try Grid(named: "g", in: device, creatingWith: GridOptions(sectionItemCounts: [40]))
        try onDevice.toggle(at: GridIndexPath(item: 1))
        _ = try device.sync(with: database)
        let onHub = try Grid(named: "g", in: database, creatingWith: nil)
        try onDevice.toggle(at: GridIndexPath(item: 5))
        try onHub.toggle(at: GridIndexPath(item: 9))
        return (device, database, storage, (try onDevice.storedSnapshot().content, try onHub.storedSnapshot().content))
    }

    @Test("a hub whose COMMIT fails leaves the device without the hub's reply; the next sync makes both equal")
    func hubCommitFails() throws {
        let directory = TemporaryDirectory()
        let (device, hub, storage, before) = try changedApart(in: directory)
        // Raised at COMMIT, after the hub's merge wrote its sync state.
        _ = try storage.withConnection { try $0.executeScript("""
            CREATE FUNCTION trap() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'trap at commit'; END $$;
            CREATE CONSTRAINT TRIGGER trap AFTER UPDATE ON sync_states DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION trap();
            """) }
        let error = try #require(throws: GridError.self) { try device.sync(with: hub, grids: ["g"]) }
        #expect(error.description.contains("trap at commit"), "\(error)")
        #expect(try Grid(named: "g", in: device, creatingWith: nil).storedSnapshot().content == before.0)
        #expect(try Grid(named: "g", in: hub, creatingWith: nil).storedSnapshot().content == before.1)
        _ = try storage.withConnection { try $0.executeScript("DROP TRIGGER trap ON sync_states; DROP FUNCTION trap();") }
        let result = try device.sync(with: hub, grids: ["g"])
        #expect(result.first?.sent == 1 && result.first?.received == 1)
        let contents = try [device, hub].map { try Grid(named: "g", in: $0, creatingWith: nil).storedSnapshot().content }
        #expect(contents[0] == contents[1] && contents[0] != before.0)
    }

    @Test("a hub's sync run again by the server (a serialization failure at COMMIT): the device merges the reply the hub committed")
    func hubSyncRunAgain() throws {
        let directory = TemporaryDirectory()
        let (device, hub, storage, _) = try changedApart(in: directory)
        // The first COMMIT fails as a serialization failure, which gridstore runs again; a
        // sequence counts across the rollback.
        _ = try storage.withConnection { try $0.executeScript("""
            CREATE SEQUENCE trap_count;
            CREATE FUNCTION trap() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                IF nextval('trap_count') = 1 THEN RAISE EXCEPTION 'run again' USING ERRCODE = '40001'; END IF;
                RETURN NULL;
            END $$;
            CREATE CONSTRAINT TRIGGER trap AFTER UPDATE ON sync_states DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION trap();
            """) }
        let result = try device.sync(with: hub, grids: ["g"])
        #expect(result.first?.sent == 1 && result.first?.received == 1)
        let ran = try storage.withConnection { try $0.execute("SELECT last_value FROM trap_count").int(0, 0) }
        #expect(ran >= 2, "the hub's transaction ran \(ran) time(s)")
        let contents = try [device, hub].map { try Grid(named: "g", in: $0, creatingWith: nil).storedSnapshot().content }
        #expect(contents[0] == contents[1])
        #expect(try device.sync(with: hub, grids: ["g"]).first.map { $0.sent + $0.received } == 0)
    }

    @Test("a change of a cached grid takes two round trips: its header with BEGIN, then its writes with COMMIT")
    func twoRoundTrips() throws {
        let (database, storage, _) = try pooled(1)
        let grid = try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [1_000]))
        try grid.toggle(at: GridIndexPath(item: 1))
        for item in [2, 500, 999] {
            let before = (storage.pool.idleRoundTrips, storage.pool.idleStatements)
            try grid.toggle(at: GridIndexPath(item: item))
            #expect(storage.pool.idleRoundTrips - before.0 == 2, "toggle \(item)")
            // BEGIN, the lock, the header; the size chunk, the placement chunks, the writers' lock
            // and the notification for observers when one listens, the history entry with the
            // grid row's update, COMMIT.
            #expect(storage.pool.idleStatements - before.1 == 9, "toggle \(item)")
        }
        #expect(try grid.snapshot().revision == 4)
    }

    @Test("a write the server refuses at COMMIT's round trip rolls the whole change back, and the connection goes on")
    func refusedInPipeline() throws {
        let (database, storage, uri) = try pooled(1)
        let grid = try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [10]))
        try grid.toggle(at: GridIndexPath(item: 1))
        // A constraint added after opening: the size write fails on the server, after the grid row was updated.
        _ = try storage.withConnection { try $0.executeScript("ALTER TABLE size_chunks ADD CONSTRAINT no_big CHECK (sizes NOT LIKE '%b%')") }
        try grid.toggle(at: GridIndexPath(item: 2))
        let error = try #require(throws: GridError.self) { try grid.setSize(.big, at: GridIndexPath(item: 3)) }
        #expect(error.description.contains("no_big"), "\(error)")
        #expect(!error.description.contains("\n"))
        // A new handle refuses a database with a constraint gridstore did not create.
        _ = try storage.withConnection { try $0.executeScript("ALTER TABLE size_chunks DROP CONSTRAINT no_big") }
        let stored = try Grid(named: "g", in: GridDatabase(location: uri)).snapshot()
        #expect(stored.revision == 2)
        #expect(try stored.size(at: GridIndexPath(item: 3)) == .small)
        try grid.toggle(at: GridIndexPath(item: 4))
        #expect(try grid.snapshot().revision == 3)
    }

    @Test("after the server restarts, every pooled connection is made again by the next call, without an error")
    func restart() throws {
        // Durable: an immediate stop loses no acknowledged commit.
        let server = try PostgreSQLTestServer(durable: true)
        defer { server.stop() }
        let (database, storage, uri) = try pooled(3, on: server)
        let grids = try (0..<3).map { try Grid(named: "g\($0)", in: database, creatingWith: GridOptions(sectionItemCounts: [20])) }
        // Every connection of the pool in use at once.
        let inside = Locked(0)
        let first = Locked<[String]>([])
        let group = DispatchGroup()
        for index in 0..<3 {
            group.enter()
            // Threads of their own: Dispatch's pool may run fewer at once than this waits for.
            Thread.detachNewThread {
                do {
                    try grids[index].update { editor in
                        inside.withLock { $0 += 1 }
                        let deadline = ContinuousClock.now + .seconds(10)
                        while inside.withLock({ $0 }) < 3 && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.002) }
                        try editor.toggle(at: GridIndexPath(item: 1))
                    }
                } catch {
                    first.withLock { $0.append("\(error)") }
                }
                group.leave()
            }
        }
        group.wait()
        #expect(first.withLock { $0 } == [])
        #expect(storage.pool.openCount == 3)
        try server.restartImmediately()
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            do {
                try grids[index].toggle(at: GridIndexPath(item: 2))
                _ = try grids[index].snapshot()
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        for index in 0..<3 {
            #expect(try Grid(named: "g\(index)", in: GridDatabase(location: uri)).snapshot().revision == 2)
        }
    }

    @Test("a change that waited for another's lock sees every table as that change left it, the honeycomb's too")
    func waitedChangeSeesCommittedState() throws {
        let (database, _, uri) = try pooled(2)
        let first = try Grid(named: "h", in: database,
                             creatingWith: GridOptions(honeycomb: HoneycombConfiguration(elementWidth: 60), itemCount: 10))
        try first.update { try $0.setKey("k0", at: GridIndexPath(item: 0)) }
        let second = try Grid(named: "h", in: database, creatingWith: nil)
        _ = try second.snapshot()
        let group = DispatchGroup()
        let inside = DispatchSemaphore(value: 0)
        group.enter()
        Thread.detachNewThread {
            let probe = PostgreSQLLocation(uri).flatMap { try? PostgreSQLConnection($0) }
            _ = try? first.update { editor in
                inside.signal()
                // Goes on once the second change waits for this one's lock (the server shows it ungranted).
                for _ in 0..<30_000 {
                    if (try? probe?.execute("SELECT count(*) FROM pg_locks WHERE NOT granted").int(0, 0)) ?? 1 > 0 { break }
                    usleep(2_000)
                }
                try editor.replaceContent(GridContent(honeycomb: HoneycombConfiguration(elementWidth: 100), itemCount: 10))
            }
            group.leave()
        }
        inside.wait()
        // Waits for the first change's lock on the grid row, then changes what it left.
        let changed = try second.update { try $0.insertItem(at: GridIndexPath(item: 10)) }
        group.wait()
        #expect(changed.revision == 3)
        #expect(changed.honeycomb?.elementWidth == 100)
        let stored = try Grid(named: "h", in: GridDatabase(location: uri)).snapshot()
        #expect(stored.honeycomb?.elementWidth == 100)
        #expect(stored.totalItemCount == 11)
        #expect(try Grid.checkPlacements(in: GridDatabase(location: uri)).allSatisfy { $0.problems.isEmpty })
    }

    @Test("a deadlock or a concurrent creation met inside an explicit transaction is retried as a one-grid change is")
    func nestedRetries() throws {
        let (database, _, uri) = try pooled(8)
        let a = try Grid(named: "a", in: database, creatingWith: GridOptions(sectionItemCounts: [4]))
        let b = try Grid(named: "b", in: database, creatingWith: GridOptions(sectionItemCounts: [4]))
        try a.toggle(at: GridIndexPath(item: 0))
        try b.toggle(at: GridIndexPath(item: 0))
        // Each locks one grid, then the other's: the server ends one with a deadlock.
        let failures = Locked<[String]>([])
        let group = DispatchGroup()
        // Both hold their first grid before either asks for the other's, the first time round.
        let holding = Locked(0)
        for (mine, other) in [(a, b), (b, a)] {
            group.enter()
            Thread.detachNewThread {
                var attempts = 0
                do {
                    try database.write { transaction in
                        attempts += 1
                        try transaction.update(mine) { try $0.toggle(at: GridIndexPath(item: 1)) }
                        if attempts == 1 {
                            holding.withLock { $0 += 1 }
                            for _ in 0..<30_000 where holding.withLock({ $0 }) < 2 { usleep(1_000) }
                        }
                        try transaction.update(other) { try $0.toggle(at: GridIndexPath(item: 2)) }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
                group.leave()
            }
        }
        group.wait()
        #expect(failures.withLock { $0 } == [])
        // Eight changes each create the same new grid inside their own.
        let owners = try (0..<8).map { try Grid(named: "own\($0)", in: database, creatingWith: GridOptions(sectionItemCounts: [4])) }
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            do {
                try database.write { transaction in
                    try transaction.update(owners[index]) { try $0.toggle(at: GridIndexPath(item: 0)) }
                    try transaction.update(gridNamed: "shared", creatingWith: GridOptions(sectionItemCounts: [8])) {
                        try $0.toggle(at: GridIndexPath(item: index))
                    }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try Grid(named: "shared", in: GridDatabase(location: uri)).snapshot().revision == 8)
    }

    @Test("a pool of 0 connections is refused in one line")
    func zeroConnections() throws {
        let uri = try PostgreSQLTestServer.shared().makeDatabase()
        #expect(throws: PostgreSQLDatabaseError.self) { try GridDatabase(postgreSQL: uri, connections: 0) }
    }

    @Test("the chunk lengths a change reads with its header are taken only in their exact form")
    func chunkSizeList() {
        #expect(ChunkSizeList("").entries?.isEmpty == true)
        let parsed = ChunkSizeList("0:0:2560,0:128:17,3:0:5").entries
        #expect(parsed?.map(\.section) == [0, 0, 3])
        #expect(parsed?.map(\.firstItem) == [0, 128, 0])
        #expect(parsed?.map(\.byteCount) == [2560, 17, 5])
        for odd in ["0:0", "0:0:1,", ",", "0:0:-1", "a:b:c", "0:0:1:2", "0:0:1234567890123456789", " 0:0:1"] {
            #expect(ChunkSizeList(odd).entries == nil, "\(odd)")
        }
    }
}
