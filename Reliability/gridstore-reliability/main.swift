import Foundation
import TestSupport

// gridstore-reliability: many processes at once, kill -9 mid-write, hostile files, fuzzed
// command lines and documents, odd grid names. Prints one summary line; exits 1 on any failure.
//
//   swift build -c release && .build/release/gridstore-reliability [path/to/gridstore]
//
// The PostgreSQL pass starts a server of its own (initdb + pg_ctl); with CI set, a missing
// PostgreSQL is a failure.

if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--transaction-child" {
    TransactionKillCheck.child(location: CommandLine.arguments[2])
}

let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
let executable = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : here.appendingPathComponent("gridstore").path
guard FileManager.default.isExecutableFile(atPath: executable) else {
    print("error: no gridstore executable at \(executable); build it first (swift build -c release)")
    exit(1)
}
var template = Array((NSTemporaryDirectory() + "/gridstore-reliability-XXXXXX").utf8CString)
guard let created = mkdtemp(&template) else {
    print("error: cannot create a scratch folder")
    exit(1)
}
let scratch = String(cString: created)
chmod(scratch, 0o777)
// A copy anyone may run, for the checks that run gridstore as an unprivileged user.
let binary = scratch + "/gridstore"
try FileManager.default.copyItem(atPath: executable, toPath: binary)
chmod(binary, 0o755)
let outputs = scratch + "/outputs"
try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: true)
chmod(outputs, 0o777)

let runner = ProcessRunner(executable: binary, scratch: outputs)
let report = Report()
let started = Date()
for (name, check) in [
    ("concurrency", ConcurrencyCheck.run), ("crash", CrashCheck.run), ("hostile files", HostileFileCheck.run),
    ("names", NameCheck.run), ("fuzz", FuzzCheck.run), ("postgresql", PostgreSQLCheck.run), ("readers", ReaderCheck.run),
    ("in-process writers", InProcessWriterCheck.run), ("async pool", AsyncPoolCheck.run),
    ("transactions", TransactionKillCheck.run), ("sync", SyncKillCheck.run),
] as [(String, (ProcessRunner, String, Report) -> Void)] {
    // GRIDSTORE_RELIABILITY_ONLY=postgresql,names runs only those checks, while working on them.
    if let only = ProcessInfo.processInfo.environment["GRIDSTORE_RELIABILITY_ONLY"],
       !only.split(separator: ",").contains(Substring(name)) { continue }
    let start = Date()
    check(runner, scratch, report)
    print("  \(name) took \(Int(Date().timeIntervalSince(start))) s")
}
if report.failures.isEmpty { try? FileManager.default.removeItem(atPath: scratch) }
print("reliability: \(report.processes) processes, \(report.commands) commands run, \(report.crashesInjected) crashes injected, "
      + "\(report.hostileFiles) hostile files, \(report.fuzzCases) fuzz cases, \(report.failures.count) failures "
      + "(\(Int(Date().timeIntervalSince(started))) s)")
exit(report.failures.isEmpty ? 0 : 1)
