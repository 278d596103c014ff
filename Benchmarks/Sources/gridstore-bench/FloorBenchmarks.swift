#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GridLayout
import SeededRandom
import GridStore
import GridStoreSQLite
import GridStoreAudit

/// gridstore as processes against the floors SQLite and the machine set: the `sqlite3` shell
/// doing the same row work, and empty programs for each language's start-up, all started in
/// one run and interleaved, so every ratio compares like with like.
enum FloorBenchmarks {
    static func run() throws -> String {
        let scratch = try ScratchDirectory()
        let gridstore = ProcessBenchmarks.siblingExecutable("gridstore")
        let emptySwift = ProcessBenchmarks.siblingExecutable("gridstore-bench-empty-static")
        let sqlite3 = "/usr/bin/sqlite3"
        // An empty C program, compiled here by the toolchain's clang: built by SwiftPM it would
        // link the Swift runtime, and start as slowly as a Swift program.
        let emptyC = scratch.file("empty-c")
        _ = FileManager.default.createFile(atPath: emptyC + ".c", contents: Data("int main(void) { return 0; }\n".utf8))
        let candidates = ["/usr/bin/clang", "/opt/swift/usr/bin/clang", "/usr/bin/cc"]
        let clang = candidates.first { path in access(path, X_OK) == 0 } ?? "/usr/bin/cc"
        guard ChildProcess.run(clang, ["-O2", "-o", emptyC, emptyC + ".c"]).status == 0 else {
            throw BenchmarkError("cannot compile an empty C program with \(clang)")
        }
        let peakProgram = scratch.file("peak")
        _ = FileManager.default.createFile(atPath: peakProgram + ".c", contents: Data(ChildProcess.peakSource.utf8))
        guard ChildProcess.run(clang, ["-O2", "-o", peakProgram, peakProgram + ".c"]).status == 0 else {
            throw BenchmarkError("cannot compile the peak-memory program with \(clang)")
        }
        for program in [gridstore, emptySwift, emptyC, sqlite3] where access(program, X_OK) != 0 {
            throw BenchmarkError("\(program) is missing; build the benchmarks with `swift build -c release --package-path Benchmarks` (and install sqlite3)")
        }
        let count = 10_000
        let gridPath = scratch.file("floor-grid.sqlite")
        _ = try RepositoryBenchmarks.makeGrid(count, in: scratch, name: "floor-grid")
        let tablePath = scratch.file("floor-table.sqlite")
        let setup = ChildProcess.run(sqlite3, [tablePath, """
            PRAGMA journal_mode = WAL; CREATE TABLE sizes (item INTEGER PRIMARY KEY, size TEXT NOT NULL) STRICT;
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(count - 1))
            INSERT INTO sizes SELECT i, 'small' FROM n;
            """])
        guard setup.status == 0 else { throw BenchmarkError("sqlite3 could not set up its table") }

        // Every program once a round, in rotating order, so drift falls on all alike.
        var generator = SeededGenerator(seed: 3)
        let programs: [(name: String, command: () -> (String, [String]))] = [
            ("empty Swift", { (emptySwift, []) }),
            ("empty C", { (emptyC, []) }),
            ("gridstore toggle", { (gridstore, ["--db", gridPath, "--grid", "floor-grid", "toggle", String(Int(generator.next() % UInt64(count))), "-q"]) }),
            ("sqlite3 UPDATE", { (sqlite3, [tablePath, "PRAGMA synchronous = FULL; UPDATE sizes SET size = 'big' WHERE item = \(Int(generator.next() % UInt64(count)));"]) }),
            ("gridstore get", { (gridstore, ["--db", gridPath, "--grid", "floor-grid", "get", String(Int(generator.next() % UInt64(count)))]) }),
            ("sqlite3 SELECT", { (sqlite3, [tablePath, "SELECT size FROM sizes WHERE item = \(Int(generator.next() % UInt64(count)));"]) }),
        ]
        var samples = [[Double]](repeating: [], count: programs.count)
        let rounds = 61
        let clock = ContinuousClock()
        for round in -3..<rounds {
            for offset in 0..<programs.count {
                let index = (offset + max(0, round)) % programs.count
                let (program, arguments) = programs[index].command()
                var status: Int32 = 0
                let elapsed = clock.measure { status = ChildProcess.run(program, arguments, captureOutput: false).status }
                if status != 0 { print("warning: \(programs[index].name) exited with \(status)") }
                if round >= 0 { samples[index].append(Measurement.milliseconds(elapsed)) }
            }
        }
        let median = samples.map(Measurement.median)
        let (swiftStart, cStart) = (median[0], median[1])
        var table = Table("Processes beyond their language's start-up, \(count) rows (release build, median of \(rounds) interleaved runs)",
                          headers: ["work", "gridstore ms", "beyond empty Swift", "sqlite3 ms", "beyond empty C", "ratio", "goal"])
        table.add(["one-row change, committed (synchronous=FULL)", format(median[2]), format(median[2] - swiftStart),
                   format(median[3]), format(median[3] - cStart), format((median[2] - swiftStart) / (median[3] - cStart)) + "x", "≤ 1.5x"])
        table.add(["one-row read", format(median[4]), format(median[4] - swiftStart),
                   format(median[5]), format(median[5] - cStart), format((median[4] - swiftStart) / (median[5] - cStart)) + "x", "≤ 1.2x"])
        var text = table.render()
        text += "\nempty programs: Swift with -static-stdlib \(format(swiftStart)) ms, C \(format(cStart)) ms.\n"
        text += try importFloor(scratch: scratch, gridstore: gridstore, sqlite3: sqlite3, peakProgram: peakProgram)
        return text
    }

    /// `gridstore import` of 1,000,000 items from JSON against the `sqlite3` shell's `.import`
    /// of the same sizes as CSV into a WAL table.
    static func importFloor(scratch: ScratchDirectory, gridstore: String, sqlite3: String, peakProgram: String) throws -> String {
        let count = 1_000_000
        var generator = SeededGenerator(seed: 5)
        let sizes = (0..<count).map { _ in ["small", "middle", "big"][Int(generator.next() % 3)] }
        var json = "{\"grid\":\"import\",\"type\":\"more\",\"sections\":[{\"items\":["
        json += sizes.enumerated().map { "{\"index\":\($0.offset),\"size\":\"\($0.element)\"}" }.joined(separator: ",")
        json += "]}]}"
        let jsonPath = scratch.file("import.json"), csvPath = scratch.file("import.csv")
        _ = FileManager.default.createFile(atPath: jsonPath, contents: Data(json.utf8))
        _ = FileManager.default.createFile(atPath: csvPath, contents: Data(sizes.enumerated().map { "\($0.offset),\($0.element)\n" }.joined().utf8))
        var gridstoreTimes: [Double] = [], sqliteTimes: [Double] = [], peaks: [Int] = []
        let clock = ContinuousClock()
        for run in 0..<3 {
            let database = scratch.file("import-\(run).sqlite"), table = scratch.file("import-table-\(run).sqlite")
            _ = ChildProcess.run(sqlite3, [table, "PRAGMA journal_mode = WAL; CREATE TABLE sizes (item INTEGER PRIMARY KEY, size TEXT NOT NULL) STRICT;"])
            var status: Int32 = 0
            var peak = 0
            gridstoreTimes.append(Measurement.milliseconds(clock.measure {
                (status, peak) = ChildProcess.runMeasuringPeak(gridstore, ["--db", database, "import", jsonPath, "-q"], peakProgram: peakProgram)
            }))
            peaks.append(peak)
            if status != 0 { print("warning: gridstore import exited with \(status)") }
            sqliteTimes.append(Measurement.milliseconds(clock.measure {
                status = ChildProcess.run(sqlite3, [table, "PRAGMA synchronous = FULL;", ".mode csv", ".import \(csvPath) sizes"],
                                          captureOutput: false).status
            }))
            if status != 0 { print("warning: sqlite3 .import exited with \(status)") }
        }
        let gridstoreMedian = Measurement.median(gridstoreTimes), sqliteMedian = Measurement.median(sqliteTimes)
        let peak = Double(peaks.sorted()[peaks.count / 2]) / 1024
        return "\nimport of \(count) items: gridstore (JSON) \(format(gridstoreMedian)) ms, peak \(format(peak, decimals: 1)) MiB; "
            + "sqlite3 .import (CSV, WAL) \(format(sqliteMedian)) ms; ratio \(format(gridstoreMedian / sqliteMedian))x "
            + "(goal: ≤ 2x and ≤ 64 MB; median of 3)\n"
    }
}
