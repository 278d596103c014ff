import GridLayout
import SeededRandom
import GridStore
import GridStoreSQLite
import GridStoreAudit
import SQLiteBaseline

/// What recording the history costs a change, and what undo and older revisions cost.
enum HistoryBenchmarks {
    static func run() throws -> String {
        let scratch = try ScratchDirectory()
        var overhead = Table("A toggle with history on (keeps 1000) and off (keeps 0), interleaved (in process, committed; release build, median)",
                             headers: ["items", "toggles", "history on ms", "history off ms", "on / off"])
        for (count, runs) in [(10_000, 301), (100_000, 61)] {
            let on = try RepositoryBenchmarks.makeGrid(count, in: scratch, name: "history-on-\(count)")
            let off = try RepositoryBenchmarks.makeGrid(count, in: scratch, name: "history-off-\(count)")
            try off.setHistoryRetention(0)
            var generator = SeededGenerator(seed: 7)
            var onSamples: [Double] = [], offSamples: [Double] = []
            for run in 0..<(runs + 2) {
                let item = GridIndexPath(item: Int(generator.next() % UInt64(count)))
                // The same item on both, in alternating order, so drift and noise fall on both alike.
                let first = run % 2 == 0 ? on : off
                let firstTime = try RepositoryBenchmarks.timed { try first.toggle(at: item) }
                let secondTime = try RepositoryBenchmarks.timed { try (first === on ? off : on).toggle(at: item) }
                guard run >= 2 else { continue }  // warm-up
                onSamples.append(first === on ? firstTime : secondTime)
                offSamples.append(first === on ? secondTime : firstTime)
            }
            let onMedian = Measurement.median(onSamples), offMedian = Measurement.median(offSamples)
            overhead.add([String(count), String(runs), format(onMedian, decimals: 3), format(offMedian, decimals: 3),
                          format(onMedian / offMedian, decimals: 3)])
        }

        var operations = Table("Undo, redo and older revisions, 10,000 items with 1,000 changes kept (in process; release build, median)",
                               headers: ["operation", "runs", "median ms"])
        let grid = try RepositoryBenchmarks.makeGrid(10_000, in: scratch, name: "history-undo")
        var generator = SeededGenerator(seed: 8)
        for _ in 0..<1_000 { try grid.toggle(at: GridIndexPath(item: Int(generator.next() % 10_000))) }
        var undoSamples: [Double] = [], redoSamples: [Double] = []
        for _ in 0..<101 {
            undoSamples.append(try RepositoryBenchmarks.timed { try grid.undo() })
            redoSamples.append(try RepositoryBenchmarks.timed { try grid.redo() })
        }
        operations.add(["undo (of a toggle)", "101", format(Measurement.median(undoSamples), decimals: 3)])
        operations.add(["redo (of a toggle)", "101", format(Measurement.median(redoSamples), decimals: 3)])
        let current = try grid.currentRevision()
        let back = try Measurement.medianOfSelfTimed(runs: 11) {
            try RepositoryBenchmarks.timed { try grid.snapshot(at: current - 1_000) }
        }
        operations.add(["snapshot(at:) 1,000 changes back (the oldest reachable)", "11", format(back, decimals: 3)])
        let gridstore = ProcessBenchmarks.siblingExecutable("gridstore")
        let path = scratch.file("history-undo.sqlite")
        let process = ProcessBenchmarks.medianWallTime(runs: 21) { _ in
            (gridstore, ["--db", path, "--grid", "history-undo", "show", "--at", String(current - 1_000), "--format", "json"])
        }
        operations.add(["gridstore show --at (1,000 back) as a process", "21", format(process, decimals: 3)])
        let bytes = try SQLiteBytes.historyBytes(path: path)
        return overhead.render() + "\ngoal: history adds no more than 10% (on / off ≤ 1.10).\n\n" + operations.render()
            + "\nhistory of 'history-undo': \(bytes.entries) entries in \(bytes.bytes) bytes of rows "
            + "(\(bytes.entries == 0 ? 0 : bytes.bytes / bytes.entries) bytes an entry, before SQLite's page overhead)\n"
    }
}

/// The history's size as stored.
enum SQLiteBytes {
    static func historyBytes(path: String) throws -> (entries: Int, bytes: Int) {
        var entries: Int64 = 0, bytes: Int64 = 0
        let status = gridstore_baseline_history_bytes(path, &entries, &bytes)
        guard status == 0 else { throw BenchmarkError("cannot read the history's size of \(path): SQLite error \(status)") }
        return (Int(entries), Int(bytes))
    }
}
