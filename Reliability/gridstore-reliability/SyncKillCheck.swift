import Foundation
import GridStoreAudit
import GridStorePostgreSQL
import SeededRandom
import TestSupport

/// `kill -9` in the middle of `gridstore sync` between two databases that both changed (two
/// files, then a file and a PostgreSQL database): afterwards each holds its grid from before
/// the sync or from after it, whole, and running the sync again makes the two equal, after
/// which a sync moves nothing.
enum SyncKillCheck {
    static let kills = 4
    static let itemCount = 20_000

    static func run(_ runner: ProcessRunner, scratch: String, report: Report) {
        hugeBundle(runner, scratch: scratch, report: report)
        check(runner, a: scratch + "/sync-a.sqlite", b: scratch + "/sync-b.sqlite", backend: "two files", report: report)
        let server: PostgreSQLTestServer
        do {
            server = try PostgreSQLTestServer(durable: true)
        } catch {
            if PostgreSQLTestServer.isRequired { report.fail("sync: no PostgreSQL server: \(error)") }
            return
        }
        defer { server.stop() }
        do {
            check(runner, a: scratch + "/sync-c.sqlite", b: try server.makeDatabase(), backend: "a file and PostgreSQL", report: report)
        } catch {
            report.fail("sync: \(error)")
        }
    }

    /// A bundle past the 256 MiB gridstore reads is refused in one line, and no database is made.
    private static func hugeBundle(_ runner: ProcessRunner, scratch: String, report: Report) {
        let path = scratch + "/huge-bundle.json", database = scratch + "/huge-bundle.sqlite"
        guard FileManager.default.createFile(atPath: path, contents: Data("{\"gridstore-sync\":1,\"grid\":\"default\",".utf8)),
              truncate(path, 300 * 1024 * 1024) == 0 else {
            report.fail("sync: cannot make a 300 MiB bundle")
            return
        }
        defer { unlink(path) }
        let result = runner.run(["--db", database, "sync-import", path], timeLimit: 60)
        report.count(processes: 1, commands: 1, hostileFiles: 1)
        report.check(result.status == 65 && result.standardError.hasSuffix("is larger than 256 MiB\n")
                     && result.standardError.split(separator: "\n").count == 1 && !FileManager.default.fileExists(atPath: database),
                     "sync: a 300 MiB bundle: \(result.summary)")
    }

    private static func check(_ runner: ProcessRunner, a: String, b: String, backend: String, report: Report) {
        var generator = SeededGenerator(seed: 36)
        func document() -> [UInt8] {
            let sizes = (0..<itemCount).map { _ in ["small", "middle", "big"][Int(generator.next() % 3)] }
            return Array(("{\"grid\":\"synced\",\"type\":\"more\",\"sections\":[{\"items\":["
                + sizes.enumerated().map { "{\"index\":\($0.offset),\"size\":\"\($0.element)\"}" }.joined(separator: ",")
                + "]}]}").utf8)
        }
        func succeed(_ arguments: [String], input: [UInt8]? = nil, _ what: String) -> Bool {
            let result = runner.run(arguments, input: input, timeLimit: 120)
            report.count(processes: 1, commands: 1)
            if result.status != 0 { report.fail("sync (\(backend)): \(what) failed: \(result.summary)") }
            return result.status == 0
        }
        guard succeed(["--db", a, "import", "-", "-q"], input: document(), "the first import"),
              succeed(["--db", a, "sync", b, "--create"], "the first sync") else { return }
        var duration = 0.0
        var killed = 0
        for attempt in 0...kills {
            // Both sides change: every size on one, a few items on the other.
            guard succeed(["--db", a, "import", "-", "-q"], input: document(), "an import"),
                  succeed(["--db", b, "--grid", "synced", "toggle", String(Int(generator.next() % UInt64(itemCount))), "-q"], "a toggle"),
                  let beforeA = try? StoredGrid.read("synced", path: a), let beforeB = try? StoredGrid.read("synced", path: b) else {
                return
            }
            if attempt == 0 {
                // The first round is not killed: it measures how long a sync takes, to kill within it.
                let started = Date()
                guard succeed(["--db", a, "sync", b], "a timed sync") else { return }
                duration = Date().timeIntervalSince(started)
                continue
            }
            let process = runner.start(["--db", a, "sync", b])
            usleep(useconds_t(Double.random(in: 0.05...1.0, using: &generator) * duration * 1_000_000))
            process.kill()
            let result = process.wait(timeLimit: 60)
            report.count(processes: 1, commands: 1, crashes: result.signal == SIGKILL ? 1 : 0)
            if result.signal == SIGKILL { killed += 1 }
            // A client killed after sending COMMIT leaves its server backend to finish the commit on its own.
            if let server = PostgreSQLLocation(b), !TransactionKillCheck.waitForOtherSessions(on: server) {
                report.fail("sync (\(backend)): after kill \(attempt) the killed client's session did not end")
            }
            for path in [a, b] where !path.hasPrefix("postgresql:") {
                let health = DatabaseAudit.health(path: path)
                report.check(health == "ok", "sync (\(backend)): after killing a sync, \(path): \(health)")
            }
            guard let cutA = try? StoredGrid.read("synced", path: a), let cutB = try? StoredGrid.read("synced", path: b) else {
                report.fail("sync (\(backend)): after kill \(attempt) a grid cannot be read")
                continue
            }
            report.check(cutA.isConsistent && cutB.isConsistent, "sync (\(backend)): after kill \(attempt) the placements are not a fresh pack")
            // The sync, run again, completes; a second one moves nothing.
            guard succeed(["--db", a, "sync", b], "the sync after kill \(attempt)"),
                  let finalA = try? StoredGrid.read("synced", path: a), let finalB = try? StoredGrid.read("synced", path: b) else {
                continue
            }
            report.check(finalA.sameContent(as: finalB), "sync (\(backend)): after kill \(attempt) and a sync the two files differ")
            for (name, before, cut, final) in [("a", beforeA, cutA, finalA), ("b", beforeB, cutB, finalB)] {
                report.check(cut == before || (cut.revision == before.revision + 1 && cut.sameContent(as: final)),
                             "sync (\(backend)): after kill \(attempt) file \(name) is at revision \(cut.revision) (\(before.revision) before) "
                             + "and holds neither the grid from before nor the one after")
            }
            let again = runner.run(["--db", b, "sync", a, "--format", "json"])
            report.count(processes: 1, commands: 1)
            report.check(again.status == 0 && again.standardOutput.contains("\"sent\":0,\"received\":0"),
                         "sync (\(backend)): a sync after the completed one moved changes: \(again.summary)")
        }
        print("sync: \(killed) syncs of two changed \(itemCount)-item grids (\(backend)) killed with SIGKILL (a sync takes "
              + "\(Int(duration * 1000)) ms); each side held its grid from before or after, and a sync made them equal")
        changeKills(runner, a: a, b: b, backend: backend, document: document, report: report)
    }

    /// `kill -9` in the middle of an import into a grid that syncs, which writes the sync
    /// registers it changes in its own transaction: the grid is as before or after, `check` finds
    /// nothing wrong with it or its sync state, and a sync makes the two databases equal.
    private static func changeKills(_ runner: ProcessRunner, a: String, b: String, backend: String, document: () -> [UInt8],
                                    report: Report) {
        var generator = SeededGenerator(seed: 45)
        let started = Date()
        let timed = runner.run(["--db", b, "--grid", "synced", "import", "-", "-q"], input: document(), timeLimit: 120)
        let duration = Date().timeIntervalSince(started)
        report.count(processes: 1, commands: 1)
        guard timed.status == 0 else { return report.fail("sync (\(backend)): a timed import into the synced grid failed: \(timed.summary)") }
        var killed = 0
        for attempt in 1...kills {
            let input = document()
            guard let before = try? StoredGrid.read("synced", path: b) else { return report.fail("sync (\(backend)): \(b) cannot be read") }
            let process = runner.start(["--db", b, "--grid", "synced", "import", "-", "-q"], input: input)
            usleep(useconds_t(Double.random(in: 0.05...1.0, using: &generator) * duration * 1_000_000))
            process.kill()
            let result = process.wait(timeLimit: 60)
            report.count(processes: 1, commands: 1, crashes: result.signal == SIGKILL ? 1 : 0)
            if result.signal == SIGKILL { killed += 1 }
            if let server = PostgreSQLLocation(b), !TransactionKillCheck.waitForOtherSessions(on: server) {
                report.fail("sync (\(backend)): after killing import \(attempt) the killed client's session did not end")
            }
            guard let cut = try? StoredGrid.read("synced", path: b) else {
                report.fail("sync (\(backend)): after killing import \(attempt) the grid cannot be read")
                continue
            }
            report.check(cut.isConsistent && (cut == before || cut.revision == before.revision + 1),
                         "sync (\(backend)): after killing import \(attempt) the grid is at revision \(cut.revision) (\(before.revision) before)")
            let checked = runner.run(["--db", b, "check"])
            report.count(processes: 1, commands: 1)
            report.check(checked.status == 0, "sync (\(backend)): check after killing import \(attempt): \(checked.summary)")
            let synced = runner.run(["--db", a, "sync", b], timeLimit: 120)
            report.count(processes: 1, commands: 1)
            guard synced.status == 0, let finalA = try? StoredGrid.read("synced", path: a), let finalB = try? StoredGrid.read("synced", path: b) else {
                report.fail("sync (\(backend)): the sync after killing import \(attempt): \(synced.summary)")
                continue
            }
            report.check(finalA.sameContent(as: finalB), "sync (\(backend)): after killing import \(attempt) and a sync the two differ")
        }
        print("sync: \(killed) imports into a synced \(itemCount)-item grid (\(backend)) killed with SIGKILL (an import takes "
              + "\(Int(duration * 1000)) ms); each grid was whole, check found nothing, and a sync made the two equal")
    }
}

extension StoredGrid {
    /// Whether the two hold the same grid, whatever their revisions.
    func sameContent(as other: StoredGrid) -> Bool {
        var other = other
        other.revision = revision
        return self == other
    }
}
