import Foundation
import Synchronization
import Testing
@testable import GridStore

/// The serial executor async calls queue on: arrival order, one thread, a bounded wait.
// A call that stays queued behind a hold waits for it without a limit: the suite's limit ends the run.
@Suite("Connection executor", .timeLimit(.minutes(15)))
struct ConnectionExecutorTests {
    /// A queue limit no test run reaches, however loaded (ThreadSanitizer on two cores has taken
    /// more than 10 s to queue twenty calls): for the tests that are not about the limit.
    static let patientLimit = 600_000

    @Test("calls run one at a time in arrival order, off the caller's thread")
    func order() async throws {
        let executor = ConnectionExecutor(location: "test", waitLimitMilliseconds: Self.patientLimit)
        let probe = Probe()
        // A first call holds the executor, and each next call is made once the one before it
        // waits in the queue, so the order they arrive in is known whatever the scheduler does.
        let release = try await hold(executor)
        var tasks: [Task<Bool, any Error>] = []
        for call in 0..<20 {
            tasks.append(Task {
                try await executor.run {
                    if probe.running.add(1, ordering: .relaxed).newValue > 1 { probe.overlap.store(true, ordering: .relaxed) }
                    probe.log.withLock { $0.append(call) }
                    probe.running.subtract(1, ordering: .relaxed)
                    // Thread identities are reused once a thread ends, so the executor's mark tells.
                    return ConnectionExecutor.isServing
                }
            })
            while executor.waiting < call + 1 { try await Task.sleep(for: .milliseconds(1)) }
        }
        release.signal()
        var served: [Bool] = []
        for task in tasks { served.append(try await task.value) }
        let overlapped = probe.overlap.load(ordering: .relaxed)
        #expect(!overlapped)
        #expect(probe.log.withLock { $0 } == Array(0..<20))
        #expect(!ConnectionExecutor.isServing && !served.contains(false))
    }

    @Test("a call that has not started within the limit fails, having done nothing, with a busy failure that says why")
    func boundedWait() async throws {
        let executor = ConnectionExecutor(location: "/tmp/g.sqlite", waitLimitMilliseconds: 100)
        let probe = Probe()
        // A call queued first, from this thread (not through the cooperative pool, which other
        // tests may keep busy), that runs until the call behind it has waited past the limit
        // (300 ms against 100): the limit is checked when the calls ahead end, and a time limit
        // needs time to pass.
        executor.enqueue { _ in
            while executor.waiting < 1 { usleep(1_000) }
            usleep(300_000)
        }
        do {
            try await executor.run { probe.overlap.store(true, ordering: .relaxed) }
            Issue.record("the queued call ran")
        } catch let error as GridError {
            if case .storage(let failure) = error {
                #expect(failure.kind == .busy)
                #expect(failure.message.hasPrefix("gave up after waiting "), "\(failure.message)")
                #expect(failure.message.contains("behind this process's 1 earlier call(s) on /tmp/g.sqlite, having done nothing "
                                                 + "(a call waits at most 0.1 s for this process's calls before it)"), "\(failure.message)")
            } else {
                Issue.record("\(error)")
            }
        } catch {
            Issue.record("\(error)")
        }
        let didRun = probe.overlap.load(ordering: .relaxed)
        #expect(!didRun)
        // The executor serves calls again.
        #expect(try await executor.run { 7 } == 7)
    }
}

extension ConnectionExecutorTests {
    @Test("a call cancelled while it waits behind a held executor never runs, and throws CancellationError at once")
    func cancelledWhileQueued() async throws {
        let executor = ConnectionExecutor(location: "test", waitLimitMilliseconds: Self.patientLimit)
        let probe = Probe()
        let release = try await hold(executor)
        let queued = Task { try await executor.run { probe.overlap.store(true, ordering: .relaxed) } }
        while executor.waiting < 1 { try await Task.sleep(for: .milliseconds(1)) }
        queued.cancel()
        // It ends while the executor is still held, and leaves the queue.
        let result = await queued.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(executor.waiting == 0)
        release.signal()
        #expect(try await executor.run { 1 } == 1)
        let ran = probe.overlap.load(ordering: .relaxed)
        #expect(!ran)
        // A call whose task is cancelled before it is queued never runs either.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await executor.run { probe.overlap.store(true, ordering: .relaxed) }
        }
        await #expect(throws: CancellationError.self) { try await early.value }
        let ranLate = probe.overlap.load(ordering: .relaxed)
        #expect(!ranLate)
    }

    @Test("a call that has started runs to its end when its task is cancelled")
    func cancelledWhileRunning() async throws {
        let executor = ConnectionExecutor(location: "test", waitLimitMilliseconds: Self.patientLimit)
        let started = Tally(), release = DispatchSemaphore(value: 0)
        let running = Task {
            try await executor.run { () -> Int in
                started.add()
                _ = release.wait(timeout: .now() + 10)
                return 5
            }
        }
        // Waiting without blocking a thread of the cooperative pool, which other tests share.
        while started.value == 0 { try await Task.sleep(for: .milliseconds(1)) }
        running.cancel()
        release.signal()
        #expect(try await running.value == 5)
    }

    @Test("a call cancelled at any moment while its task starts never stays queued: it ends with CancellationError")
    func cancelledWhileStarting() async throws {
        let executor = ConnectionExecutor(location: "test", waitLimitMilliseconds: Self.patientLimit)
        let probe = Probe()
        // The executor is held, so a call can only end by its cancellation: one that slipped
        // into the queue after its cancellation was handled would wait for the hold.
        let release = try await hold(executor)
        var calls: [Task<Void, any Error>] = []
        for index in 0..<2_000 {
            let call = Task { try await executor.run { probe.overlap.store(true, ordering: .relaxed) } }
            // Cancelled before it starts, while it starts, or once it waits in the queue.
            for _ in 0..<index % 7 { await Task.yield() }
            call.cancel()
            calls.append(call)
        }
        var cancelled = 0
        for call in calls where (try? await call.value) == nil { cancelled += 1 }
        #expect(cancelled == calls.count)
        #expect(executor.waiting == 0)
        release.signal()
        #expect(try await executor.run { 1 } == 1)
        let ran = probe.overlap.load(ordering: .relaxed)
        #expect(!ran)
    }

    @Test("threads are long-lived: calls apart in time reuse the executor's one thread")
    func longLivedThreads() async throws {
        let executor = ConnectionExecutor(location: "test", waitLimitMilliseconds: Self.patientLimit)
        for call in 0..<5 {
            #expect(try await executor.run { call } == call)
            try await Task.sleep(for: .milliseconds(80))
        }
        #expect(executor.threadsStarted == 1)
        let wide = ConnectionExecutor(location: "test", waitLimitMilliseconds: Self.patientLimit, width: 3)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for call in 0..<60 { group.addTask { try await wide.run { Thread.sleep(forTimeInterval: 0.001); return call } } }
            for try await _ in group {}
        }
        #expect(wide.threadsStarted <= 3)
    }
}

/// Makes a first call that holds `executor` until the semaphore returned is signalled, and
/// returns once it runs.
private func hold(_ executor: ConnectionExecutor) async throws -> DispatchSemaphore {
    let release = DispatchSemaphore(value: 0)
    // No time limit: a test's task may wait minutes for a thread of the cooperative pool while
    // other tests hold them, and a hold that ended by itself would let queued calls run.
    executor.enqueue { _ in release.wait() }
    while executor.waiting > 0 { try await Task.sleep(for: .milliseconds(1)) }
    return release
}

/// What calls on an executor saw.
private final class Probe: Sendable {
    let log = Locked<[Int]>([])
    let running = Atomic(0)
    /// Set when two calls overlapped, or when a call that should not run did.
    let overlap = Atomic(false)
}
