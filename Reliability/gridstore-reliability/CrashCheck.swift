import Foundation
import TestSupport
import GridStoreAudit
import SeededRandom
import GridLayout
import GridStore
import GridStoreSQLite

/// `kill -9` in the middle of large writes: afterwards the database opens, passes its
/// integrity check, and holds exactly a committed state.
enum CrashCheck {
    static func run(_ runner: ProcessRunner, scratch: String, report: Report) {
        importKills(runner, scratch: scratch, report: report)
        toggleKills(runner, scratch: scratch, report: report)
        firstChangeKills(runner, scratch: scratch, report: report)
    }

    /// Imports of 100,000 items into a database file that does not exist yet (made by its first
    /// change, in a folder that does not exist either), killed at random moments: afterwards
    /// there is no file at the path, or one that passes its integrity check and holds the whole
    /// document; and the next file made in the folder removes what a killed process left there.
    static func firstChangeKills(_ runner: ProcessRunner, scratch: String, report: Report) {
        let itemCount = 100_000
        var generator = SeededGenerator(seed: 23)
        let sizes = (0..<itemCount).map { _ in ["small", "middle", "big"][Int(generator.next() % 3)] }
        let document = Array(("{\"grid\":\"first\",\"type\":\"more\",\"sections\":[{\"items\":["
            + sizes.enumerated().map { "{\"index\":\($0.offset),\"size\":\"\($0.element)\"}" }.joined(separator: ",") + "]}]}").utf8)
        let explicit = sizes.enumerated().compactMap { $0.element == "small" ? nil : "0:\($0.offset):\($0.element)" }
        // How long the first import takes here, to kill within it.
        let started = Date()
        let timing = runner.run(["--db", scratch + "/first-timing/new/grids.sqlite", "import", "-"], input: document, timeLimit: 120)
        let duration = Date().timeIntervalSince(started)
        report.count(processes: 1, commands: 1)
        guard timing.status == 0 else {
            report.fail("crash: the timing import into a new file failed: \(timing.summary)")
            return
        }
        var kills = 0, made = 0
        for attempt in 0..<12 {
            let folder = scratch + "/first-\(attempt)/new"
            let path = folder + "/grids.sqlite"
            let process = runner.start(["--db", path, "import", "-"], input: document)
            usleep(useconds_t(Double.random(in: 0.02...1.1, using: &generator) * duration * 1_000_000))
            process.kill()
            let result = process.wait(timeLimit: 60)
            report.count(processes: 1, commands: 1, crashes: result.signal == SIGKILL ? 1 : 0)
            if result.signal == SIGKILL { kills += 1 }
            if FileManager.default.fileExists(atPath: path) {
                made += 1
                let health = DatabaseAudit.health(path: path)
                report.check(health == "ok", "crash: a file made by a killed first change: \(health)")
                let grid = try? StoredGrid.read("first", path: path)
                report.check(grid?.explicitSizes == explicit && grid?.itemCounts == [itemCount] && grid?.isConsistent == true,
                             "crash: the file made by a killed first change does not hold the whole document")
            }
            // What the killed process left in the folder goes with the next file made there.
            let next = runner.run(["--db", folder + "/next.sqlite", "toggle", "1", "-q"], timeLimit: 60)
            report.count(processes: 1, commands: 1)
            report.check(next.status == 0, "crash: a file made after a killed first change: \(next.summary)")
            let left = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".gridstore-new-") }
            report.check(left.isEmpty, "crash: temporary files left in the folder after a later file was made: \(left)")
        }
        print("crash: \(kills) first changes into new files killed with SIGKILL (an import of \(itemCount) items into a new file "
              + "takes \(Int(duration * 1000)) ms); \(made) left a file, each whole, integrity ok")
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

    /// A long run of toggles, undos and redos, each process killed at a random moment or let
    /// finish; after each, the grid is exactly the state the committed ones make, and its newest
    /// history entry is for its revision. At the end every kept revision is rebuilt from the
    /// history and compared with the state it had, and undoing everything that can be undone
    /// leaves a consistent grid.
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
        var revision = 0
        var kills = 0
        var committed = 0
        // The model: the sizes at every revision, and what undo and redo would act on.
        var states = [sizes]
        var done: [Int] = [], undone: [Int] = []
        func described(_ sizes: [TileSize]) -> [String] {
            sizes.enumerated().compactMap { $0.element == .small ? nil : "0:\($0.offset):\($0.element.rawValue)" }
        }
        for _ in 0..<160 {
            let item = Int(generator.next() % UInt64(count))
            let choice = generator.next() % 10
            let command = choice < 6 ? ["toggle", String(item)] : choice < 8 ? ["undo"] : ["redo"]
            let process = runner.start(["--db", path, "--grid", "loop"] + command)
            let kill = generator.next() % 3 != 0
            if kill {
                usleep(useconds_t(generator.next() % 12_000))
                process.kill()
            }
            let result = process.wait(timeLimit: 30)
            report.count(processes: 1, commands: 1, crashes: result.signal == SIGKILL ? 1 : 0)
            if result.signal == SIGKILL { kills += 1 }
            let refusedHistory = command[0] != "toggle" && (command[0] == "undo" ? done.isEmpty : undone.isEmpty)
            if !kill {
                report.check(result.status == (refusedHistory ? 64 : 0), "crash: \(command.joined(separator: " ")) failed: \(result.summary)")
            }
            guard let state = try? StoredGrid.read("loop", path: path) else {
                report.fail("crash: after \(command[0]) the grid cannot be read")
                continue
            }
            if state.revision == revision + 1 {
                revision += 1
                committed += 1
                switch command[0] {
                case "toggle":
                    sizes[item] = sizes[item].toggled()
                    done.append(revision)
                    undone = []
                case "undo":
                    let target = done.removeLast()
                    undone.append(target)
                    sizes = states[target - 1]
                default:
                    let target = undone.removeLast()
                    done.append(target)
                    sizes = states[target]
                }
                states.append(sizes)
            } else if state.revision != revision {
                report.fail("crash: revision went from \(revision) to \(state.revision) in one \(command[0])")
                return
            }
            report.check(state.explicitSizes == described(sizes), "crash: at revision \(revision) the sizes are not the committed ones")
            report.check(state.isConsistent, "crash: at revision \(revision) the placements are not a fresh pack")
            let newest = (try? SQLiteConnection(path: path, mode: .readOnly).fetchOne("SELECT max(revision) FROM history") {
                $0.isNull(at: 0) ? 0 : $0.int(at: 0)
            }) ?? -1
            report.check(newest == revision, "crash: at revision \(revision) the newest history entry is for revision \(newest)")
        }
        // Every revision rebuilt from the history is the state it had.
        if let grid = try? Grid(named: "loop", in: GridDatabase(path: path), creatingWith: nil) {
            for past in stride(from: revision, through: 0, by: -3) {
                let rebuilt = try? grid.snapshot(at: past)
                let explicit = rebuilt.map { snapshot in
                    snapshot.layout.sections[0].sizes.enumerated().compactMap { $0.element == .small ? nil : "0:\($0.offset):\($0.element.rawValue)" }
                }
                report.check(explicit == described(states[past]), "crash: revision \(past) rebuilt from the history differs from the state it had")
            }
        } else {
            report.fail("crash: the grid cannot be opened after the toggle loop")
        }
        if !done.isEmpty {
            let undoAll = runner.run(["--db", path, "--grid", "loop", "undo", String(done.count), "--quiet"], timeLimit: 60)
            report.count(processes: 1, commands: 1)
            report.check(undoAll.status == 0, "crash: undo \(done.count) failed: \(undoAll.summary)")
            let final = try? StoredGrid.read("loop", path: path)
            report.check(final?.isConsistent == true && final?.explicitSizes == described(states[done[0] - 1]),
                         "crash: undoing every change left \(final.map { "\($0.explicitSizes.count) sizes" } ?? "no grid"), not the state before the first")
        }
        let health = DatabaseAudit.health(path: path)
        report.check(health == "ok", "crash: after the toggle loop: \(health)")
        print("crash: 160 toggles, undos and redos on a \(count)-item grid, \(kills) killed mid-run, \(committed) committed; "
              + "every state and history entry matched the committed ones, every revision rebuilt from the history, integrity \(health)")
    }
}
