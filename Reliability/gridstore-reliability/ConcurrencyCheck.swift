import Foundation
import TestSupport
import GridStoreAudit
import SeededRandom

/// Many `gridstore` processes changing one grid at once, with readers: no lost update, no
/// half-applied state seen, no lock error before the busy timeout.
enum ConcurrencyCheck {
    static let writers = 8
    static let commandsPerWriter = 200
    static let readers = 2

    static func run(_ runner: ProcessRunner, scratch: String, report: Report) {
        let path = scratch + "/concurrency.sqlite"
        let setup = runner.run(["--db", path, "--grid", "shared", "init", "--items", "40"])
        report.count(processes: 1, commands: 1)
        guard setup.status == 0 else {
            report.fail("concurrency: init failed: \(setup.summary)")
            return
        }
        let successes = Counter()
        let done = Flag()
        let group = DispatchGroup()
        for writer in 0..<writers {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var generator = SeededGenerator(seed: UInt64(1_000 + writer))
                for _ in 0..<commandsPerWriter {
                    let arguments = randomChange(&generator)
                    let result = runner.run(["--db", path, "--grid", "shared"] + arguments)
                    report.count(processes: 1, commands: 1)
                    if result.status == 0 {
                        successes.add()
                    } else if result.status == 64, result.standardError.hasPrefix("Error: "),
                              !result.standardError.contains("locked"), !result.standardError.contains("busy") {
                        // A refused change (an index that another writer's delete made invalid): fine.
                    } else {
                        report.fail("concurrency: gridstore \(arguments.joined(separator: " ")) \(result.summary)")
                    }
                }
            }
        }
        let readerGroup = DispatchGroup()
        for reader in 0..<readers {
            readerGroup.enter()
            Thread.detachNewThread {
                defer { readerGroup.leave() }
                var lastRevision = -1
                var reads = 0
                while !done.isSet || reads == 0 {
                    let result = runner.run(["--db", path, "--grid", "shared", "show", "--format", "json"])
                    report.count(processes: 1, commands: 1)
                    reads += 1
                    guard result.status == 0, let shown = ShownGrid(json: result.standardOutput) else {
                        report.fail("concurrency: reader \(reader): show failed: \(result.summary)")
                        continue
                    }
                    report.check(shown.consistent, "concurrency: reader \(reader) saw revision \(shown.revision) half-applied")
                    report.check(shown.revision >= lastRevision,
                                 "concurrency: reader \(reader) saw revision \(shown.revision) after \(lastRevision)")
                    lastRevision = shown.revision
                }
            }
        }
        group.wait()
        done.set()
        readerGroup.wait()

        let health = DatabaseAudit.health(path: path)
        report.check(health == "ok", "concurrency: \(health)")
        do {
            guard let state = try StoredGrid.read("shared", path: path) else {
                report.fail("concurrency: the grid is gone")
                return
            }
            report.check(state.revision == successes.value,
                         "concurrency: revision \(state.revision) but \(successes.value) successful changes")
            report.check(state.isConsistent, "concurrency: stored placements differ from a fresh pack of the stored sizes")
            print("concurrency: \(writers) writers x \(commandsPerWriter) commands, \(readers) readers; "
                  + "\(successes.value) changes succeeded, revision \(state.revision), integrity \(health)")
        } catch {
            report.fail("concurrency: cannot read the grid: \(error)")
        }
    }

    /// One of the changes the suite makes: toggle, insert, delete, type toggle. Each always
    /// changes the grid when it succeeds (a change that changes nothing adds no revision), so
    /// the grid's revision must equal the number of successes exactly; `set`, `move` and
    /// `items`, which may change nothing, are exercised by the fuzz check.
    static func randomChange(_ generator: inout SeededGenerator) -> [String] {
        let index = { (generator: inout SeededGenerator) in String(Int.random(in: 0..<45, using: &generator)) }
        switch Int.random(in: 0..<10, using: &generator) {
        case 0, 1, 2, 3: return ["toggle", index(&generator)]
        case 4, 5: return ["insert", index(&generator), "--size", ["small", "middle", "big"].randomElement(using: &generator)!]
        case 6, 7: return ["delete", index(&generator)]
        case 8: return ["type", "toggle"]
        default: return ["insert", "0"]
        }
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

/// A thread-safe flag.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var state = false
    func set() { lock.lock(); state = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return state }
}
