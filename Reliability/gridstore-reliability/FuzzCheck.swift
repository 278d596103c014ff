import Foundation
import TestSupport
import GridStoreAudit
import SeededRandom
import GridStore
import GridStoreSQLite

/// Generated command lines and import documents: every run ends with 0, 1, 64 or 65, never
/// with a crash or a hang, and a run that fails leaves the database as it was.
enum FuzzCheck {
    static let workers = 3
    static let casesPerWorker = 2_000

    static func run(_ runner: ProcessRunner, scratch: String, report: Report) {
        let group = DispatchGroup()
        let statuses = StatusTally()
        for worker in 0..<workers {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                runWorker(worker, runner: runner, scratch: scratch + "/fuzz-\(worker)", report: report, statuses: statuses)
            }
        }
        group.wait()
        print("fuzz: \(workers * casesPerWorker + 2) cases; exit statuses \(statuses.summary)")
    }

    static func runWorker(_ worker: Int, runner: ProcessRunner, scratch: String, report: Report, statuses: StatusTally) {
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let path = scratch + "/fuzz.sqlite"
        var generator = SeededGenerator(seed: UInt64(4_000 + worker))
        var fingerprint = Fingerprint.of(path)
        var cases: [(arguments: [String], input: [UInt8]?, usesDatabase: Bool)] = []
        for index in 0..<casesPerWorker {
            cases.append(index % 10 == 9 ? importCase(&generator, path: path) : commandCase(&generator, path: path, scratch: scratch))
        }
        if worker == 0 {
            // A million items is the most a grid holds: imported whole. One more is refused.
            cases.append((["--db", path, "import", "-"], Documents.items(1_000_000), true))
            cases.append((["--db", path, "import", "-"], Documents.items(1_000_001), true))
        }
        for (arguments, input, usesDatabase) in cases {
            let result = runner.run(arguments, input: input, timeLimit: 60)
            report.count(processes: 1, commands: 1, fuzzCases: 1)
            statuses.add(result)
            let described = "fuzz: gridstore \(describe(arguments))"
            guard let status = result.status, !result.timedOut else {
                report.fail("\(described): \(result.summary)")
                continue
            }
            report.check([0, 1, 64, 65].contains(status), "\(described): exit \(status)")
            report.check(!result.standardError.contains("Fatal error") && !result.standardError.contains("Stack dump"),
                         "\(described): crashed: \(result.standardError.prefix(300))")
            if status != 0 {
                let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                // A usage error: the error, the usage (its continuation lines indented), where to find help.
                let usage = lines.dropFirst().dropLast()
                let shaped = status == 64
                    ? usage.first?.hasPrefix("Usage: ") == true && usage.dropFirst().allSatisfy { $0.hasPrefix(" ") }
                        && lines.last?.hasPrefix("See 'gridstore") == true
                    : lines.count == 1
                report.check(lines.first?.hasPrefix("Error: ") == true && shaped,
                             "\(described): error output is not one line (and the usage): \(result.standardError.prefix(300))")
            }
            let now = Fingerprint.of(path)
            if status != 0 && usesDatabase {
                report.check(now == fingerprint, "\(described): failed with exit \(status) but changed the database")
            }
            fingerprint = now
            // Keep the grid small, so later commands stay quick.
            if now.itemCount > 20_000 {
                for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
                fingerprint = Fingerprint.of(path)
            }
        }
    }

    // MARK: Command lines

    static let commands = ["init", "toggle", "set", "get", "show", "type", "columns", "direction", "items", "insert", "delete",
                           "move", "swap", "sections", "reset", "grids", "drop", "export", "import", "import-defaults", "migrate",
                           "help"]
    static let strangeCommands = ["", "TOGGLE", "toggl", "🧩", "-", "--", "exit", "sh", String(repeating: "x", count: 5_000)]
    static let options = ["--section", "--size", "--items", "--sections", "--type", "--columns", "--direction", "--default-size",
                          "--force", "--format", "--width", "--spacing", "--viewport", "--edge-distance", "--minimum-scale",
                          "--layout", "--element-width", "--orientation", "--center", "--status", "--grid", "--help", "-h",
                          "--version", "--bogus", "-x", "--", "--section=", "--items=3", "--grid="]
    static let values = [
        "0", "1", "2", "3", "5", "11", "12", "13", "-1", "-0", "+1", "007", "64", "65", "4", "6", "1000000", "1000001",
        "2147483647", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999999999999",
        "1e3", "1.5", "0x10", "abc", "", " ", "\t", "\n", "🧩", "ünïcödé", "small", "middle", "big", "huge", "Small",
        "less", "more", "toggle", "custom", "vertical", "horizontal", "list", "add", "remove", "text", "json", "svg", "xml",
        "tiles", "honeycomb", "pointy-top", "flat-top", "first", "last", "-", "--", "x,y,w,h", "0,0,100,100", "1,2,3",
        "-5,-5,1e9,1e9", "NaN", "inf", "'; DROP TABLE grids; --", "a\"b", "%s%n", "../../etc/passwd", "/dev/null",
        String(repeating: "a", count: 10_000), String(repeating: "9", count: 400), "default",
    ]

    static func commandCase(_ generator: inout SeededGenerator, path: String, scratch: String)
        -> (arguments: [String], input: [UInt8]?, usesDatabase: Bool) {
        var arguments: [String] = []
        var usesDatabase = true
        switch generator.next() % 20 {
        case 0: arguments += ["--db", scratch]; usesDatabase = false                           // a directory
        case 1: arguments += ["--db", scratch + "/new-\(generator.next() % 4)/g.sqlite"]; usesDatabase = false
        default: arguments += ["--db", path]
        }
        let roll = generator.next() % 100
        let command = roll < 92 ? commands.randomElement(using: &generator)! : strangeCommands.randomElement(using: &generator)!
        arguments.append(command)
        for _ in 0..<Int(generator.next() % 4) { arguments.append(values.randomElement(using: &generator)!) }
        for _ in 0..<Int(generator.next() % 3) {
            arguments.append(options.randomElement(using: &generator)!)
            if generator.next() % 4 != 0 { arguments.append(values.randomElement(using: &generator)!) }
        }
        if generator.next() % 5 == 0 {
            arguments.insert(contentsOf: ["--grid", Names.all.randomElement(using: &generator)!], at: Int(generator.next() % UInt64(arguments.count + 1)))
        }
        // import reads standard input for "-"; give it something.
        let input: [UInt8]? = arguments.contains("-") ? Documents.random(&generator) : nil
        return (arguments, input, usesDatabase)
    }

    static func importCase(_ generator: inout SeededGenerator, path: String) -> (arguments: [String], input: [UInt8]?, usesDatabase: Bool) {
        (["--db", path, "import", "-"], Documents.random(&generator), true)
    }

    private static func describe(_ arguments: [String]) -> String {
        arguments.map { $0.count > 60 ? String($0.prefix(60)) + "…(\($0.count))" : $0 }.joined(separator: " ")
    }
}

/// The state of every grid in a database, for "nothing changed" checks.
struct Fingerprint: Equatable {
    var rows: [String]
    var itemCount: Int

    static func of(_ path: String) -> Fingerprint {
        guard FileManager.default.fileExists(atPath: path), let rows = try? DatabaseAudit.rows(path: path) else {
            return Fingerprint(rows: ["missing"], itemCount: 0)
        }
        return Fingerprint(rows: rows, itemCount: (try? DatabaseAudit.itemCount(path: path)) ?? 0)
    }
}

/// Counts exit statuses.
final class StatusTally: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func add(_ result: RunResult) {
        let key = result.timedOut ? "hung" : result.signal.map { "signal \($0)" } ?? String(result.status ?? -1)
        lock.lock()
        counts[key, default: 0] += 1
        lock.unlock()
    }

    var summary: String {
        lock.lock()
        defer { lock.unlock() }
        return counts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    }
}
