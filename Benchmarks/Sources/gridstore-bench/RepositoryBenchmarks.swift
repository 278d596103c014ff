import Foundation
import GridLayout
import SeededRandom
import GridStore
import GridStoreSQLite
import GridStoreAudit
import SQLiteBaseline

/// Bulk size writes and toggles through the SQLite repository, against Foundation's
/// `UserDefaults` and a raw C loop over the same table.
enum RepositoryBenchmarks {
    static func runBulk() throws -> String {
        let scratch = try ScratchDirectory()
        var text = ""
        var bulk = Table("Setting sizes in one batch (release build, median of alternating runs, each on a fresh grid)",
                         headers: ["sizes", "repository ms", "C, same rows ms", "repository / C", "C, a row per size ms",
                                   "repository / rows", "UserDefaults ms", "UserDefaults / repository"])
        for (count, runs) in [(10_000, 11), (100_000, 7)] {
            let sizes = randomSizes(count, seed: UInt64(count))
            // Alternate the two so that drifts in the machine's speed touch both alike.
            _ = try repositoryBulkSet(sizes, in: scratch)
            _ = try rawBulkSet(sizes, in: scratch)
            _ = try rowBulkSet(sizes, in: scratch)
            var repositorySamples: [Double] = []
            var rawSamples: [Double] = []
            var rowSamples: [Double] = []
            for _ in 0..<runs {
                repositorySamples.append(try repositoryBulkSet(sizes, in: scratch))
                rawSamples.append(try rawBulkSet(sizes, in: scratch))
                rowSamples.append(try rowBulkSet(sizes, in: scratch))
            }
            let repository = Measurement.median(repositorySamples)
            let raw = Measurement.median(rawSamples)
            let rows = Measurement.median(rowSamples)
            var defaultsCell = "not run", ratioCell = ""
            if count <= 10_000 {
                let defaults = Measurement.medianOfSelfTimed(runs: 3, warmup: 0) { userDefaultsBulkSet(sizes) }
                defaultsCell = format(defaults)
                ratioCell = format(defaults / repository, decimals: 0) + "x"
            }
            bulk.add([String(count), format(repository), format(raw), format(repository / raw) + "x", format(rows),
                      format(repository / rows) + "x", defaultsCell, ratioCell])
        }
        text += bulk.render()
        text += "\nC, same rows: the size chunks gridstore writes, and nothing else (no placements, no history). "
            + "C, a row per size: the sizes in a table shaped as item_sizes was before schema version 7.\n"
        text += "\nUserDefaults is not run for 100,000 sizes: its time grows quadratically (it rewrites the whole plist per set).\n"
        text += "target: bulk set within 1.3x of the raw C loop and 100x faster than UserDefaults at 10,000.\n"
        return text
    }

    static func runToggle() throws -> String {
        let scratch = try ScratchDirectory()
        var toggles = Table("Toggle one tile in a grid of n items (in process, committed; release build, median)",
                            headers: ["items", "toggles", "random item ms", "first item ms", "last item ms"])
        for (count, runs) in [(1_000, 301), (10_000, 201), (100_000, 41)] {
            let grid = try makeGrid(count, in: scratch, name: "toggle-\(count)")
            var generator = SeededGenerator(seed: 42)
            let random = try Measurement.medianOfSelfTimed(runs: runs) {
                let item = Int(generator.next() % UInt64(count))
                return try timed { try grid.toggle(at: GridIndexPath(item: item)) }
            }
            let first = try Measurement.medianOfSelfTimed(runs: runs / 4) { try timed { try grid.toggle(at: GridIndexPath(item: 0)) } }
            let last = try Measurement.medianOfSelfTimed(runs: runs / 4) {
                try timed { try grid.toggle(at: GridIndexPath(item: count - 1)) }
            }
            toggles.add([String(count), String(runs), format(random, decimals: 3), format(first, decimals: 3), format(last, decimals: 3)])
        }
        return toggles.render() + "\ntarget: toggle under 2 ms at 10,000 items and under 20 ms at 100,000 (random item).\n"
            + (try firstOfManyAgainstFloor(in: scratch))
    }

    /// Toggling the first of 100,000 items moves every later tile. The floor is one C
    /// transaction that stores the size and rewrites every placement chunk with text of the
    /// same length, on a second database holding the same grid; the two alternate.
    static func firstOfManyAgainstFloor(in scratch: ScratchDirectory) throws -> String {
        let count = 100_000
        let grid = try makeGrid(count, in: scratch, name: "first-\(count)")
        _ = try makeGrid(count, in: scratch, name: "floor-\(count)")
        let floorPath = scratch.file("floor-\(count).sqlite")
        var gridstore: [Double] = [], floor: [Double] = []
        var bytes: Int64 = 0
        for run in 0..<31 {
            gridstore.append(try timed { try grid.toggle(at: GridIndexPath(item: 0)) })
            var elapsed = 0.0
            let result = gridstore_baseline_rewrite_chunks(floorPath, 1, Int32(run % 2), &elapsed, &bytes)
            guard result == 0 else { throw BenchmarkError("the C rewrite of placement chunks failed with SQLite code \(result)") }
            floor.append(elapsed)
        }
        let mine = Measurement.median(gridstore), theirs = Measurement.median(floor)
        return "\ntoggle the first of \(count) items (every later tile moves; \(bytes / 1024) KiB of placement chunks): "
            + "\(format(mine, decimals: 2)) ms; one C transaction rewriting the same chunks: \(format(theirs, decimals: 2)) ms "
            + "(\(format(mine / theirs))x; medians of 31, interleaved)\n"
    }

    static func randomSizes(_ count: Int, seed: UInt64) -> [TileSize] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in TileSize.allCases[Int(generator.next() % 3)] }
    }

    /// A grid of `count` items with random sizes, in a database of its own.
    static func makeGrid(_ count: Int, in scratch: ScratchDirectory, name: String) throws -> Grid {
        let database = try GridDatabase(path: scratch.file("\(name).sqlite"))
        let sizes = randomSizes(count, seed: 9)
        return try Grid.create(named: name, in: database,
                               content: GridContent(columns: 6, sections: [sizes.map { Optional($0) }]), replacing: true)
    }

    /// Milliseconds taken by `body`.
    static func timed(_ body: () throws -> Any) rethrows -> Double {
        var result: Any = 0
        let elapsed = try ContinuousClock().measure { result = try body() }
        Measurement.sink &+= (result as? GridSnapshot)?.revision ?? 0
        return Measurement.milliseconds(elapsed)
    }

    static func repositoryBulkSet(_ sizes: [TileSize], in scratch: ScratchDirectory) throws -> Double {
        let path = scratch.file("bulk-repository.sqlite")
        scratch.remove("bulk-repository.sqlite")
        let repository = try DatabaseGridSizeRepository(
            suiteName: "bulk", database: GridDatabase(path: path), creatingWith: GridOptions(sectionItemCounts: [sizes.count]))
        _ = try repository.snapshot()  // create the grid before the clock starts
        var wanted: [GridIndexPath: TileSize] = [:]
        wanted.reserveCapacity(sizes.count)
        for (item, size) in sizes.enumerated() { wanted[GridIndexPath(item: item)] = size }
        return try timed { try repository.set(wanted) }
    }

    static func rowBulkSet(_ sizes: [TileSize], in scratch: ScratchDirectory) throws -> Double {
        let path = scratch.file("bulk-rows.sqlite")
        scratch.remove("bulk-rows.sqlite")
        let codes: [UInt8] = sizes.map { $0 == .small ? 0 : $0 == .middle ? 1 : 2 }
        var elapsed = 0.0
        let result = gridstore_baseline_set_size_rows(path, Int32(codes.count), codes, &elapsed)
        guard result == 0 else { throw BenchmarkError("the C loop of size rows failed with SQLite code \(result)") }
        return elapsed
    }

    static func rawBulkSet(_ sizes: [TileSize], in scratch: ScratchDirectory) throws -> Double {
        let path = scratch.file("bulk-raw.sqlite")
        scratch.remove("bulk-raw.sqlite")
        // The same schema and an empty grid of the same size, made through gridstore.
        _ = try Grid(named: "bulk", in: GridDatabase(path: path), creatingWith: GridOptions(sectionItemCounts: [sizes.count])).snapshot()
        let codes: [UInt8] = sizes.map { $0 == .small ? 0 : $0 == .middle ? 1 : 2 }
        var elapsed = 0.0
        let result = gridstore_baseline_set_sizes(path, 1, Int32(codes.count), codes, &elapsed)
        guard result == 0 else { throw BenchmarkError("the raw C loop failed with SQLite code \(result)") }
        return elapsed
    }

    /// The original iOS layout's storage: one `UserDefaults` key per item, then `synchronize()`.
    static func userDefaultsBulkSet(_ sizes: [TileSize]) -> Double {
        let suite = "gridstore-bench-\(getpid())"
        let defaults = UserDefaults(suiteName: suite)!
        defer {
            defaults.removePersistentDomain(forName: suite)
            defaults.synchronize()
        }
        let names = ["grid_size_small", "grid_size_middle", "grid_size_big"]
        return Measurement.milliseconds(ContinuousClock().measure {
            for (item, size) in sizes.enumerated() {
                defaults.set(names[size == .small ? 0 : size == .middle ? 1 : 2], forKey: "r:\(item)_s:0_grid_item_size")
            }
            defaults.synchronize()
        })
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A temporary folder for benchmark databases, removed at the end.
final class ScratchDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/gridstore-bench-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw BenchmarkError("cannot create a temporary folder") }
        path = String(cString: created)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove(_ name: String) {
        for suffix in ["", "-wal", "-shm"] { unlink(file(name) + suffix) }
    }
}
