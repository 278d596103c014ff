import Foundation
import GridLayout
import TestSupport
import Testing
@testable import GridStore
@testable import GridStorePostgreSQL

/// gridstore through PgBouncer in transaction pooling mode, in front of a real server: many
/// client connections share one or two server sessions, which change between transactions.
@Suite("PostgreSQL through PgBouncer in transaction mode", .enabled(if: PostgreSQLTestServer.shouldTestPooler))
struct PostgreSQLPoolerTests {
    /// A server of this suite's own, with PgBouncer in front of it holding 2 server sessions per database.
    static let server = Result { () throws(PostgreSQLTestServer.Unavailable) -> PostgreSQLTestServer in
        let server = try PostgreSQLTestServer(durable: false)
        try server.startPooler(serverConnections: 2)
        return server
    }

    /// A new database: its URI on the server itself and through the pooler.
    func database() throws -> (direct: String, pooled: String) {
        let server = try Self.server.get()
        let direct = try server.makeDatabase()
        return (direct, server.poolerURL(database: PostgreSQLTestServer.databaseName(in: direct)))
    }

    /// The server sessions open on the database `direct` names, as the server counts them.
    func serverSessions(_ direct: String) throws -> Int {
        let probe = try PostgreSQLConnection(PostgreSQLLocation(direct)!)
        let rows = try probe.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
        return Int(rows.int(0, 0))
    }

    @Test("changes and reads from 3 handles of 7 connections, through 2 server sessions, are all kept")
    func changesThroughThePooler() throws {
        let (direct, pooled) = try database()
        let handles = [try GridDatabase(postgreSQL: pooled, connections: 4), try GridDatabase(postgreSQL: pooled),
                       try GridDatabase(postgreSQL: pooled)]
        let grids = try (0..<6).map { try Grid(named: "g\($0)", in: handles[$0 % 3], creatingWith: GridOptions(sectionItemCounts: [40])) }
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: grids.count) { index in
            for step in 0..<20 {
                do {
                    try grids[index].toggle(at: GridIndexPath(item: (index * 5 + step) % 40))
                    _ = try grids[index].snapshot()
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try serverSessions(direct) <= 2)
        let fresh = try GridDatabase(postgreSQL: direct)
        for grid in grids {
            let snapshot = try Grid(named: grid.name, in: fresh).snapshot()
            #expect(snapshot.revision == 20)
        }
        #expect(try Grid.checkPlacements(in: fresh).allSatisfy { $0.problems.isEmpty })
        #expect(try Grid(named: "g3", in: handles[1]).history().map(\.revision) == Array((1...20).reversed()))
    }

    @Test("the session's timeouts are set in each transaction, and none is left on a server session")
    func timeoutsPerTransaction() throws {
        let (_, pooled) = try database()
        let connection = try PostgreSQLConnection(PostgreSQLLocation(pooled)!)
        #expect(try connection.execute("SHOW lock_timeout").string(0, 0) == "0")
        connection.begin()
        #expect(try connection.execute("SHOW lock_timeout").string(0, 0) == PostgreSQLConnection.defaultLockTimeout)
        #expect(try connection.execute("SHOW statement_timeout").string(0, 0) == "1min")
        try connection.execute("COMMIT")
        // No statement was prepared by name, so nothing waits on the server session for another connection to trip on.
        #expect(try connection.execute("SELECT count(*) FROM pg_prepared_statements").int(0, 0) == 0)
        #expect(try connection.execute("SHOW statement_timeout").string(0, 0) == "0")
    }

    @Test("app servers starting at once through the pooler apply each migration once")
    func concurrentMigrators() throws {
        let (direct, pooled) = try database()
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do { _ = try GridDatabase(postgreSQL: pooled) } catch { failures.withLock { $0.append("\(error)") } }
        }
        #expect(failures.withLock { $0 } == [])
        let probe = try PostgreSQLConnection(PostgreSQLLocation(direct)!)
        let ledger = try probe.execute("SELECT count(*), count(DISTINCT version) FROM schema_migrations")
        #expect(ledger.int(0, 0) == Int64(MigrationSet.gridStorePostgreSQL.migrations.count))
        #expect(ledger.int(0, 1) == ledger.int(0, 0))
        // No advisory lock on this database outlived its transaction on a server session
        // (pg_locks lists the whole server's, where other tests take theirs meanwhile).
        #expect(try probe.execute("""
            SELECT count(*) FROM pg_locks
            WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            """).int(0, 0) == 0)
    }

    @Test("without pool_mode=transaction, a statement prepared on another connection's session fails in one line that says what to add")
    func sessionModeThroughATransactionPooler() throws {
        let (direct, pooled) = try database()
        let unmarked = pooled.replacing("&pool_mode=transaction", with: "")
        let first = try GridDatabase(postgreSQL: unmarked)
        let grid = try Grid(named: "shared", in: first, creatingWith: GridOptions(sectionItemCounts: [10]))
        try grid.toggle(at: GridIndexPath(item: 1))
        // PgBouncer hands the most recently released server session out next: the one `first`
        // prepared its statements on, where the second connection's names are taken.
        let refused = #expect(throws: PostgreSQLError.self) {
            let second = try GridDatabase(postgreSQL: unmarked)
            try Grid(named: "shared", in: second).toggle(at: GridIndexPath(item: 2))
        }
        let message = "\(refused!)"
        #expect(!message.contains("\n"))
        #expect(message.contains("add pool_mode=transaction to the URI"))
        // What failed wrote nothing.
        #expect(try Grid(named: "shared", in: GridDatabase(postgreSQL: direct)).snapshot().revision == 1)
    }

    @Test("a pool_mode other than session or transaction is refused in one line")
    func unknownPoolMode() throws {
        let (_, pooled) = try database()
        let error = #expect(throws: PostgreSQLDatabaseError.self) {
            try GridDatabase(postgreSQL: pooled.replacing("pool_mode=transaction", with: "pool_mode=statement"))
        }
        #expect("\(error!)".contains("pool_mode is \"statement\""))
        // Inside GridError.storage, a database's refusal on either backend is of one kind.
        #expect(GridStorageFailure(error!).kind == .databaseFile)
    }
}
