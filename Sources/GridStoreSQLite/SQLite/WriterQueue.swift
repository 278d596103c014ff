#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GridStore
import Synchronization

/// Writers of one database file in this process, served in the order they arrived, before
/// any of them asks SQLite for its lock: SQLite's busy handler sleeps and retries, so among
/// threads of one process a waiter could lose every race until its timeout.
package final class WriterQueue: @unchecked Sendable {
    // @unchecked: the pthread mutex and condition guard `next` and `serving`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var next: UInt64 = 0
    private var serving: UInt64 = 0
    /// Tickets whose writers gave up waiting; their turn is skipped.
    private var abandoned: Set<UInt64> = []
    /// The thread whose turn it is, while it writes.
    private let holder = Atomic<UInt>(0)

    private init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Runs `body` when every writer that arrived before has finished or given up, passing
    /// it the milliseconds left of `timeoutMilliseconds` (counted from the call).
    ///
    /// - Returns: `nil` without running `body` when the turn did not come within the timeout.
    package func inTurn<T>(timeoutMilliseconds: Int32, _ body: (_ remaining: Int32) throws -> T) throws -> T? {
        // A change of this file asked for inside a change of the same file on this thread (through
        // another GridDatabase) would wait for itself.
        if holder.load(ordering: .acquiring) == ConnectionGate.currentThread { throw GridError.reentrantCall }
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let start = deadline
        deadline.tv_sec += Int(timeoutMilliseconds / 1_000)
        deadline.tv_nsec += Int(timeoutMilliseconds % 1_000) * 1_000_000
        if deadline.tv_nsec >= 1_000_000_000 { deadline.tv_sec += 1; deadline.tv_nsec -= 1_000_000_000 }
        pthread_mutex_lock(mutex)
        let ticket = next
        next += 1
        var timedOut = false
        while true {
            // The turns of writers that gave up are passed over.
            while abandoned.remove(serving) != nil { serving += 1 }
            if serving == ticket || timedOut { break }
            timedOut = pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT
        }
        timedOut = serving != ticket
        if timedOut {
            abandoned.insert(ticket)
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
            return nil
        }
        pthread_mutex_unlock(mutex)
        holder.store(ConnectionGate.currentThread, ordering: .releasing)
        defer {
            holder.store(0, ordering: .releasing)
            pthread_mutex_lock(mutex)
            serving += 1
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let waited = (now.tv_sec - start.tv_sec) * 1_000 + (now.tv_nsec - start.tv_nsec) / 1_000_000
        return try body(max(1, timeoutMilliseconds - Int32(clamping: waited)))
    }

    /// The queues, one per file (its device and inode), shared by every ``GridDatabase`` of the process.
    private static let registry = Registry()

    /// The queue of the file `identity`.
    package static func forFile(_ identity: FileIdentity) -> WriterQueue {
        registry.queue(for: identity)
    }

    /// The queues by file, behind a pthread mutex.
    ///
    /// A list searched in order rather than a dictionary: a process opens few files, and a
    /// dictionary keyed by ``FileIdentity`` costs every process a search of the runtime's
    /// conformance records when it is first made.
    private final class Registry: @unchecked Sendable {
        private let gate = ConnectionGate()
        private var queues: [(identity: FileIdentity, queue: WriterQueue)] = []

        func queue(for identity: FileIdentity) -> WriterQueue {
            // The body cannot throw.
            (try? gate.withLock(for: .write) { () -> WriterQueue in
                if let entry = queues.first(where: { $0.identity == identity }) { return entry.queue }
                let queue = WriterQueue()
                queues.append((identity, queue))
                return queue
            }) ?? WriterQueue()
        }
    }
}

/// Which file a path names: its device and inode, unchanged by renames of other paths to it.
package struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `path` now, following symbolic links; `nil` when there is none.
    package static func of(_ path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
