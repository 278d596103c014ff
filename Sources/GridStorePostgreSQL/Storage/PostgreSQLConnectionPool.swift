import GridStore

/// What a connection of the pool is taken for: changes count against its writers.
package enum ConnectionUse: Sendable {
    case read, write
}

/// The connections of one PostgreSQL database handle: up to ``writers`` changes run at once,
/// each on a connection of its own, and reads take any idle connection, or one more, so a read
/// never waits for a change that waits for another process's row lock.
///
/// Connections are made when first needed and kept; a connection the server dropped is made
/// again by the call that next takes it. When the server refuses one more connection for want of
/// slots (`max_connections`), the pool keeps the connections it has and its callers take turns
/// on them, instead of failing. Callers wait in the order they came, writers among
/// writers and readers among readers, each at most ``waitLimitMilliseconds``, then fail with a
/// ``QueueWaitTimeout`` having done nothing.
///
/// A call made inside another call's closure on the same database is refused before it waits
/// for a connection (see ``CallScope``), so no call waits for a connection its own caller holds:
/// the pool is the scheduler of its connections.
final class PostgreSQLConnectionPool: @unchecked Sendable {
    // @unchecked: every stored variable is only touched while `lock` is held.

    /// A connection taken from the pool, with what it was taken for.
    struct Lease {
        let connection: PostgreSQLConnection
        let use: ConnectionUse
    }

    /// How many changes may run at once, each on its own connection.
    let writers: Int
    /// At most this many connections are open: one per writer and one more for reads, or
    /// fewer once the server had no slot for another (see ``serverRefusedMore``).
    private var connectionLimit: Int
    /// When the server last refused one more connection, while the pool keeps to fewer.
    private var shrunkAt: Int?

    /// At most this many connections are open now (see ``connectionLimit``).
    var capacity: Int { lock.withLock { connectionLimit } }
    /// How long a caller waits for a connection before it gives up.
    let waitLimitMilliseconds: Int
    /// Where new connections go.
    let location: PostgreSQLLocation

    private let lock = PlatformLock()
    private var idle: [PostgreSQLConnection]
    /// Connections open or being opened.
    private var opened: Int
    /// Connections held for a change now.
    private var writing = 0
    /// The tickets of waiting callers, oldest first, for writes (index 0) and reads (index 1).
    private var waiting: [[Int]] = [[], []]
    private var nextTicket = 0
    /// Whether ``close()`` ran: no connection is taken or kept afterwards.
    private var closed = false

    /// Refuses later calls at once; the calls holding connections go on.
    func refuseNewCalls() {
        lock.withLock {
            closed = true
            lock.broadcast()
        }
    }

    /// Refuses later calls, closes every idle connection, and waits for each one in use to
    /// come back (its call to end) and closes it. Inside a call on this pool it does not wait,
    /// as that call's connection could not come back: it closes as it comes back.
    func close() {
        let dropped = lock.withLock { () -> [PostgreSQLConnection] in
            closed = true
            defer { idle = [] }
            opened -= idle.count
            lock.broadcast()
            return idle
        }
        _ = dropped   // released here: each connection's session ends as it goes
        guard !CallScope.holds(self) else { return }
        lock.withLock {
            while opened > 0 { _ = lock.wait() }
        }
    }

    /// A pool over `first`, an open connection, that opens more to `location` as needed.
    init(first: PostgreSQLConnection, writers: Int, waitLimitMilliseconds: Int) {
        precondition(writers >= 1)
        self.writers = writers
        self.waitLimitMilliseconds = waitLimitMilliseconds
        location = first.location
        idle = [first]
        opened = 1
        connectionLimit = writers + 1
    }

    /// Whether `error`, from opening a connection, says the server has no slot for another
    /// or for the role or database (`CONNECTION LIMIT`): SQLSTATE 53300, whose text is all libpq
    /// passes on before a connection exists.
    static func serverRefusedMore(_ error: any Error) -> Bool {
        let text = "\(error)"
        return text.contains("too many clients") || text.contains("remaining connection slots are reserved")
            || text.contains("too many connections for")
    }

    /// Throws what a call after ``close()`` throws, without taking a connection: for a call that needs none.
    func refuseIfClosed() throws(GridError) {
        if lock.withLock({ closed }) { throw closedFailure }
    }

    /// Runs `body`, which needs no connection (a database without gridstore's tables reads as
    /// empty), as a call of `storage` on this pool: refused inside another, and after ``close()``.
    func withoutConnection<T>(storage: AnyObject, _ body: () throws -> T) throws -> T {
        try CallScope.refuseNested(in: self, storage)
        try refuseIfClosed()
        return try CallScope.holding(self, storage, body)
    }

    /// What a call after ``close()`` throws.
    private var closedFailure: GridError {
        GridError.storage(GridStorageFailure(kind: .closed, message: "the database \(location.displayName) was closed; open it again"))
    }

    /// How many connections are open now: for tests and diagnostics.
    var openCount: Int { lock.withLock { opened } }

    /// How many callers wait for a connection now: for tests and diagnostics.
    var waitingCount: Int { lock.withLock { waiting[0].count + waiting[1].count } }

    /// The round trips made so far by the connections that are idle now: for tests.
    var idleRoundTrips: Int { lock.withLock { idle.reduce(0) { $0 + $1.roundTrips } } }

    /// The statements the idle connections have sent, for tests.
    var idleStatements: Int { lock.withLock { idle.reduce(0) { $0 + $1.statementsSent } } }

    /// Runs `body` with a connection taken for `use` by `storage`, waiting for one if none is free.
    ///
    /// - Throws: What `body` throws; ``GridError/reentrantCall`` inside another call's closure
    ///   on this pool or `storage`, before it takes a connection; ``QueueWaitTimeout`` (as
    ///   ``GridError/storage(_:)``) when no connection came free in time; ``PostgreSQLError``
    ///   when a new connection cannot be made.
    func withConnection<T>(for use: ConnectionUse, storage: AnyObject, _ body: (PostgreSQLConnection) throws -> T) throws -> T {
        try CallScope.refuseNested(in: self, storage)
        let lease = try take(for: use)
        defer { give(back: lease) }
        return try CallScope.holding(self, storage) { try body(lease.connection) }
    }

    /// Takes a connection for `use`, in the caller's turn. When the server refuses a new one for
    /// want of slots while others are open, the pool keeps to those for a while
    /// (``shrinkMilliseconds``) and the caller waits, keeping its place, for one of them.
    private func take(for use: ConnectionUse) throws -> Lease {
        let queue = use == .write ? 0 : 1
        let started = GridStore.Platform.monotonicMilliseconds()
        lock.lock()
        let ticket = nextTicket
        nextTicket += 1
        let ahead = waiting[queue].count + (use == .write ? writing : opened - idle.count)
        waiting[queue].append(ticket)
        while true {
            while !closed && (waiting[queue].first != ticket || !canStart(use)) {
                let remaining = started + waitLimitMilliseconds - GridStore.Platform.monotonicMilliseconds()
                if remaining <= 0 {
                    waiting[queue].removeAll { $0 == ticket }
                    lock.broadcast()
                    lock.unlock()
                    throw GridError.storage(GridStorageFailure(QueueWaitTimeout(
                        waitedMilliseconds: GridStore.Platform.monotonicMilliseconds() - started, limitMilliseconds: waitLimitMilliseconds,
                        ahead: ahead, location: location.displayName)))
                }
                _ = lock.wait(milliseconds: min(remaining, Self.shrinkMilliseconds))
            }
            if closed {
                waiting[queue].removeAll { $0 == ticket }
                lock.broadcast()
                lock.unlock()
                throw closedFailure
            }
            if use == .write { writing += 1 }
            let reused = idle.popLast()
            if reused == nil { opened += 1 }
            lock.unlock()
            let connection: PostgreSQLConnection
            do {
                connection = try reused ?? PostgreSQLConnection(location)
            } catch {
                lock.lock()
                opened -= 1
                if use == .write { writing -= 1 }
                if opened >= 1 && Self.serverRefusedMore(error) {
                    // Still first in line: wait for one of the connections there are.
                    connectionLimit = opened
                    shrunkAt = GridStore.Platform.monotonicMilliseconds()
                    continue
                }
                waiting[queue].removeAll { $0 == ticket }
                lock.broadcast()
                lock.unlock()
                throw error
            }
            lock.lock()
            waiting[queue].removeFirst()
            // The next caller in line may be able to start too.
            lock.broadcast()
            lock.unlock()
            return Lease(connection: connection, use: use)
        }
    }

    /// How long the pool keeps to the connections it has after the server refused one more,
    /// before it tries to grow again.
    static let shrinkMilliseconds = 10_000

    private func canStart(_ use: ConnectionUse) -> Bool {
        if let shrunkAt, GridStore.Platform.monotonicMilliseconds() - shrunkAt >= Self.shrinkMilliseconds {
            connectionLimit = writers + 1
            self.shrunkAt = nil
        }
        // With fewer connections than writers, one is kept free for reads while there are two.
        if use == .write && (writing >= writers || writing >= max(1, connectionLimit - 1)) { return false }
        return !idle.isEmpty || opened < connectionLimit
    }

    private func give(back lease: Lease) {
        lock.withLock {
            if closed { opened -= 1 } else { idle.append(lease.connection) }
            if lease.use == .write { writing -= 1 }
            lock.broadcast()
        }
    }
}
