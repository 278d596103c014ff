import Foundation
import GridLayout
import GridStore
import GridStoreSQLite
import GridStoreAudit
import GridStorePostgreSQL
import SeededRandom
import TestSupport

/// The same work on both backends in one run: an SQLite file (WAL, synchronous=FULL) and a
/// PostgreSQL server this benchmark starts (default durable settings: fsync and synchronous
/// commit on), on a Unix socket of the same machine.
enum BackendBenchmarks {
    static func run() throws -> String {
        let scratch = try ScratchDirectory()
        let server = try PostgreSQLTestServer(durable: true)
        defer { server.stop() }
        let gridstore = try ProcessBenchmarks.gridstoreExecutable()
        var table = Table("SQLite and PostgreSQL side by side (release build, medians; PostgreSQL on a local Unix socket)",
                          headers: ["backend", "toggle 10k ms", "bulk set 100k ms", "8 processes, 8 grids: changes/s",
                                    "8 processes, 1 grid: changes/s"])
        for backend in ["SQLite", "PostgreSQL"] {
            let location = { (name: String) throws -> String in
                backend == "SQLite" ? scratch.file(name + ".sqlite") : try server.makeDatabase()
            }
            let toggle = try toggleLatency(at: location("toggle"))
            let bulk = try bulkSet(at: location)
            let spread = throughput(gridstore, at: try location("spread"), grids: 8)
            let shared = throughput(gridstore, at: try location("shared"), grids: 1)
            table.add([backend, format(toggle, decimals: 2), format(bulk, decimals: 0), format(spread, decimals: 0),
                       format(shared, decimals: 0)])
        }
        return table.render() + """

            toggle: a random item of a 10,000-item grid, in process, committed (201 runs). bulk: 100,000 sizes in one
            change on a fresh grid (5 runs). throughput: 8 threads each starting 40 `gridstore toggle` processes on
            their own grid or all on one grid, total changes divided by wall time.

            """
    }

    /// The median time of toggling a random item of a 10,000-item grid.
    static func toggleLatency(at location: String) throws -> Double {
        let database = try GridDatabase(location: location)
        let sizes = RepositoryBenchmarks.randomSizes(10_000, seed: 9)
        let grid = try Grid.create(named: "toggle", in: database, content: GridContent(columns: 6, sections: [sizes.map { $0 }]),
                                   replacing: true)
        var generator = SeededGenerator(seed: 42)
        return try Measurement.medianOfSelfTimed(runs: 201) {
            let item = Int(generator.next() % 10_000)
            return try RepositoryBenchmarks.timed { try grid.toggle(at: GridIndexPath(item: item)) }
        }
    }

    /// The median time of setting 100,000 sizes in one change, each run on a fresh grid.
    static func bulkSet(at location: (String) throws -> String) throws -> Double {
        let sizes = RepositoryBenchmarks.randomSizes(100_000, seed: 100_000)
        var wanted: [GridIndexPath: TileSize] = [:]
        for (item, size) in sizes.enumerated() { wanted[GridIndexPath(item: item)] = size }
        var samples: [Double] = []
        for run in 0..<5 {
            let repository = try DatabaseGridSizeRepository(suiteName: "bulk\(run)", database: GridDatabase(location: location("bulk\(run)")),
                                                          creatingWith: GridOptions(sectionItemCounts: [sizes.count]))
            _ = try repository.snapshot()
            samples.append(try RepositoryBenchmarks.timed { try repository.set(wanted) })
        }
        return Measurement.median(samples)
    }

    /// Changes per second of 8 threads each running 40 `gridstore toggle` processes, on `grids` grids.
    static func throughput(_ gridstore: String, at location: String, grids: Int) -> Double {
        for grid in 0..<grids {
            _ = ChildProcess.run(gridstore, ["--db", location, "--grid", "g\(grid)", "init", "--items", "1000"], captureOutput: false)
        }
        let perThread = 40
        let group = DispatchGroup()
        let started = ContinuousClock.now
        for thread in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                var generator = SeededGenerator(seed: UInt64(thread))
                for _ in 0..<perThread {
                    let item = String(generator.next() % 1000)
                    _ = ChildProcess.run(gridstore, ["--db", location, "--grid", "g\(thread % grids)", "toggle", item],
                                         captureOutput: false)
                }
                group.leave()
            }
        }
        group.wait()
        let seconds = Measurement.milliseconds(ContinuousClock.now - started) / 1000
        return Double(8 * perThread) / seconds
    }
}
