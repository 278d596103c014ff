import Foundation
import Testing
@testable import GridStore

/// The turns of one connection: order, the wait limit, reentrancy and closing, on threads.
@Suite("Connection scheduler")
struct ConnectionSchedulerTests {
    /// A storage the calls are made for.
    final class Storage: Sendable {}

    static let patient = 600_000

    @Test("calls from many threads take turns in the order they asked")
    func arrivalOrder() throws {
        let scheduler = ConnectionScheduler(), storage = Storage()
        let release = hold(scheduler, for: storage)
        let order = Locked<[Int]>([])
        let group = DispatchGroup()
        for caller in 0..<6 {
            group.enter()
            Thread.detachNewThread {
                _ = try? scheduler.run(for: storage, waitLimitMilliseconds: Self.patient, location: "test") { _ in
                    order.withLock { $0.append(caller) }
                }
                group.leave()
            }
            // The next caller asks once this one waits.
            waitUntil { scheduler.waiting == caller + 1 }
        }
        release.signal()
        group.wait()
        #expect(order.withLock { $0 } == Array(0..<6))
        #expect(scheduler.waiting == 0)
    }

    @Test("a call whose turn does not come within its limit gives up having done nothing, and its turn is passed over")
    func waitLimit() throws {
        let scheduler = ConnectionScheduler(), storage = Storage()
        let release = hold(scheduler, for: storage)
        let ran = Locked(false)
        // The only wait on time here is the limit's own.
        #expect { try scheduler.run(for: storage, waitLimitMilliseconds: 50, location: "the test file") { _ in ran.withLock { $0 = true } } } throws: { error in
            guard let timeout = error as? QueueWaitTimeout else { return false }
            return timeout.ahead == 1 && timeout.limitMilliseconds == 50 && timeout.waitedMilliseconds >= 50
                && "\(timeout)".contains("the test file")
        }
        #expect(!ran.withLock { $0 })
        #expect(scheduler.waiting == 0)
        // A caller after it runs once the holder ends: the abandoned turn does not block it.
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? scheduler.run(for: storage, waitLimitMilliseconds: Self.patient, location: "test") { _ in ran.withLock { $0 = true } }
            done.signal()
        }
        waitUntil { scheduler.waiting == 1 }
        release.signal()
        done.wait()
        #expect(ran.withLock { $0 })
    }

    @Test("a call inside another's turn, on its scheduler or for its storage, is refused before it waits")
    func reentrancy() async throws {
        let scheduler = ConnectionScheduler(), other = ConnectionScheduler()
        let storage = Storage(), otherStorage = Storage()
        func isReentrant(_ call: () throws -> Void) -> Bool {
            do {
                try call()
                return false
            } catch GridError.reentrantCall {
                return true
            } catch {
                return false
            }
        }
        let outcomes = try scheduler.run(for: storage, waitLimitMilliseconds: Self.patient, location: "test") { _ in
            [isReentrant { _ = try scheduler.run(for: otherStorage, waitLimitMilliseconds: Self.patient, location: "test") { _ in } },
             isReentrant { _ = try scheduler.runIfFree(for: otherStorage) {} },
             isReentrant { _ = try other.run(for: storage, waitLimitMilliseconds: Self.patient, location: "test") { _ in } },
             isReentrant { _ = try other.run(for: nil, waitLimitMilliseconds: Self.patient, location: "test") { _ in } },
             isReentrant { _ = try other.run(for: otherStorage, waitLimitMilliseconds: Self.patient, location: "test") { _ in } }]
        }
        // Its own scheduler or storage: refused; another scheduler for another storage, or for none: runs.
        #expect(outcomes == [true, true, true, false, false])
        #expect(scheduler.waiting == 0 && other.waiting == 0)
        // A task started inside a turn holds it while the turn lasts, and no longer after. The
        // turn runs on a thread of its own and the task waits by sleeping: neither blocks a thread
        // of the cooperative pool, where the task may wait behind every test the run has queued.
        let seen = Locked<[Bool]>([])
        let turnEnded = Locked(false)
        let task = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Task<Void, any Error>, any Error>) in
            Thread.detachNewThread {
                let inside = DispatchSemaphore(value: 0)
                continuation.resume(with: Result {
                    try scheduler.run(for: storage, waitLimitMilliseconds: Self.patient, location: "test") { _ in
                        let task = Task {
                            seen.withLock { $0.append(CallScope.holds(storage)) }
                            inside.signal()
                            while !turnEnded.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
                            seen.withLock { $0.append(CallScope.holds(storage)) }
                        }
                        inside.wait()
                        return task
                    }
                })
            }
        }
        turnEnded.withLock { $0 = true }
        try await task.value
        #expect(seen.withLock { $0 } == [true, false])
        // The same in a turn taken on a task (this test's): a task started inside it at once
        // (`Task.immediate` runs until it first waits) holds it, and no longer after.
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            let seenOnTask = Locked<[Bool]>([])
            let taskTurnEnded = Locked(false)
            let immediate = try scheduler.run(for: storage, waitLimitMilliseconds: Self.patient, location: "test") { _ in
                Task.immediate {
                    seenOnTask.withLock { $0.append(CallScope.holds(storage)) }
                    while !taskTurnEnded.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
                    seenOnTask.withLock { $0.append(CallScope.holds(storage)) }
                }
            }
            taskTurnEnded.withLock { $0 = true }
            try await immediate.value
            #expect(seenOnTask.withLock { $0 } == [true, false])
        }
    }

    @Test("a call that takes the connection only if free runs when no call holds it or waits for it")
    func runIfFree() throws {
        let scheduler = ConnectionScheduler(), storage = Storage()
        #expect(try scheduler.runIfFree(for: storage) { 1 } == 1)
        let release = hold(scheduler, for: storage)
        let whileHeld = Locked<Int?>(0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            whileHeld.withLock { $0 = try? scheduler.runIfFree(for: storage) { 2 } }
            done.signal()
        }
        done.wait()
        #expect(whileHeld.withLock { $0 } == nil)
        release.signal()
        waitUntil { (try? scheduler.runIfFree(for: storage) { true }) == true }
        #expect(scheduler.waiting == 0)
    }

    @Test("closing runs after the calls that asked before it, and the calls after it come after")
    func closing() throws {
        let scheduler = ConnectionScheduler(), storage = Storage()
        let release = hold(scheduler, for: storage)
        let order = Locked<[String]>([])
        let group = DispatchGroup()
        group.enter()
        Thread.detachNewThread {
            _ = try? scheduler.run(for: storage, waitLimitMilliseconds: Self.patient, location: "test") { _ in order.withLock { $0.append("call") } }
            group.leave()
        }
        waitUntil { scheduler.waiting == 1 }
        group.enter()
        Thread.detachNewThread {
            scheduler.runClosing(location: "test") { order.withLock { $0.append("close") } }
            group.leave()
        }
        waitUntil { scheduler.waiting == 2 }
        release.signal()
        group.wait()
        #expect(order.withLock { $0 } == ["call", "close"])
    }

    // MARK: Helpers

    /// Holds `scheduler` on a thread of its own until the semaphore returned is signalled;
    /// returns once it holds it.
    private func hold(_ scheduler: ConnectionScheduler, for storage: Storage) -> DispatchSemaphore {
        let release = DispatchSemaphore(value: 0), held = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? scheduler.run(for: storage, waitLimitMilliseconds: Self.patient, location: "test") { _ in
                held.signal()
                release.wait()
            }
        }
        held.wait()
        return release
    }

    /// Waits, yielding the processor, until `condition` holds: the scheduler's own count of
    /// waiting calls is the event.
    private func waitUntil(_ condition: () -> Bool) {
        while !condition() { sched_yield() }
    }
}
