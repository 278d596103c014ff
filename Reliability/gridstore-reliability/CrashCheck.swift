import Foundation
import TestSupport
import GridStoreAudit
import SeededRandom
import GridLayout

/// `kill -9` in the middle of large writes: afterwards the database opens, passes its
/// integrity check, and holds exactly a committed state.
enum CrashCheck {
    static func run(_ runner: ProcessRunner, scratch: String, report: Report) {
        importKills(runner, scratch: scratch, report: report)
        toggleKills(runner, scratch: scratch, report: report)
    }

    /// Imports of 100,000 items, killed at random moments; the grid is the old or the new one, whole.
    static func importKills(_ runner: ProcessRunner, scratch: String, report: Report) {
        let path = scratch + "/crash-import.sqlite"
        let itemCount = 100_000
        var generator = SeededGenerator(seed: 7)
        // Two documents with different sizes; each import switches the grid to the other.
        let documents = (0..<2).map { variant -> (json: [UInt8], sizes: [String]) in
            let sizes = (0..<itemCount).map { _ in ["small", "middle", "big"][Int(generator.next() % 3)] }
            var json = "{\"grid\":\"crash\",\"type\":\(variant == 0 ? "\"more\"" : "\"less\""),\"sections\":[{\"items\":["
            json += sizes.enumerated().map { "{\"index\":\($0.offset),\"size\":\"\($0.element)\"}" }.joined(separator: ",")
            json += "]}]}"
            return (Array(json.utf8), sizes)
        }
        let first = runner.run(["--db", path, "import", "-"], input: documents[0].json, timeLimit: 120)
        report.count(processes: 1, commands: 1)
        guard first.status == 0 else {
            report.fail("crash: the first import failed: \(first.summary)")
            return
        }
        // How long an import takes here, to kill within it.
        let started = Date()
        let timing = runner.run(["--db", path, "import", "-"], input: documents[1].json, timeLimit: 120)
        let duration = Date().timeIntervalSince(started)
        report.count(processes: 1, commands: 1)
        guard timing.status == 0 else {
            report.fail("crash: the timing import failed: \(timing.summary)")
            return
        }
        var current = 1
        var kills = 0
        for attempt in 0..<12 {
            let next = 1 - current
            guard let before = try? StoredGrid.read("crash", path: path) else {
                report.fail("crash: cannot read the grid before attempt \(attempt)")
                return
            }
            let process = runner.start(["--db", path, "import", "-"], input: documents[next].json)
            usleep(useconds_t(Double.random(in: 0.02...1.1, using: &generator) * duration * 1_000_000))
            process.kill()
            let result = process.wait(timeLimit: 60)
            report.count(processes: 1, commands: 1, crashes: result.signal == SIGKILL ? 1 : 0)
            if result.signal == SIGKILL { kills += 1 }
            let health = DatabaseAudit.health(path: path)
            report.check(health == "ok", "crash: after killing an import: \(health)")
            guard let after = try? StoredGrid.read("crash", path: path) else {
                report.fail("crash: after killing an import the grid cannot be read")
                continue
            }
            report.check(after.isConsistent, "crash: after killing an import the placements are not a fresh pack")
            if after.revision == before.revision {
                report.check(after == before, "crash: revision \(after.revision) kept, but the content changed")
            } else if after.revision == before.revision + 1 {
                let expectedColumns = next == 0 ? 6 : 4
                let explicit = documents[next].sizes.enumerated().compactMap { $0.element == "small" ? nil : "0:\($0.offset):\($0.element)" }
                report.check(after.columns == expectedColumns && after.explicitSizes == explicit && after.itemCounts == [itemCount],
                             "crash: revision \(after.revision) committed, but the content is not the imported document's")
                current = next
            } else {
                report.fail("crash: revision went from \(before.revision) to \(after.revision) in one import")
            }
        }
        print("crash: \(kills) imports of \(itemCount) items killed with SIGKILL (an import takes \(Int(duration * 1000)) ms); "
              + "each left a committed state, integrity ok")
    }

    /// A long run of toggles, each process killed at a random moment or let finish; after each,
    /// the grid is exactly the state after the committed toggles.
    static func toggleKills(_ runner: ProcessRunner, scratch: String, report: Report) {
        let path = scratch + "/crash-toggle.sqlite"
        let count = 5_000
        let setup = runner.run(["--db", path, "--grid", "loop", "init", "--items", String(count)], timeLimit: 60)
        report.count(processes: 1, commands: 1)
        guard setup.status == 0 else {
            report.fail("crash: toggle setup failed: \(setup.summary)")
            return
        }
        var generator = SeededGenerator(seed: 11)
        var sizes = [TileSize](repeating: .small, count: count)
        var toggled = Set<Int>()
        var revision = 0
        var kills = 0
        var committed = 0
        for _ in 0..<160 {
            let item = Int(generator.next() % UInt64(count))
            let process = runner.start(["--db", path, "--grid", "loop", "toggle", String(item)])
            let kill = generator.next() % 3 != 0
            if kill {
                usleep(useconds_t(generator.next() % 12_000))
                process.kill()
            }
            let result = process.wait(timeLimit: 30)
            report.count(processes: 1, commands: 1, crashes: result.signal == SIGKILL ? 1 : 0)
            if result.signal == SIGKILL { kills += 1 }
            if !kill { report.check(result.status == 0, "crash: toggle \(item) failed: \(result.summary)") }
            guard let state = try? StoredGrid.read("loop", path: path) else {
                report.fail("crash: after a toggle the grid cannot be read")
                continue
            }
            if state.revision == revision + 1 {
                sizes[item] = sizes[item].toggled()
                toggled.insert(item)
                revision += 1
                committed += 1
            } else if state.revision != revision {
                report.fail("crash: revision went from \(revision) to \(state.revision) in one toggle")
                return
            }
            let expected = toggled.sorted().map { "0:\($0):\(sizes[$0].rawValue)" }
            report.check(state.explicitSizes == expected, "crash: at revision \(revision) the sizes are not the committed ones")
            report.check(state.isConsistent, "crash: at revision \(revision) the placements are not a fresh pack")
        }
        let health = DatabaseAudit.health(path: path)
        report.check(health == "ok", "crash: after the toggle loop: \(health)")
        print("crash: 160 toggles on a \(count)-item grid, \(kills) killed mid-run, \(committed) committed; "
              + "every state matched the committed toggles, integrity \(health)")
    }
}
