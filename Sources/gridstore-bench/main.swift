#if canImport(Glibc)
import Glibc
#endif

// gridstore-bench: every timing goal of gridstore, measured in one run of a release build.
//
//   swift run -c release gridstore-bench            all benchmarks
//   swift run -c release gridstore-bench packing    only the named groups

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "--peak-memory", arguments.count == 2, let count = Int(arguments[1]) {
    print(PackingBenchmarks.peakMemory(count: count))
    exit(0)
}

#if DEBUG
print("warning: this is a debug build; run `swift run -c release gridstore-bench` for meaningful numbers")
#endif

let groups = arguments.isEmpty ? ["packing"] : arguments
print("# gridstore-bench")
for group in groups {
    switch group {
    case "packing":
        print(PackingBenchmarks.run(), terminator: "")
        print(ChildProcess.peakMemoryReport(count: 1_000_000))
    default:
        print("unknown benchmark group '\(group)'; groups: packing")
        exit(64)
    }
}
print("\n(checksum \(Measurement.sink))")
