import Foundation
import GridLayout
import GridStore
import GridStoreSQLite
import GridStoreAudit
import TestSupport

/// `async` calls waiting for another connection's lock must leave Swift's cooperative pool
/// free: more writers wait at once than the pool has threads, and a task that needs the pool
/// still runs while they wait. Run here, in a process of its own, where no other work
/// competes for the pool.
enum AsyncPoolCheck {
    static func run(_ runner: ProcessRunner, scratch: String, report: Report) {
        let path = scratch + "/async-pool.sqlite"
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                try await check(path: path, report: report)
                try await manyOnOneRepository(path: scratch + "/async-many.sqlite", report: report)
            } catch {
                report.fail("async pool: \(error)")
            }
            done.signal()
        }
        done.wait()
    }

    static func check(path: String, report: Report) async throws {
        let count = 32
        let grids = try (0..<count).map { _ in try Grid(named: "g", in: GridDatabase(path: path)) }
        _ = try grids[0].snapshot()
        // Another process's lock, held for 3 seconds by a thread of its own.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        holder.arguments = [path, "BEGIN IMMEDIATE; SELECT 1;", ".shell sleep 3", "COMMIT;"]
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        try await Task.sleep(for: .milliseconds(500))
        let writers = (0..<count).map { item in
            Task { try await grids[item].changing { try $0.toggle(at: GridIndexPath(item: item % 12)) } }
        }
        // A task that needs the pool: it must finish while the writers still wait.
        let probe = Task { () -> Int in
            for _ in 0..<10 { try await Task.sleep(for: .milliseconds(10)) }
            return ConnectionExecutor.running
        }
        let waitingWhenProbeFinished = try await probe.value
        holder.waitUntilExit()
        for writer in writers { _ = try await writer.value }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        report.check(waitingWhenProbeFinished > cores,
                     "async pool: only \(waitingWhenProbeFinished) writers waited at once with \(cores) cores")
        report.check(try grids[0].currentRevision() == count, "async pool: a write was lost")
        print("async pool: \(count) writers waited on another process's lock, \(waitingWhenProbeFinished) at once, "
              + "while a pool task ran")
    }

    /// 2,000 `async` changes of one repository at once queue on its connection's executor: the
    /// process's threads stay bounded (they were one a call), and every change is acknowledged.
    static func manyOnOneRepository(path: String, report: Report) async throws {
        let count = 2_000
        let repository = try DatabaseGridSizeRepository(path: path)
        try repository.setItemCount(64, inSection: 0)
        let start = try repository.snapshot().revision
        let threadsBefore = threadCount()
        let sampling = Task.detached { () -> Int in
            var peak = 0
            while !Task.isCancelled {
                peak = max(peak, threadCount())
                try? await Task.sleep(for: .milliseconds(2))
            }
            return peak
        }
        let began = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for call in 0..<count {
                group.addTask { _ = try await repository.changing { try $0.toggle(at: GridIndexPath(item: call % 64)) } }
            }
            try await group.waitForAll()
        }
        let elapsed = ContinuousClock.now - began
        sampling.cancel()
        let peak = await sampling.value
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // The executors' two threads, and the cooperative pool's, which may start now.
        report.check(peak <= threadsBefore + cores + 2,
                     "async pool: \(count) calls on one repository ran on up to \(peak) threads (\(threadsBefore) before)")
        report.check(try repository.snapshot().revision == start + count, "async pool: a change of the \(count) was lost")
        print("async pool: \(count) async changes of one repository at once, all acknowledged in \(elapsed), "
              + "on at most \(peak) threads of the process (\(threadsBefore) before)")
    }

    /// The threads of this process now.
    private static func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }
}
