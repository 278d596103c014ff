import Foundation
import Synchronization
import GridLayout
import GridStore
import GridStoreSQLite
import GridStorePostgreSQL
import TestSupport

/// Many async callers and many observers in one process, on both backends: every change
/// succeeds with threads bounded by the connections, and observers of a hundred grids share
/// one change signal that sees another process's change at once.
enum ConcurrencyBenchmarks {
    static func run() throws -> String {
        let scratch = try ScratchDirectory()
        let server = try PostgreSQLTestServer(durable: true)
        defer { server.stop() }
        let gridstore = try ProcessBenchmarks.gridstoreExecutable()
        var changes = Table("10,000 concurrent async changes from one process (release build)",
                            headers: ["backend", "connections", "succeeded", "seconds", "changes/s", "peak threads",
                                      "allowed (connections + 4)", "peak RSS MiB"])
        var observers = Table("100 grids observed in one process; another process changes one (21 runs)",
                              headers: ["backend", "observer threads", "seen after (median ms)", "worst ms"])
        for backend in ["SQLite", "PostgreSQL"] {
            let location = backend == "SQLite" ? scratch.file("concurrency.sqlite") : try server.makeDatabase()
            let connections = backend == "SQLite" ? 1 : 4
            let database = backend == "SQLite" ? try GridDatabase(path: location)
                : try GridDatabase(postgreSQL: location, connections: connections)
            let result = try concurrentChanges(database, count: 10_000)
            changes.add([backend, String(connections), "\(result.succeeded) of 10,000", format(result.seconds, decimals: 2),
                         format(Double(result.succeeded) / result.seconds, decimals: 0), String(result.peakThreads),
                         String(connections + 4), format(Measurement.peakResidentMiB(), decimals: 0)])
            let seen = try observation(database, location: location, gridstore: gridstore)
            observers.add([backend, String(seen.threads), format(seen.median, decimals: 1),
                           format(seen.worst, decimals: 1)])
        }
        return changes.render() + """

            10,000 tasks, each one `toggle` of one of 100 grids, all started at once; peak threads from /proc/self/status
            sampled every millisecond: every thread of the process (main, the cooperative pool's, the executors') but the
            sampler's own.

            """ + observers.render() + """

            Each run: 100 tasks iterate changes() of their own grid; a `gridstore toggle` process changes one; the time is
            from the grid's stored change time to the observer waking, on the wall clock (millisecond resolution).
            Observer threads: the threads the process has beyond those it had before observing (the one watch loop, and the
            read executor's threads, one per connection); on PostgreSQL the watch holds one LISTEN connection.

            """
    }

    /// `count` async toggles started at once over 100 grids.
    static func concurrentChanges(_ database: GridDatabase, count: Int)
        throws -> (succeeded: Int, seconds: Double, peakThreads: Int) {
        let grids = try (0..<100).map { try Grid(named: "c\($0)", in: database, creatingWith: GridOptions(sectionItemCounts: [50])) }
        try database.write { transaction in
            for grid in grids { try transaction.update(grid) { try $0.toggle(at: GridIndexPath(item: 0)) } }
        }
        let sampler = ThreadSampler()
        let start = ContinuousClock.now
        let succeeded = blockingAsync {
            await withTaskGroup(of: Bool.self) { group in
                for index in 0..<count {
                    group.addTask {
                        (try? await grids[index % grids.count].changing { try $0.toggle(at: GridIndexPath(item: (index / grids.count) % 50)) }) != nil
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
        }
        let seconds = Measurement.milliseconds(ContinuousClock.now - start) / 1_000
        return (succeeded, seconds, sampler.stop())
    }

    /// How soon 100 observers see a change another process makes.
    static func observation(_ database: GridDatabase, location: String, gridstore: String)
        throws -> (threads: Int, median: Double, worst: Double) {
        let grids = try (0..<100).map { try Grid(named: "o\($0)", in: database, creatingWith: GridOptions(sectionItemCounts: [8])) }
        try database.write { transaction in
            for grid in grids { try transaction.update(grid) { try $0.toggle(at: GridIndexPath(item: 0)) } }
        }
        let before = ThreadSampler.threads()
        let log = ObservationLog()
        let observing = Task {
            await withTaskGroup(of: Void.self) { group in
                for (index, grid) in grids.enumerated() {
                    group.addTask {
                        var seen = 0
                        do {
                            for try await change in grid.changes(pollingEvery: .seconds(60)) {
                                if change.isInitial { log.ready.withLock { $0 += 1 }; continue }
                                seen += 1
                                let now = Date().timeIntervalSince1970 * 1_000
                                log.woken.withLock { $0[index * 1_000 + seen] = now }
                            }
                        } catch {}
                    }
                }
            }
        }
        while log.ready.withLock({ $0 }) < grids.count { Thread.sleep(forTimeInterval: 0.005) }
        let threads = ThreadSampler.threads() - before
        var latencies: [Double] = []
        for run in 0..<21 {
            let index = (run * 37) % grids.count
            _ = ChildProcess.run(gridstore, ["--db", location, "--grid", "o\(index)", "-q", "toggle", "1"])
            let changedAt = try storedChangeTime(of: "o\(index)", in: database)
            var wake: Double?
            for _ in 0..<2_000 {
                wake = log.woken.withLock { $0.removeValue(forKey: index * 1_000 + (run / grids.count) + 1) }
                if wake != nil { break }
                Thread.sleep(forTimeInterval: 0.001)
            }
            if let wake { latencies.append(max(0, wake - changedAt)) }
        }
        observing.cancel()
        return (threads, Measurement.median(latencies), latencies.max() ?? .nan)
    }

    /// When the grid last changed, as stored, in milliseconds since 1970.
    static func storedChangeTime(of name: String, in database: GridDatabase) throws -> Double {
        guard let summary = try Grid.list(in: database).first(where: { $0.name == name }) else {
            throw BenchmarkError("grid '\(name)' is missing")
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return (formatter.date(from: summary.updatedAt)?.timeIntervalSince1970 ?? .nan) * 1_000
    }

    /// Runs `body` to its end from synchronous code.
    static func blockingAsync<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            result.value.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.value.withLock { $0! }
    }
}

/// Samples the process's thread count every millisecond until stopped, keeping the peak.
final class ThreadSampler: @unchecked Sendable {
    private let peak = Mutex(0)
    private let running = Mutex(true)
    private let done = DispatchSemaphore(value: 0)

    init() {
        Thread.detachNewThread { [self] in
            while running.withLock({ $0 }) {
                let now = Self.threads()
                peak.withLock { $0 = max($0, now) }
                Thread.sleep(forTimeInterval: 0.001)
            }
            done.signal()
        }
    }

    /// Stops sampling: the peak thread count seen, less the sampler's own thread.
    func stop() -> Int {
        running.withLock { $0 = false }
        done.wait()
        return peak.withLock { $0 } - 1
    }

    /// The process's threads now (`Threads:` of /proc/self/status).
    static func threads() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") }) else { return -1 }
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? -1
    }
}

/// What the observers of the observation benchmark saw.
final class ObservationLog: Sendable {
    /// When each observer woke, in milliseconds since 1970, by grid and change.
    let woken = Mutex<[Int: Double]>([:])
    /// How many observers have their initial state.
    let ready = Mutex(0)
}

/// A value handed from a task to synchronous code.
final class ResultBox<T: Sendable>: Sendable {
    let value = Mutex<T?>(nil)
}
