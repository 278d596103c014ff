import GridStore
import Synchronization

/// Writers of one database file in this process, served in the order they arrived, before
/// any of them asks SQLite for its lock: SQLite's busy handler sleeps and retries, so among
/// threads of one process a waiter could lose every race until its timeout.
package final class WriterQueue: @unchecked Sendable {
    // @unchecked: `lock` guards `next`, `serving` and `abandoned`.
    private let lock = PlatformLock()
    private var next: UInt64 = 0
    private var serving: UInt64 = 0
    /// Tickets whose writers gave up waiting; their turn is skipped.
    private var abandoned: [UInt64] = []
    private init() {}

    /// Runs `body` when every writer that arrived before has finished or given up, passing
    /// it the milliseconds left of `timeoutMilliseconds` (counted from the call).
    ///
    /// - Throws: ``QueueWaitTimeout`` naming `location` when the turn did not come within the
    ///   timeout (`body` did not run); ``GridError/reentrantCall`` when the running call is the
    ///   one writing (through another ``GridDatabase`` of the same file), which would wait for itself.
    package func inTurn<T>(timeoutMilliseconds: Int32, location: String, _ body: (_ remaining: Int32) throws -> T) throws -> T {
        try CallScope.refuseNested(in: self)
        let start = Platform.monotonicMilliseconds()
        let deadline = start + Int(timeoutMilliseconds)
        lock.lock()
        let ticket = next
        next += 1
        while true {
            // The turns of writers that gave up are passed over.
            while let index = abandoned.firstIndex(of: serving) {
                abandoned.remove(at: index)
                serving += 1
            }
            if serving == ticket { break }
            let now = Platform.monotonicMilliseconds()
            if now >= deadline {
                // Those ahead that have not given up: the writer writing, and the waiters.
                let ahead = Int(ticket - serving) - abandoned.filter { $0 > serving && $0 < ticket }.count
                abandoned.append(ticket)
                lock.broadcast()
                lock.unlock()
                throw QueueWaitTimeout(waitedMilliseconds: now - start, limitMilliseconds: Int(timeoutMilliseconds), ahead: ahead,
                                       location: location)
            }
            let left = deadline - now
            _ = lock.wait(milliseconds: left)
        }
        lock.unlock()
        defer {
            lock.withLock {
                serving += 1
                lock.broadcast()
            }
        }
        let waited = Platform.monotonicMilliseconds() - start
        return try CallScope.holding(self) { try body(max(1, timeoutMilliseconds - Int32(clamping: waited))) }
    }

    /// The queues, one per file (its device and inode), shared by every ``GridDatabase`` of the
    /// process while one of them has the file open.
    private static let registry = Registry()

    /// The queue of the file `identity`, for one more user; give it back with ``release(_:)``.
    package static func forFile(_ identity: FileIdentity) -> WriterQueue {
        registry.queue(for: identity)
    }

    /// Gives back a queue from ``forFile(_:)``: the last user's leaving removes it.
    package static func release(_ queue: WriterQueue) {
        registry.release(queue)
    }

    /// The queues by file, with how many connections use each.
    ///
    /// A list searched in order rather than a dictionary: a process opens few files, and a
    /// dictionary keyed by ``FileIdentity`` costs every process a search of the runtime's
    /// conformance records when it is first made.
    private final class Registry: @unchecked Sendable {
        // @unchecked: `queues` is only touched while `lock` is held.
        private let lock = PlatformLock()
        private var queues: [(identity: FileIdentity, queue: WriterQueue, users: Int)] = []

        func queue(for identity: FileIdentity) -> WriterQueue {
            lock.withLock {
                if let index = queues.firstIndex(where: { $0.identity == identity }) {
                    queues[index].users += 1
                    return queues[index].queue
                }
                let queue = WriterQueue()
                queues.append((identity, queue, 1))
                return queue
            }
        }

        func release(_ queue: WriterQueue) {
            lock.withLock {
                guard let index = queues.firstIndex(where: { $0.queue === queue }) else { return }
                queues[index].users -= 1
                if queues[index].users == 0 { queues.remove(at: index) }
            }
        }
    }
}
