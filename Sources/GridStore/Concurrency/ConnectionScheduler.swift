/// The turns of one connection: the calls that use it run one at a time, in the order they
/// asked, each waiting at most a limit for the calls before it, and none from inside another's
/// closure on the same storage.
///
/// A synchronous caller blocks its thread while it waits. A call that has not had its turn
/// within its limit gives up, having done nothing, with a ``QueueWaitTimeout``; the turns of
/// calls that gave up are passed over. A call made while the running call holds this scheduler,
/// or holds the storage it is made for (see ``CallScope``), would wait for itself or join a
/// transaction it was not handed: it is refused with ``GridError/reentrantCall`` before it
/// takes a turn.
///
/// On SQLite, the databases of one file that this process has open also share a scheduler for
/// their writes, so the process's writers of the file take turns in arrival order before any
/// of them asks SQLite for its lock.
package final class ConnectionScheduler: @unchecked Sendable {
    // @unchecked: `next`, `serving`, `abandoned` and `running` are only touched while `lock` is held.
    private let lock = PlatformLock()
    /// The ticket the next call to ask takes.
    private var next: UInt64 = 0
    /// The ticket whose call holds the connection, or whose turn is next when none does.
    private var serving: UInt64 = 0
    /// Tickets whose callers gave up waiting; their turn is passed over.
    private var abandoned: [UInt64] = []
    /// Whether a call holds the connection now.
    private var running = false

    /// How many calls wait for their turn now: for tests.
    package var waiting: Int {
        lock.withLock { Int(next - serving) - abandoned.count - (running ? 1 : 0) }
    }

    package init() {}

    /// Runs `body` in the caller's turn, holding the connection for `storage`: once every call
    /// that asked before has ended or given up. `body` is passed the milliseconds left of
    /// `waitLimitMilliseconds`, counted from the call.
    ///
    /// - Parameter storage: What the call uses the connection for; `nil` for a storage's own
    ///   use of its second connection inside a call's turn on its first.
    /// - Complexity: O(*w*) to take the turn, where *w* is the number of calls waiting; ending
    ///   one wakes every waiter, each of which checks its ticket in O(1).
    /// - Throws: What `body` throws; ``GridError/reentrantCall`` when the running call holds this
    ///   scheduler or `storage`; ``QueueWaitTimeout`` naming `location` when the turn did not
    ///   come within the limit (`body` did not run).
    package func run<T>(for storage: AnyObject?, waitLimitMilliseconds: Int, location: String,
                        _ body: (_ remainingMilliseconds: Int) throws -> T) throws -> T {
        try CallScope.refuseNested(in: self, storage ?? self)
        let start = Platform.monotonicMilliseconds()
        let deadline = start + waitLimitMilliseconds
        lock.lock()
        let ticket = next
        next += 1
        while true {
            passOverAbandoned()
            if serving == ticket {
                running = true
                break
            }
            let now = Platform.monotonicMilliseconds()
            if now >= deadline {
                // Those ahead that have not given up: the call running, and the waiters.
                let ahead = Int(ticket - serving) - abandoned.count { $0 > serving && $0 < ticket }
                abandoned.append(ticket)
                lock.broadcast()
                lock.unlock()
                throw QueueWaitTimeout(waitedMilliseconds: now - start, limitMilliseconds: waitLimitMilliseconds, ahead: ahead,
                                       location: location)
            }
            _ = lock.wait(milliseconds: deadline - now)
        }
        lock.unlock()
        defer { endTurn() }
        let waited = Platform.monotonicMilliseconds() - start
        return try CallScope.holding(self, storage ?? self) { try body(max(1, waitLimitMilliseconds - waited)) }
    }

    /// Runs `body` holding the connection for `storage` if no call holds it or waits for it;
    /// `nil` without running it otherwise.
    ///
    /// - Throws: What `body` throws; ``GridError/reentrantCall`` as ``run(for:waitLimitMilliseconds:location:_:)``.
    package func runIfFree<T>(for storage: AnyObject, _ body: () throws -> T) throws -> T? {
        try CallScope.refuseNested(in: self, storage)
        let taken = lock.withLock { () -> Bool in
            passOverAbandoned()
            guard serving == next else { return false }
            next += 1
            running = true
            return true
        }
        guard taken else { return nil }
        defer { endTurn() }
        return try CallScope.holding(self, storage) { try body() }
    }

    /// Runs `close`, which ends the connection's use, in a turn of its own after every call that
    /// asked before, however long they take (each ends within its own limits).
    ///
    /// Asked for inside a call that holds this scheduler, which waiting would deadlock, it runs
    /// at once. No path of gridstore's does: `GridDatabase.close()` refuses to run inside a call,
    /// and a storage is released only once no call holds it.
    package func runClosing(location: String, _ close: () -> Void) {
        while true {
            do {
                return try run(for: nil, waitLimitMilliseconds: 60_000, location: location) { _ in close() }
            } catch GridError.reentrantCall {
                return close()
            } catch {
                continue
            }
        }
    }

    /// Moves the turn past callers that gave up. Called holding `lock`.
    private func passOverAbandoned() {
        while let index = abandoned.firstIndex(of: serving) {
            abandoned.remove(at: index)
            serving += 1
        }
    }

    /// Ends the running call's turn and wakes the callers waiting for theirs.
    private func endTurn() {
        lock.withLock {
            running = false
            serving += 1
            lock.broadcast()
        }
    }
}
