import Foundation
import GridLayout
import GridStore
import GridStoreSQLite
import GridStoreAudit
import TestSupport

/// Writer threads in one process, as an app's would be: six with a `GridDatabase` of their
/// own and two sharing one, all on one file, each change short. gridstore serves them in
/// arrival order before SQLite's lock, so none may fail with "database is locked" (with
/// SQLite's busy handler alone, 1 or 2 in 40,000 did, after the full timeout; the suite runs
/// 12,000 to keep CI within its time). Readers on the shared `GridDatabase` run beside them
/// and must never fail either.
enum InProcessWriterCheck {
    static let writesPerThread = 1_500

    static func run(_ runner: ProcessRunner, scratch: String, report: Report) {
        let path = scratch + "/in-process.sqlite"
        do {
            let shared = try GridDatabase(path: path)
            _ = try Grid(named: "g", in: shared, creatingWith: GridOptions(sectionItemCounts: [40])).snapshot()
            let databases = try (0..<6).map { _ in try GridDatabase(path: path) } + [shared, shared]
            let failures = Counter(), done = Flag()
            let group = DispatchGroup()
            let start = Date()
            for (index, database) in databases.enumerated() {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    let grid = try? Grid(named: "g", in: database, creatingWith: nil)
                    for step in 0..<writesPerThread {
                        do {
                            try grid?.toggle(at: GridIndexPath(item: (index * 7 + step) % 40))
                        } catch {
                            failures.add()
                            if failures.value <= 3 { report.fail("in-process writers: a toggle failed: \(error)") }
                        }
                    }
                }
            }
            let readFailures = Counter()
            Thread.detachNewThread {
                let grid = try? Grid(named: "g", in: shared, creatingWith: nil)
                while !done.isSet {
                    if (try? grid?.snapshot()) == nil { readFailures.add() }
                }
            }
            group.wait()
            done.set()
            let seconds = Date().timeIntervalSince(start)
            let revision = try Grid(named: "g", in: shared, creatingWith: nil).currentRevision()
            let writes = databases.count * writesPerThread
            report.check(failures.value == 0, "in-process writers: \(failures.value) of \(writes) writes failed")
            report.check(readFailures.value == 0, "in-process writers: \(readFailures.value) reads failed")
            report.check(revision == writes, "in-process writers: revision \(revision) after \(writes) toggles")
            print("in-process writers: \(writes) toggles by 8 threads (6 databases, 2 sharing one) in \(Int(seconds)) s, "
                  + "\(Int(Double(writes) / seconds)) a second; \(failures.value) failed")
        } catch {
            report.fail("in-process writers: \(error)")
        }
    }
}
