#if canImport(Glibc)
import Glibc
#endif

// gridstore-bench: every timing goal of gridstore, measured in one run of a release build.
//
//   swift build -c release --package-path Benchmarks && Benchmarks/.build/release/gridstore-bench
//       all benchmarks;
//   Benchmarks/.build/release/gridstore-bench toggle history
//       only the named groups (see `allGroups` below).

let arguments = Array(CommandLine.arguments.dropFirst())

/// Prints a group's report, or its failure.
func report(_ group: () throws -> String) {
    do {
        print(try group(), terminator: "")
    } catch {
        print("benchmark failed: \(error)")
        exit(1)
    }
}

if arguments.first == "--peak-memory", arguments.count == 2, let count = Int(arguments[1]) {
    print(PackingBenchmarks.peakMemory(count: count))
    exit(0)
}

#if DEBUG
print("warning: this is a debug build; build with `swift build -c release --package-path Benchmarks` for meaningful numbers")
#endif

let allGroups = ["packing", "bulk", "toggle", "process", "honeycomb", "backends", "scaling", "history", "editor", "floors", "server",
                 "concurrency", "sync", "hub"]
let groups = arguments.isEmpty ? allGroups : arguments
print("# gridstore-bench")
for group in groups {
    switch group {
    case "packing":
        print(PackingBenchmarks.run(), terminator: "")
        print(ChildProcess.peakMemoryReport(count: 1_000_000))
    case "bulk":
        report { try RepositoryBenchmarks.runBulk() }
    case "toggle":
        report { try RepositoryBenchmarks.runToggle() }
    case "process":
        report { try ProcessBenchmarks.run() }
    case "honeycomb":
        report { try HoneycombBenchmarks.run() }
    case "backends":
        report { try BackendBenchmarks.run() }
    case "scaling":
        report { try ScalingBenchmarks.run() }
    case "history":
        report { try HistoryBenchmarks.run() }
    case "editor":
        report { try EditorBenchmarks.run() }
    case "server":
        report { try ServerBenchmarks.run() }
    case "floors":
        report { try FloorBenchmarks.run() }
    case "concurrency":
        report { try ConcurrencyBenchmarks.run() }
    case "sync":
        report { try SyncBenchmarks.run() }
    case "hub":
        report { try HubBenchmarks.run() }
    default:
        print("unknown benchmark group '\(group)'; groups: \(allGroups.joined(separator: ", "))")
        exit(64)
    }
}
print("\n(checksum \(Measurement.sink))")
