import Foundation
import TestSupport

/// A plain `sqlite3` (no busy timeout) reading in a loop while `gridstore toggle` processes
/// write: how often it meets "database is locked". Every process opens and closes the database,
/// the worst case (SQLite rebuilds its log index whenever no connection has the file open);
/// gridstore's own closing never locks a reader out, so the rate stays far below the 9% that
/// SQLite's closing checkpoint caused.
enum ReaderCheck {
    static let writes = 400
    /// The most lock errors tolerated, as a share of reads: measured 0.2%, against 9% before.
    static let tolerated = 0.02

    static func run(_ runner: ProcessRunner, scratch: String, report: Report) {
        let folder = scratch + "/readers"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/grids.sqlite"
        _ = runner.run(["--db", path, "init", "--items", "100", "-q"])
        let done = Flag()
        let failedWrites = Counter()
        Thread.detachNewThread {
            for index in 0..<writes {
                if runner.run(["--db", path, "toggle", String(index % 100), "-q"]).status != 0 { failedWrites.add() }
                report.count(processes: 1, commands: 1)
            }
            done.set()
        }
        var reads = 0, locked = 0, other = 0
        while !done.isSet {
            let reader = Process()
            reader.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            reader.arguments = [path, "SELECT revision FROM grids"]
            let errors = Pipe()
            reader.standardError = errors
            reader.standardOutput = FileHandle.nullDevice
            guard (try? reader.run()) != nil else {
                report.fail("readers: cannot run /usr/bin/sqlite3")
                return
            }
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            reader.waitUntilExit()
            reads += 1
            if reader.terminationStatus != 0 { message.contains("locked") ? (locked += 1) : (other += 1) }
        }
        report.check(failedWrites.value == 0, "readers: \(failedWrites.value) writes failed")
        report.check(other == 0, "readers: \(other) reads failed for another reason than a lock")
        report.check(Double(locked) <= tolerated * Double(reads),
                     "readers: \(locked) of \(reads) plain sqlite3 reads met 'database is locked'")
        print("readers: \(reads) plain sqlite3 reads during \(writes) gridstore writes; \(locked) met 'database is locked'")
    }
}
