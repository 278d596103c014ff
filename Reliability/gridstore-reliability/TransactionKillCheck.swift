import Foundation
import GridLayout
import GridStore
import GridStoreSQLite
import GridStorePostgreSQL
import GridStoreAudit
import SeededRandom
import TestSupport

/// `kill -9` in the middle of explicit transactions that change two grids: afterwards both
/// grids hold the state of the same committed transaction, on SQLite and on PostgreSQL.
///
/// The transactions run in a child process of this suite's own (`--transaction-child`): each
/// one toggles an item of grid `a` and replaces the whole content of grid `b` (20,000 items),
/// so the two always move to the next revision together.
enum TransactionKillCheck {
    static let kills = 10

    static func run(_ runner: ProcessRunner, scratch: String, report: Report) {
        check(location: scratch + "/transactions.sqlite", backend: "SQLite", report: report)
        let server: PostgreSQLTestServer
        do {
            server = try PostgreSQLTestServer(durable: true)
        } catch {
            if PostgreSQLTestServer.isRequired { report.fail("transactions: no PostgreSQL server: \(error)") }
            return
        }
        defer { server.stop() }
        do {
            check(location: try server.makeDatabase(), backend: "PostgreSQL", report: report)
        } catch {
            report.fail("transactions: \(error)")
        }
    }

    private static func check(location: String, backend: String, report: Report) {
        // Both grids exist before the first kill: a child killed before its first commit (on a
        // slow server, while it connects) leaves them as they were, not missing.
        do {
            let database = try GridDatabase(location: location)
            _ = try grids(in: database).a.snapshot()
            _ = try grids(in: database).b.snapshot()
            try database.close()
        } catch {
            return report.fail("transactions (\(backend)): the grids cannot be made: \(error)")
        }
        var generator = SeededGenerator(seed: 35)
        let child = ProcessRunner(executable: CommandLine.arguments[0], scratch: NSTemporaryDirectory())
        var killed = 0
        for attempt in 0..<kills {
            let process = child.start(["--transaction-child", location])
            usleep(useconds_t(Int.random(in: 150_000...900_000, using: &generator)))
            process.kill()
            let result = process.wait(timeLimit: 30)
            report.count(processes: 1, commands: 1, crashes: result.signal == SIGKILL ? 1 : 0)
            if result.signal == SIGKILL { killed += 1 }
            // A client killed after sending COMMIT leaves its server backend to finish the
            // commit on its own; the grids are read once that backend is gone.
            if let server = PostgreSQLLocation(location), !waitForOtherSessions(on: server) {
                report.fail("transactions (\(backend)): after kill \(attempt) the killed client's session did not end")
            }
            guard let a = try? StoredGrid.read("a", path: location), let b = try? StoredGrid.read("b", path: location) else {
                report.fail("transactions (\(backend)): after kill \(attempt) the grids cannot be read")
                continue
            }
            report.check(a.revision == b.revision,
                         "transactions (\(backend)): after kill \(attempt) grid a is at revision \(a.revision), b at \(b.revision)")
            report.check(a.isConsistent && b.isConsistent,
                         "transactions (\(backend)): after kill \(attempt) the placements are not a fresh pack")
            if !location.hasPrefix("postgresql:") {
                let health = DatabaseAudit.health(path: location)
                report.check(health == "ok", "transactions (\(backend)): after kill \(attempt): \(health)")
            }
        }
        let revision = (try? StoredGrid.read("a", path: location))??.revision ?? -1
        print("transactions: \(killed) processes changing two grids per transaction killed with SIGKILL on \(backend); "
              + "both grids at revision \(revision) each time checked")
    }

    /// Waits, at most 10 s, until no session but this check's is connected to the database.
    static func waitForOtherSessions(on server: PostgreSQLLocation) -> Bool {
        guard let probe = try? PostgreSQLConnection(server) else { return false }
        for _ in 0..<1_000 {
            let others = try? probe.execute("""
                SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
                """)
            if let others, others.count == 1, others.int(0, 0) == 0 { return true }
            usleep(10_000)
        }
        return false
    }

    /// The two grids the child changes together.
    private static func grids(in database: GridDatabase) throws -> (a: Grid, b: Grid) {
        (try Grid(named: "a", in: database, creatingWith: GridOptions(sectionItemCounts: [40])),
         try Grid(named: "b", in: database, creatingWith: GridOptions(sectionItemCounts: [20_000])))
    }

    /// The child: changes grids `a` and `b` together, one transaction after another, until killed.
    static func child(location: String) -> Never {
        do {
            let database = try GridDatabase(location: location)
            let (a, b) = try grids(in: database)
            var generator = SeededGenerator(seed: UInt64(getpid()))
            let sizes: [TileSize?] = [nil, .small, .middle, .big]
            var step = 0
            while true {
                let content = GridContent(columns: 6, sections: [(0..<20_000).map { _ in sizes[Int(generator.next() % 4)] }])
                try database.write { transaction in
                    try transaction.update(a) { try $0.toggle(at: GridIndexPath(item: step % 40)) }
                    try transaction.update(b) { try $0.replaceContent(content) }
                }
                step += 1
            }
        } catch {
            FileHandle.standardError.write(Data("transaction child: \(error)\n".utf8))
            exit(1)
        }
    }
}
