import Synchronization

/// The executor of a database's connections: `async` calls queue here in the order they
/// arrive and run on threads of gridstore's own, one call per connection at a time, so a
/// caller on Swift's cooperative pool is suspended, not blocked, while its call waits for a
/// lock or a server.
///
/// A ``GridDatabase`` has two, one for changes and one for reads. Each serves as many calls
/// at once as the database has connections for them (its `width`: one on an SQLite file, N
/// on a pool of N PostgreSQL connections), each on a long-lived thread of its own, made when
/// first needed and kept until the database is released: however many calls are waiting, the
/// database uses at most twice that many threads, and no thread is made per call.
///
/// A call whose task is cancelled before it starts never runs: it throws `CancellationError`
/// at once and leaves the queue. One that has started runs to its commit or rollback.
///
/// A queued call that has not started within ``GridDatabase/queueWaitLimitMilliseconds`` fails
/// with a ``GridStorageFailure/Kind/busy`` failure saying it waited behind this process's own
/// calls, having done nothing. The limit is checked when the calls ahead of it end, so a single
/// call running past it (a large import, itself bounded by the statement limit) delays the
/// failure until it ends.
package final class ConnectionExecutor: @unchecked Sendable {
    // @unchecked: `jobs`, `head`, `workers`, `idleWorkers`, `runningCalls` and `stopped`, and
    // every job's `run` and `isCancelled`, are only touched while `lock` is held.

    /// How a queued call ends its wait.
    private enum Outcome {
        /// Its turn came: it runs.
        case start
        /// It waited past the limit.
        case expired(QueueWaitTimeout)
        /// Its task was cancelled before its turn.
        case cancelled
    }

    /// One queued call.
    private final class Job: @unchecked Sendable {
        /// When it was queued, in monotonic milliseconds.
        let queuedAt: Int
        /// How many calls were ahead of it when it was queued.
        var ahead = 0
        /// Ends the call's wait as the outcome says; `nil` once taken, by a worker or a cancellation.
        var run: (@Sendable (Outcome) -> Void)?
        /// Whether its task was cancelled: a cancellation that comes before the call is queued
        /// (after the task's flag was read) ends it when it is.
        var isCancelled = false

        init(queuedAt: Int) {
            self.queuedAt = queuedAt
        }
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
    /// How many threads serve the queue.
    private var workers = 0
    /// How many of them wait for a call.
    private var idleWorkers = 0
    /// How many calls run now.
    private var runningCalls = 0
    /// Whether the threads are to end: the database was released.
    private var stopped = false

    /// How many calls run now on every executor of the process: for tests and diagnostics.
    package static var running: Int { runningCount.load(ordering: .relaxed) }
    /// How many executor threads there are now in the process.
    package static var threads: Int { threadCount.load(ordering: .relaxed) }
    private static let runningCount = Atomic(0)
    private static let threadCount = Atomic(0)
    /// Whether the calling thread is serving an executor's queue now: for tests.
    package static var isServing: Bool { servingThreads.isSet }
    private static let servingThreads = Platform.ThreadMark()

    /// How many threads this executor has started since it was made: for tests.
    package var threadsStarted: Int { lock.withLock { startedThreads } }
    private var startedThreads = 0

    /// How many calls wait in the queue now, not yet started: for tests.
    package var waiting: Int { lock.withLock { jobs[head...].count { $0.run != nil } } }

    /// An executor that runs up to `width` calls at once.
    package init(location: String, waitLimitMilliseconds: Int, width: Int = 1) {
        self.location = location
        self.waitLimitMilliseconds = waitLimitMilliseconds
        self.width = max(1, width)
    }

    /// Lets the threads end once the queue is empty: called when the database is released.
    package func stop() {
        lock.withLock {
            stopped = true
            lock.broadcast()
        }
    }

    /// The result of `body`, run on this executor's thread after the calls queued before it,
    /// while the caller is suspended.
    ///
    /// - Throws: What `body` throws; `CancellationError` when the task was cancelled before
    ///   `body` started (it never runs then); ``GridError/storage(_:)`` of kind `busy` (a
    ///   ``QueueWaitTimeout``) when it did not start in time.
    package func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let job = Job(queuedAt: Platform.monotonicMilliseconds())
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                // A task cancelled already has had `onCancel` run first, which marked the job.
                enqueue(job) { outcome in
                    switch outcome {
                    case .start: continuation.resume(with: Result { try body() })
                    case .expired(let timeout): continuation.resume(throwing: GridError.storage(GridStorageFailure(timeout)))
                    case .cancelled: continuation.resume(throwing: CancellationError())
                    }
                }
            }
        } onCancel: {
            cancel(job)
        }
    }

    /// Queues `run` from the calling thread without waiting for it; it gets the timeout it met
    /// instead of running, if it met one: for tests that hold the executor.
    func enqueue(_ run: @escaping @Sendable (_ expired: QueueWaitTimeout?) -> Void) {
        enqueue(Job(queuedAt: Platform.monotonicMilliseconds())) { outcome in
            switch outcome {
            case .start, .cancelled: run(nil)
            case .expired(let timeout): run(timeout)
            }
        }
    }

    /// Queues `job` to end with `run`, or ends it at once when its task was cancelled already.
    private func enqueue(_ job: Job, _ run: @escaping @Sendable (Outcome) -> Void) {
        let (startsThread, endsNow) = lock.withLock { () -> (Bool, Bool) in
            if job.isCancelled { return (false, true) }
            job.run = run
            job.ahead = jobs.count - head + runningCalls
            jobs.append(job)
            lock.broadcast()
            // Another thread while the queued calls outnumber the idle threads (a woken thread
            // counts as idle until it takes a call).
            guard jobs.count - head > idleWorkers, workers < width else { return (false, false) }
            workers += 1
            startedThreads += 1
            return (true, false)
        }
        if endsNow { return run(.cancelled) }
        guard startsThread else { return }
        if !Platform.startThread({ self.serve() }) {
            // No thread could be made (the process is at its limit): this call runs here, now,
            // rather than fail; the calls queued before it keep their turn for a thread.
            if let run = take(job, givingUpAThread: true) { start(job, run) }
        }
    }

    /// Takes `job` out of the queue if it has not started, and fails it with `CancellationError`.
    private func cancel(_ job: Job) {
        let run = lock.withLock {
            job.isCancelled = true
            defer { job.run = nil }
            return job.run
        }
        run?(.cancelled)
    }

    /// Takes `job` out of the queue: its closure, or `nil` when a worker or a cancellation
    /// took it first. With `givingUpAThread`, the thread counted for it was not made.
    private func take(_ job: Job, givingUpAThread: Bool = false) -> (@Sendable (Outcome) -> Void)? {
        lock.withLock {
            if givingUpAThread { workers -= 1 }
            defer { job.run = nil }
            return job.run
        }
    }

    /// The next call in line, taken out of the queue; waits for one while the queue is empty,
    /// and returns `nil` once the executor stops with nothing queued. Called holding `lock`.
    private func nextJob() -> (job: Job, run: @Sendable (Outcome) -> Void)? {
        while true {
            while head < jobs.count {
                let job = jobs[head]
                head += 1
                if let run = job.run {
                    job.run = nil
                    if head > 1_024 && head * 2 > jobs.count {
                        jobs.removeFirst(head)
                        head = 0
                    }
                    return (job, run)
                }
            }
            jobs.removeAll(keepingCapacity: true)
            head = 0
            if stopped { return nil }
            idleWorkers += 1
            _ = lock.wait(milliseconds: 60_000)
            idleWorkers -= 1
        }
    }

    /// Runs queued calls for as long as the executor lives.
    private func serve() {
        Self.threadCount.add(1, ordering: .relaxed)
        Self.servingThreads.set(true)
        defer {
            Self.servingThreads.set(false)
            Self.threadCount.subtract(1, ordering: .relaxed)
        }
        lock.lock()
        var next = nextJob()
        while next != nil {
            runningCalls += 1
            lock.unlock()
            // The call's closure, and what it holds (a database whose release stops this
            // executor), goes at the end of this block, before the lock is taken again.
            do {
                let (job, run) = next!
                next = nil
                start(job, run)
            }
            lock.lock()
            runningCalls -= 1
            next = nextJob()
        }
        workers -= 1
        lock.unlock()
    }

    /// Starts `job`'s call, or fails it when it waited past the limit.
    private func start(_ job: Job, _ run: @Sendable (Outcome) -> Void) {
        let waited = Platform.monotonicMilliseconds() - job.queuedAt
        if waited > waitLimitMilliseconds {
            run(.expired(QueueWaitTimeout(waitedMilliseconds: waited, limitMilliseconds: waitLimitMilliseconds,
                                          ahead: job.ahead, location: location)))
        } else {
            Self.runningCount.add(1, ordering: .relaxed)
            run(.start)
            Self.runningCount.subtract(1, ordering: .relaxed)
        }
    }
}
