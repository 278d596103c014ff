import Foundation
import Synchronization
import GridLayout
import GridStore
import GridStorePostgreSQL
import GridStoreSQLite
import SeededRandom
import TestSupport

/// An app server's pattern against PostgreSQL's own floor, in one run on one server this
/// benchmark starts (durable settings: fsync and synchronous commit on, a Unix socket).
///
/// The floor is `pgbench -N` (its simple-update transaction: three statements in five round
/// trips) with 1 and 8 clients. Then one long-lived process toggles random items with 1 and 8
/// threads, each change on its own connection of one pooled handle, on 8 grids and on 1
/// grid, of 1,000 and 10,000 items.
enum ServerBenchmarks {
    /// How long each measured configuration runs.
    static let seconds = 5.0

    static func run() throws -> String {
        let server = try PostgreSQLTestServer(durable: true)
        defer { server.stop() }
        let floor = try pgbenchFloor(server, mode: "simple")
        let prepared = try pgbenchFloor(server, mode: "prepared")
        var table = Table("An app server on PostgreSQL against pgbench -N (release build, durable server on a Unix socket)",
                          headers: ["workload", "changes/s", "x pgbench", "median ms", "p99 ms"])
        for clients in [1, 8] {
            let tps = floor[clients]!
            table.add(["pgbench -N, \(clients) client\(clients == 1 ? "" : "s")", format(tps.perSecond, decimals: 0), "1.00",
                       format(tps.medianMilliseconds), "n/a"])
            let fast = prepared[clients]!
            table.add(["pgbench -N -M prepared, \(clients) client\(clients == 1 ? "" : "s")", format(fast.perSecond, decimals: 0),
                       format(fast.perSecond / tps.perSecond), format(fast.medianMilliseconds), "n/a"])
        }
        // Unmeasured: the first 8-connection run of a server (after pgbench's) came out slower
        // than the same run later, whichever kind of handle it used: 2,760 changes/s against
        // 3,110 to 3,200, in one series of runs. Each run has a database of its own, so this
        // warms what the server shares: its buffers, its WAL files, the machine's caches.
        _ = try toggles(server, connections: 8, grids: 8, items: 1_000, duration: 2)
        for connections in [1, 8] {
            for grids in [8, 1] {
                for items in [1_000, 10_000] {
                    let result = try toggles(server, connections: connections, grids: grids, items: items)
                    let ratio = result.perSecond / floor[connections]!.perSecond
                    table.add(["\(connections) conn, \(grids) grid\(grids == 1 ? "" : "s") of \(items)",
                               format(result.perSecond, decimals: 0), format(ratio), format(result.medianMilliseconds),
                               format(result.p99Milliseconds)])
                }
            }
        }
        let separate = try toggles(server, connections: 8, grids: 8, items: 1_000, separateHandles: true)
        table.add(["8 handles of 1 conn, 8 grids of 1000", format(separate.perSecond, decimals: 0),
                   format(separate.perSecond / floor[8]!.perSecond), format(separate.medianMilliseconds),
                   format(separate.p99Milliseconds)])
        let bulk = try bulkSets(server)
        return table.render() + """

            Each row runs \(Int(seconds)) s after a CHECKPOINT, gridstore's after one unmeasured 2 s run; changes/s counts
            acknowledged changes over wall time. pgbench: `-N` (its default simple protocol; x pgbench compares with it)
            and `-N -M prepared`, scale 8, median of 3 runs, median ms is pgbench's average latency. gridstore: N threads
            share one GridDatabase(postgreSQL:connections: N); thread i toggles random items of grid i mod grids.
            Bulk set of 100,000 sizes in one change on a fresh grid (median of 5): SQLite \(format(bulk.sqlite, decimals: 0)) ms, \
            PostgreSQL \(format(bulk.postgreSQL, decimals: 0)) ms (\(format(bulk.postgreSQL / bulk.sqlite))x).

            """
    }

    struct Rate {
        var perSecond: Double
        var medianMilliseconds: Double
        var p99Milliseconds: Double = .nan
    }

    /// pgbench's simple-update transactions per second with 1 and 8 clients (median of 3 runs).
    static func pgbenchFloor(_ server: PostgreSQLTestServer, mode: String) throws -> [Int: Rate] {
        let url = server.url(database: "pgbench")
        if mode == "simple" { _ = try server.runClient("createdb", ["-h", server.directory, "-p", String(server.port), "-U", server.user, "pgbench"]) }
        let database = String(url.split(separator: "?")[0].split(separator: "/").last!)
        let connection = ["-h", server.directory, "-p", String(server.port), "-U", server.user]
        if mode == "simple" { _ = try server.runClient("pgbench", ["-i", "-q", "-s", "8"] + connection + [database]) }
        var rates: [Int: Rate] = [:]
        for clients in [1, 8] {
            var runs: [Rate] = []
            for _ in 0..<3 {
                try checkpoint(server)
                let output = try server.runClient("pgbench", ["-N", "-M", mode, "-n", "-c", String(clients),
                                                              "-j", String(min(clients, 2)), "-T", String(Int(seconds))]
                                                  + connection + [database])
                runs.append(Rate(perSecond: number(after: "tps = ", in: output), medianMilliseconds: number(after: "latency average = ", in: output)))
            }
            let sorted = runs.sorted { $0.perSecond < $1.perSecond }
            rates[clients] = sorted[1]
        }
        return rates
    }

    /// Writes every changed page out, so that each measured run starts from a checkpoint and
    /// none pays for one that the WAL of the runs before it brought on (with the full-page
    /// images that follow a checkpoint).
    static func checkpoint(_ server: PostgreSQLTestServer) throws {
        _ = try server.runClient("psql", ["-h", server.directory, "-p", String(server.port), "-U", server.user, "-X", "-q",
                                          "-c", "CHECKPOINT", "postgres"])
    }

    /// The number that follows `label` in pgbench's output.
    static func number(after label: String, in output: String) -> Double {
        guard let range = output.range(of: label) else { return .nan }
        return Double(output[range.upperBound...].prefix { $0.isNumber || $0 == "." }) ?? .nan
    }

    /// Toggles for `duration` (``seconds``) with `connections` threads: on one pooled handle, or (`separateHandles`)
    /// each thread on a `GridDatabase` and `Grid`s of its own.
    static func toggles(_ server: PostgreSQLTestServer, connections: Int, grids: Int, items: Int,
                        separateHandles: Bool = false, duration: Double = seconds) throws -> Rate {
        let url = try server.makeDatabase()
        let shared = try GridDatabase(postgreSQL: url, connections: separateHandles ? 1 : connections)
        let sizes = RepositoryBenchmarks.randomSizes(items, seed: 9)
        for grid in 0..<grids {
            try Grid.create(named: "g\(grid)", in: shared, content: GridContent(columns: 6, sections: [sizes]))
        }
        let sharedGrids = try (0..<grids).map { try Grid(named: "g\($0)", in: shared) }
        let perThread = try (0..<connections).map { thread in
            guard separateHandles else { return sharedGrids[thread % grids] }
            return try Grid(named: "g\(thread % grids)", in: try GridDatabase(postgreSQL: url))
        }
        for grid in perThread { _ = try grid.snapshot() }
        try checkpoint(server)
        return try measureThreads(connections, duration: duration, failing: "a toggle") { thread in
            var generator = SeededGenerator(seed: UInt64(thread + 1))
            let grid = perThread[thread]
            let clock = ContinuousClock()
            return {
                let item = Int(generator.next() % UInt64(items))
                let before = clock.now
                try grid.toggle(at: GridIndexPath(item: item))
                return Measurement.milliseconds(clock.now - before)
            }
        }
    }

    /// Runs `threads` threads for `duration` seconds, each calling the step `makeStep` makes for
    /// it until the deadline; each call returns the milliseconds it measured. The rate is of
    /// calls over wall time.
    ///
    /// - Throws: ``BenchmarkError`` naming the first step that failed (`what`).
    static func measureThreads(_ threads: Int, duration: Double, failing what: String,
                               makeStep: @escaping @Sendable (Int) -> () throws -> Double) throws -> Rate {
        let latencies = Mutex<[Double]>([])
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        let clock = ContinuousClock()
        let started = clock.now
        let deadline = started.advanced(by: .milliseconds(Int(duration * 1_000)))
        for thread in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                let step = makeStep(thread)
                var mine: [Double] = []
                do {
                    while clock.now < deadline { mine.append(try step()) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
                latencies.withLock { $0 += mine }
                group.leave()
            }
        }
        group.wait()
        let wall = Measurement.milliseconds(clock.now - started) / 1_000
        if let failure = failures.withLock({ $0.first }) { throw BenchmarkError("\(what) failed: \(failure)") }
        let sorted = latencies.withLock { $0 }.sorted()
        return Rate(perSecond: Double(sorted.count) / wall, medianMilliseconds: Measurement.median(sorted),
                    p99Milliseconds: sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, sorted.count * 99 / 100)])
    }

    /// The median time of setting 100,000 sizes in one change on a fresh grid, on each backend.
    static func bulkSets(_ server: PostgreSQLTestServer) throws -> (sqlite: Double, postgreSQL: Double) {
        let scratch = try ScratchDirectory()
        let sqlite = try BackendBenchmarks.bulkSet { name in scratch.file(name + ".sqlite") }
        let postgreSQL = try BackendBenchmarks.bulkSet { _ in try server.makeDatabase() }
        return (sqlite, postgreSQL)
    }
}
