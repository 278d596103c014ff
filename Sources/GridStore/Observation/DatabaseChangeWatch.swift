/// One loop per database that waits for its backend's change signal (``GridChangeSignal``) and
/// wakes every observer of the database's grids at once: a hundred observed grids cost one
/// thread and one signal, not a poller each.
///
/// The loop starts with the first observer, on a long-lived thread of its own, and ends when
/// the database is released. Each time the signal fires, the watch's generation moves on and
/// every waiting observer wakes to read its grid's revision. A backend without a signal (a
/// PostgreSQL pooler in transaction mode, which drops `LISTEN`) leaves its observers to poll.
package final class DatabaseChangeWatch: @unchecked Sendable {
    // @unchecked: every variable is only touched while `lock` is held.

    /// What a waiting observer is woken with: the generation, or `nil` when there is no signal.
    private typealias Wake = @Sendable (Result<Int?, any Error>) -> Void

    private struct Waiter {
        let id: Int
        let deadline: Int
        let wake: Wake
    }

    private let lock = PlatformLock()
    private let makeSignal: @Sendable () throws -> (any GridChangeSignal)?
    private var generation = 0
    private var waiters: [Waiter] = []
    private var nextID = 0
    /// Whether the loop runs, has its signal, or found that the backend has none.
    private var state = State.idle
    private var stopped = false
    /// Whether the loop's thread runs (and may hold its signal's connection).
    private var loopRunning = false

    private enum State {
        case idle, starting, watching, unavailable
    }

    /// How long the loop waits on the signal at a time, so that it sees observers whose wait
    /// ran out, and the database's release.
    static let sliceMilliseconds = 100
    /// How long the loop waits before making a signal again after one broke, doubled after
    /// each failure in a row up to ``longestRetryMilliseconds``.
    static let retryMilliseconds = 500
    static let longestRetryMilliseconds = 8_000

    package init(makeSignal: @escaping @Sendable () throws -> (any GridChangeSignal)?) {
        self.makeSignal = makeSignal
    }

    /// Ends the loop: called when the database is released or closed. Waiting observers wake
    /// and read their grids.
    ///
    /// - Parameter waiting: Whether to return only once the loop has ended and closed its
    ///   signal's connection: at most one slice (``sliceMilliseconds``) later, unless the loop
    ///   is making its signal just then (a connection being opened).
    package func stop(waiting: Bool = false) {
        let woken = lock.withLock { () -> [Waiter] in
            stopped = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in woken { waiter.wake(.success(nil)) }
        lock.withLock {
            lock.broadcast()   // a loop pausing before it tries again stops at once
            while waiting && loopRunning { _ = lock.wait(milliseconds: Self.sliceMilliseconds) }
        }
    }

    /// How many loops the watch has started: one for all its observers (for tests).
    package var loopsStarted: Int { lock.withLock { startedLoops } }
    private var startedLoops = 0

    /// The generation now: read before an observer reads its grid, so a change made meanwhile
    /// wakes it at once.
    package var currentGeneration: Int { lock.withLock { generation } }

    /// Starts the loop, and returns once its signal is in place (changes from then on wake
    /// observers) or it is known that there is none.
    ///
    /// - Returns: Whether the database has a signal; `false`: observers poll.
    package func prepare() async throws -> Bool {
        try await wait(after: Int.min, milliseconds: 0, untilPrepared: true) != nil
    }

    /// Waits until the database may have changed after `generation`, at most `milliseconds`.
    ///
    /// - Returns: The generation now (unchanged when the time ran out); `nil` when the
    ///   database has no signal, so the observer polls.
    /// - Throws: `CancellationError` when the observing task is cancelled.
    package func change(after generation: Int, waitingAtMost milliseconds: Int) async throws -> Int? {
        try await wait(after: generation, milliseconds: milliseconds, untilPrepared: false)
    }

    private func wait(after generation: Int, milliseconds: Int, untilPrepared: Bool) async throws -> Int? {
        let id = lock.withLock { () -> Int in
            nextID += 1
            return nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int?, any Error>) in
                let wake: Wake = { continuation.resume(with: $0) }
                let (now, startsLoop) = lock.withLock { () -> (Result<Int?, any Error>?, Bool) in
                    if stopped || state == .unavailable { return (.success(nil), false) }
                    if Task.isCancelled { return (.failure(CancellationError()), false) }
                    if state == .watching && (untilPrepared || generation < self.generation) { return (.success(self.generation), false) }
                    waiters.append(Waiter(id: id, deadline: untilPrepared ? Int.max : Platform.monotonicMilliseconds() + milliseconds,
                                          wake: wake))
                    guard state == .idle else { return (nil, false) }
                    state = .starting
                    startedLoops += 1
                    loopRunning = true
                    return (nil, true)
                }
                if let now { return wake(now) }
                if startsLoop && !Platform.startThread({ self.loop() }) {
                    lock.withLock {
                        state = .unavailable
                        loopRunning = false
                        lock.broadcast()
                    }
                    wakeAll(with: .success(nil))
                }
            }
        } onCancel: {
            let waiter = lock.withLock { () -> Waiter? in
                guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return waiters.remove(at: index)
            }
            waiter?.wake(.failure(CancellationError()))
        }
    }

    /// Wakes every waiting observer with `result`.
    private func wakeAll(with result: Result<Int?, any Error>) {
        let woken = lock.withLock { () -> [Waiter] in
            defer { waiters = [] }
            return waiters
        }
        for waiter in woken { waiter.wake(result) }
    }

    /// Waits on the signal, waking observers, until the database is released.
    private func loop() {
        var signal: (any GridChangeSignal)?
        defer {
            signal = nil   // its connection is closed before a waiting stop(waiting:) returns
            lock.withLock {
                loopRunning = false
                lock.broadcast()
            }
        }
        // Failures in a row to keep a signal: the first wakes the observers, which read their
        // grid again and meet the failure themselves; the next ones only wait longer.
        var failures = 0
        while !lock.withLock({ stopped }) {
            if signal == nil {
                do {
                    signal = try makeSignal()
                } catch {
                    failures += 1
                    if failures == 1 { advance() }
                    pause(milliseconds: min(Self.longestRetryMilliseconds, Self.retryMilliseconds << min(failures - 1, 5)))
                    continue
                }
                guard signal != nil else {
                    lock.withLock { state = .unavailable }
                    wakeAll(with: .success(nil))
                    return
                }
                // In place: a change from now on moves the generation.
                lock.withLock { state = .watching }
                advance()
            }
            do {
                if try signal!.waitForChange(milliseconds: Self.sliceMilliseconds) { advance() }
                failures = 0
            } catch {
                signal = nil
                failures += 1
                if failures == 1 { advance() }
            }
            wakeExpired()
        }
    }

    /// Waits `milliseconds` before trying again, or less when ``stop(waiting:)`` is called.
    private func pause(milliseconds: Int) {
        let deadline = Platform.monotonicMilliseconds() + milliseconds
        lock.withLock {
            while !stopped {
                let remaining = deadline - Platform.monotonicMilliseconds()
                if remaining <= 0 { break }
                _ = lock.wait(milliseconds: remaining)
            }
        }
    }

    /// Wakes every observer to check again, as a change would: for what changes what an
    /// observer sees without changing the database (a repository's registered default size).
    package func wake() {
        if lock.withLock({ state == .watching }) { advance() }
    }

    /// Moves the generation on and wakes every observer.
    private func advance() {
        let (woken, current) = lock.withLock { () -> ([Waiter], Int) in
            generation += 1
            defer { waiters = [] }
            return (waiters, generation)
        }
        for waiter in woken { waiter.wake(.success(current)) }
    }

    /// Wakes the observers whose wait ran out, with the generation unchanged.
    private func wakeExpired() {
        let now = Platform.monotonicMilliseconds()
        let (woken, current) = lock.withLock { () -> ([Waiter], Int) in
            let expired = waiters.filter { $0.deadline <= now }
            waiters.removeAll { $0.deadline <= now }
            return (expired, generation)
        }
        for waiter in woken { waiter.wake(.success(current)) }
    }
}
