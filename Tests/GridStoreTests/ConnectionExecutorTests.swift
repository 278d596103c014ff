import Foundation
import Synchronization
import Testing
@testable import GridStore

/// The serial executor async calls queue on: arrival order, one thread, a bounded wait.
@Suite("Connection executor")
struct ConnectionExecutorTests {
    @Test("calls run one at a time in arrival order, off the caller's thread")
    func order() async throws {
        let executor = ConnectionExecutor(location: "test", waitLimitMilliseconds: 10_000)
        let probe = Probe()
        // A first call holds the executor, and each next call is made once the one before it
        // waits in the queue, so the order they arrive in is known whatever the scheduler does.
        let release = DispatchSemaphore(value: 0)
        executor.enqueue { _ in _ = release.wait(timeout: .now() + 10) }
        for _ in 0..<5_000 where executor.waiting > 0 { try await Task.sleep(for: .milliseconds(1)) }
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
            for _ in 0..<5_000 where executor.waiting < call + 1 { try await Task.sleep(for: .milliseconds(1)) }
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
        let release = DispatchSemaphore(value: 0)
        // A call queued first, from this thread (not through the cooperative pool, which other
        // tests may keep busy), that runs until released well past the limit.
        executor.enqueue { _ in _ = release.wait(timeout: .now() + 5) }
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 1)
            release.signal()
        }
        do {
            try await executor.run { probe.overlap.store(true, ordering: .relaxed) }
            Issue.record("the queued call ran")
        } catch let error as GridError {
            guard case .storage(let failure) = error else { Issue.record("\(error)"); return }
            #expect(failure.kind == .busy)
            #expect(failure.message.hasPrefix("gave up after waiting "), "\(failure.message)")
            #expect(failure.message.contains("behind this process's 1 earlier call(s) on /tmp/g.sqlite, having done nothing "
                                             + "(a call waits at most 0.1 s for this process's calls before it)"), "\(failure.message)")
        }
        let didRun = probe.overlap.load(ordering: .relaxed)
        #expect(!didRun)
        // The executor serves calls again once the queue is short.
        #expect(try await executor.run { 7 } == 7)
    }
}

/// What calls on an executor saw.
private final class Probe: Sendable {
    let log = Locked<[Int]>([])
    let running = Atomic(0)
    /// Set when two calls overlapped, or when a call that should not run did.
    let overlap = Atomic(false)
}
