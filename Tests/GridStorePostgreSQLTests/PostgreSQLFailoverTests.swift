import Foundation
import GridLayout
import TestSupport
import Testing
@testable import GridStore
@testable import GridStorePostgreSQL

/// A primary and its synchronous streaming hot standby, both real servers: reads on the
/// standby, and writers going on through a crash of the primary and the standby's promotion.
@Suite("PostgreSQL failover to a hot standby", .enabled(if: PostgreSQLTestServer.shouldTest))
struct PostgreSQLFailoverTests {
    /// The size the toggled item has after `toggles` toggles from small.
    static func size(after toggles: Int) -> TileSize {
        [TileSize.small, .middle, .big][toggles % 3]
    }

    @Test("a standby serves reads and refuses a change in one line; writers go on through an immediate stop of the primary and the standby's promotion, and every acknowledged change is on the new primary")
    func failover() throws {
        let server = try PostgreSQLTestServer(durable: true)
        defer { server.stop() }
        let direct = try server.makeDatabase()
        let name = PostgreSQLTestServer.databaseName(in: direct)
        let writers = 3
        let setup = try GridDatabase(postgreSQL: direct)
        let toggled = GridIndexPath(item: 3)
        for writer in 0..<writers {
            try Grid(named: "w\(writer)", in: setup, creatingWith: GridOptions(sectionItemCounts: [300])).toggle(at: toggled)
        }
        try server.startStandby()

        // The standby: reads work (a change committed on the primary shows once the standby has
        // replayed it), and a change fails in one line that says the server is read-only.
        try Grid(named: "w0", in: setup).toggle(at: toggled)
        let standby = try GridDatabase(postgreSQL: server.standbyURL(database: name))
        var replayed = try Grid(named: "w0", in: standby).snapshot()
        for _ in 0..<500 where replayed.revision < 2 {
            usleep(20_000)
            replayed = try Grid(named: "w0", in: standby).snapshot()
        }
        #expect(replayed.revision == 2)
        // Through the URI of both hosts, primary first: each attribute picks the server libpq would.
        let both = server.failoverURL(database: name)
        for (attributes, inRecovery) in [("read-write", "f"), ("prefer-standby", "t"), ("standby", "t"), ("any", "f")] {
            let connection = try PostgreSQLConnection(PostgreSQLLocation(both.replacing("read-write", with: attributes))!)
            #expect(try connection.execute("SELECT pg_is_in_recovery()").string(0, 0) == inRecovery, "\(attributes)")
        }
        #expect(try replayed.size(at: toggled) == .big)
        #expect(try Grid.list(in: standby).map(\.name) == (0..<writers).map { "w\($0)" })
        let refused = #expect(throws: GridError.self) { try Grid(named: "w0", in: standby).toggle(at: toggled) }
        #expect("\(refused!)".contains("is read-only"))
        #expect(!"\(refused!)".contains("\n"))
        #expect(try Grid(named: "w0", in: setup).snapshot().revision == 2)

        // Writers through a URI naming both servers, for whichever accepts writes.
        let url = server.failoverURL(database: name)
        let handles = try (0..<writers).map { _ in try GridDatabase(postgreSQL: url) }
        let start = try (0..<writers).map { try Grid(named: "w\($0)", in: setup).snapshot().revision }
        let acknowledged = Locked([Int](repeating: 0, count: writers))
        let uncertain = Locked([Int](repeating: 0, count: writers))
        let failures = Locked<[String]>([])
        let failed = Locked([Int](repeating: 0, count: writers))
        let done = Locked(false)
        let group = DispatchGroup()
        for writer in 0..<writers {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let grid = try! Grid(named: "w\(writer)", in: handles[writer])
                while !done.withLock({ $0 }) {
                    do {
                        try grid.toggle(at: toggled)
                        acknowledged.withLock { $0[writer] += 1 }
                    } catch {
                        let message = "\(error)"
                        failures.withLock { $0.append(message) }
                        failed.withLock { $0[writer] += 1 }
                        if message.contains("may or may not have been applied") { uncertain.withLock { $0[writer] += 1 } }
                        usleep(20_000)
                    }
                }
            }
        }
        /// Waits until every writer has `count` more acknowledged changes than `base`, at most 60 seconds.
        func waitForAcknowledged(_ count: Int, over base: [Int]) -> Bool {
            for _ in 0..<3_000 {
                if acknowledged.withLock({ zip($0, base).allSatisfy { $0 - $1 >= count } }) { return true }
                usleep(20_000)
            }
            return false
        }
        #expect(waitForAcknowledged(20, over: Array(repeating: 0, count: writers)))
        let failedBeforeStop = failed.withLock { $0 }
        try server.stopPrimaryImmediately()
        // The standby is promoted once every writer has met the outage.
        var outageSeen = false
        for _ in 0..<3_000 where !outageSeen {
            outageSeen = failed.withLock { zip($0, failedBeforeStop).allSatisfy { $0 > $1 } }
            if !outageSeen { usleep(20_000) }
        }
        #expect(outageSeen)
        try server.promoteStandby()
        let atPromotion = acknowledged.withLock { $0 }
        let wentOn = waitForAcknowledged(20, over: atPromotion)
        done.withLock { $0 = true }
        group.wait()
        #expect(wentOn)

        for message in failures.withLock({ $0 }) {
            #expect(!message.contains("\n"))
            #expect(message.hasPrefix("cannot reach PostgreSQL server") || message.hasPrefix("PostgreSQL server"))
        }
        // The standby, now the primary, holds every acknowledged change (and perhaps one whose
        // acknowledgement the crash cut off), and placements that equal a fresh pack.
        let promoted = try GridDatabase(postgreSQL: server.standbyURL(database: name))
        for writer in 0..<writers {
            let snapshot = try Grid(named: "w\(writer)", in: promoted).snapshot()
            let made = snapshot.revision - start[writer]
            let acked = acknowledged.withLock { $0[writer] }
            #expect(made >= acked && made <= acked + uncertain.withLock { $0[writer] })
            #expect(try snapshot.size(at: toggled) == Self.size(after: Int(snapshot.revision)))
        }
        #expect(try Grid.checkPlacements(in: promoted).allSatisfy { $0.problems.isEmpty })
    }

    @Test("a commit whose wait for the synchronous standby is cancelled (pg_cancel_backend) is not reported done")
    func unconfirmedCommit() throws {
        let server = try PostgreSQLTestServer(durable: false)
        defer { server.stop() }
        let url = try server.makeDatabase()
        let grid = try Grid(named: "g", in: GridDatabase(postgreSQL: url), creatingWith: GridOptions(sectionItemCounts: [5]))
        try grid.toggle(at: GridIndexPath(item: 1))
        // A standby that never comes: every commit waits for it.
        try server.alterSystem("synchronous_standby_names", "absent")
        let waiting = try GridDatabase(postgreSQL: url + "&options=-c%20synchronous_commit%3Don")
        let outcome = Locked<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do {
                try Grid(named: "g", in: waiting).toggle(at: GridIndexPath(item: 2))
                outcome.withLock { $0 = "done" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
            done.signal()
        }
        // An operator cancels the wait; the server then ends the COMMIT with only a warning.
        let admin = try PostgreSQLConnection(PostgreSQLLocation(url)!)
        var cancelled = false
        for _ in 0..<400 where !cancelled {
            usleep(25_000)
            cancelled = try admin.execute("""
                SELECT count(pg_cancel_backend(pid)) FROM pg_stat_activity
                WHERE wait_event = 'SyncRep' AND datname = current_database()
                """).string(0, 0) == "1"
        }
        #expect(cancelled)
        done.wait()
        let message = try #require(outcome.withLock { $0 })
        #expect(message.contains("the synchronous standby did not confirm it, so a failover now would lose it"), "\(message)")
        #expect(!message.contains("\n"))
        // It is committed on this server, as the message says.
        try server.alterSystem("synchronous_standby_names", "")
        #expect(try Grid(named: "g", in: GridDatabase(postgreSQL: url)).snapshot().revision == 2)
    }

    @Test("with several hosts, one that accepts connections but never answers is passed over for the next within connect_timeout")
    func silentFirstHost() throws {
        let server = try PostgreSQLTestServer.shared()
        let name = PostgreSQLTestServer.databaseName(in: try server.makeDatabase())
        // A listener whose kernel completes the TCP handshake, and which never reads or answers:
        // a primary whose machine stopped, as a client sees it.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(listener, raw, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, raw, &length) == 0
            }
        }
        try #require(bound)
        let port = UInt16(bigEndian: address.sin_port)
        let uri = "postgresql://\(server.user)@/\(name)?host=127.0.0.1,\(server.directory)&port=\(port),\(server.port)"
            + "&connect_timeout=2&target_session_attrs=read-write"
        let started = ContinuousClock.now
        let database = try GridDatabase(postgreSQL: uri)
        try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [3])).toggle(at: GridIndexPath(item: 1))
        #expect(ContinuousClock.now - started < .seconds(8))
        #expect(try Grid(named: "g", in: database).snapshot().revision == 1)
    }
}
