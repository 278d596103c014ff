import Synchronization

/// The executor of a database's connections: `async` calls queue here in the order they
/// arrive and run on threads of gridstore's own, one call per connection at a time, so a
/// caller on Swift's cooperative pool is suspended, not blocked, while its call waits for a
/// lock or a server.
///
/// A ``GridDatabase`` has two, one for changes and one for reads. Each serves as many calls
/// at once as the database has connections for them (its `width`: one on an SQLite file, N
/// on a pool of N PostgreSQL connections), so however many calls are waiting, the database
/// uses at most twice that many threads. A thread lingers for a moment after its queue
/// empties, then ends; the next call starts another.
///
/// A queued call that has not started within ``GridDatabase/queueWaitLimitMilliseconds`` fails
/// with a ``GridStorageFailure/Kind/busy`` failure saying it waited behind this process's own
/// calls, having done nothing. The limit is checked when the calls ahead of it end, so a single
/// call running past it (a large import, itself bounded by the statement limit) delays the
/// failure until it ends. A call that was queued runs even if its task is cancelled meanwhile.
package final class ConnectionExecutor: @unchecked Sendable {
    // @unchecked: `jobs`, `head`, `workers` and `runningCalls` are only touched while `lock` is held.

    /// One queued call.
    private struct Job {
        /// When it was queued, in monotonic milliseconds.
        let queuedAt: Int
        /// How many calls were ahead of it then.
        let ahead: Int
        /// Runs the call, or fails it with the timeout it met instead.
        let run: @Sendable (_ expired: QueueWaitTimeout?) -> Void
    }

    /// The database, as a timeout's message names it.
    private let location: String
    /// How long a call may wait for the calls ahead of it.
    private let waitLimitMilliseconds: Int
    private let lock = PlatformLock()
    private var jobs: [Job] = []
    private var head = 0
    /// How many calls may run at once, each on a thread of its own.
    private let width: Int
    /// How many threads serve the queue now.
    private var workers = 0
    /// How many of them run a call now.
    private var runningCalls = 0

    /// How long a thread waits for more work before it ends.
    private static let lingerMilliseconds = 50

    /// How many calls run now on every executor of the process: for tests and diagnostics.
    package static var running: Int { runningCount.load(ordering: .relaxed) }
    /// How many executor threads there are now in the process.
    package static var threads: Int { threadCount.load(ordering: .relaxed) }
    private static let runningCount = Atomic(0)
    private static let threadCount = Atomic(0)
    /// Whether the calling thread is serving an executor's queue now: for tests.
    package static var isServing: Bool { servingThreads.isSet }
    private static let servingThreads = Platform.ThreadMark()

    /// How many calls wait in the queue now, not yet started: for tests.
    package var waiting: Int { lock.withLock { jobs.count - head } }

    /// An executor that runs up to `width` calls at once.
    package init(location: String, waitLimitMilliseconds: Int, width: Int = 1) {
        self.location = location
        self.waitLimitMilliseconds = waitLimitMilliseconds
        self.width = max(1, width)
    }

    /// The result of `body`, run on this executor's thread after the calls queued before it,
    /// while the caller is suspended.
    ///
    /// - Throws: What `body` throws, or ``GridError/storage(_:)`` of kind `busy` (a
    ///   ``QueueWaitTimeout``) when it did not start in time.
    package func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            enqueue { expired in
                if let expired {
                    continuation.resume(throwing: GridError.storage(GridStorageFailure(expired)))
                } else {
                    continuation.resume(with: Result { try body() })
                }
            }
        }
    }

    /// Queues `run`, which gets the timeout it met instead of running, if it met one.
    func enqueue(_ run: @escaping @Sendable (_ expired: QueueWaitTimeout?) -> Void) {
        let startsThread = lock.withLock { () -> Bool in
            jobs.append(Job(queuedAt: Platform.monotonicMilliseconds(), ahead: jobs.count - head + runningCalls, run: run))
            lock.broadcast()
            // Another thread only while the queued calls outnumber the idle threads.
            guard workers < width, jobs.count - head > workers - runningCalls else { return false }
            workers += 1
            return true
        }
        guard startsThread else { return }
        if !Platform.startThread({ self.serve() }) {
            // No thread could be made (the process is at its limit): serve the queue here rather than fail.
            serve()
        }
    }

    /// Runs queued calls until the queue stays empty for a moment.
    private func serve() {
        Self.threadCount.add(1, ordering: .relaxed)
        Self.servingThreads.set(true)
        defer {
            Self.servingThreads.set(false)
            Self.threadCount.subtract(1, ordering: .relaxed)
        }
        lock.lock()
        while true {
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
                if !lock.wait(milliseconds: Self.lingerMilliseconds) && head == jobs.count {
                    workers -= 1
                    lock.unlock()
                    return
                }
                continue
            }
            let job = jobs[head]
            head += 1
            runningCalls += 1
            if head > 1_024 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            lock.unlock()
            let waited = Platform.monotonicMilliseconds() - job.queuedAt
            if waited > waitLimitMilliseconds {
                job.run(QueueWaitTimeout(waitedMilliseconds: waited, limitMilliseconds: waitLimitMilliseconds, ahead: job.ahead,
                                         location: location))
            } else {
                Self.runningCount.add(1, ordering: .relaxed)
                job.run(nil)
                Self.runningCount.subtract(1, ordering: .relaxed)
            }
            lock.lock()
            runningCalls -= 1
        }
    }
}
