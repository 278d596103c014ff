#if canImport(Glibc)
import Glibc
#endif
import GridLayout
import SeededRandom
import GridStore
import GridStoreSQLite
import GridStoreAudit

/// `gridstore toggle` as a new process, against the original's UserDefaults storage and an
/// empty Swift program.
enum ProcessBenchmarks {
    /// The path of a program built beside this benchmark.
    static func siblingExecutable(_ name: String) -> String {
        String(ChildProcess.currentExecutable.split(separator: "/", omittingEmptySubsequences: false)
            .dropLast().joined(separator: "/")) + "/" + name
    }

    /// The `gridstore` built beside the benchmarks.
    ///
    /// - Throws: ``BenchmarkError`` when it was not built.
    static func gridstoreExecutable() throws -> String {
        let gridstore = siblingExecutable("gridstore")
        guard access(gridstore, X_OK) == 0 else {
            throw BenchmarkError("\(gridstore) is missing; build the benchmarks with `swift build -c release --package-path Benchmarks` first")
        }
        return gridstore
    }

    static func run() throws -> String {
        let scratch = try ScratchDirectory()
        let gridstore = siblingExecutable("gridstore")
        let empty = siblingExecutable("gridstore-bench-empty")
        let defaultsProgram = siblingExecutable("gridstore-bench-defaults")
        for program in [gridstore, empty, defaultsProgram] where access(program, X_OK) != 0 {
            throw BenchmarkError("\(program) is missing; build the benchmarks with `swift build -c release --package-path Benchmarks` first")
        }
        let runs = 101
        let emptyMilliseconds = medianWallTime(runs: runs) { _ in (empty, []) }

        var table = Table("A toggle as a new process (release build, median wall time of \(runs) runs, output to /dev/null)",
                          headers: ["items", "gridstore toggle ms", "UserDefaults toggle ms", "UserDefaults / gridstore",
                                    "gridstore - empty program ms"])
        for count in [1_000, 10_000] {
            let path = scratch.file("process-\(count).sqlite")
            _ = try RepositoryBenchmarks.makeGrid(count, in: scratch, name: "process-\(count)")
            let suite = "gridstore-bench-process-\(getpid())-\(count)"
            _ = ChildProcess.run(defaultsProgram, [suite, "fill", String(count)], captureOutput: false)
            defer { _ = ChildProcess.run(defaultsProgram, [suite, "remove"], captureOutput: false) }

            var generator = SeededGenerator(seed: UInt64(count))
            let toggle = medianWallTime(runs: runs) { _ in
                (gridstore, ["--db", path, "--grid", "process-\(count)", "toggle", String(Int(generator.next() % UInt64(count)))])
            }
            let defaults = medianWallTime(runs: count >= 10_000 ? 31 : runs) { _ in
                (defaultsProgram, [suite, "toggle", String(Int(generator.next() % UInt64(count)))])
            }
            table.add([String(count), format(toggle), format(defaults), format(defaults / toggle, decimals: 1) + "x",
                       format(toggle - emptyMilliseconds)])
        }
        var text = table.render()
        text += "\nan empty Swift program (default dynamic linking) starts in \(format(emptyMilliseconds)) ms median.\n"
        text += "gridstore links the Swift runtime statically (see Package.swift); every toggle is committed with synchronous=FULL.\n"
        text += "targets: at least 5x faster than UserDefaults at 10,000 items, within 6 ms of the empty program.\n"
        return text
    }

    /// The median wall time, in milliseconds, of running the program `command` returns for each run.
    static func medianWallTime(runs: Int, _ command: (Int) -> (String, [String])) -> Double {
        let clock = ContinuousClock()
        var samples: [Double] = []
        for run in -3..<runs {  // three warm-up runs
            let (program, arguments) = command(run)
            var status: Int32 = 0
            let elapsed = clock.measure { status = ChildProcess.run(program, arguments, captureOutput: false).status }
            if status != 0 { print("warning: \(program) \(arguments.joined(separator: " ")) exited with \(status)") }
            if run >= 0 { samples.append(Measurement.milliseconds(elapsed)) }
        }
        return Measurement.median(samples)
    }
}
