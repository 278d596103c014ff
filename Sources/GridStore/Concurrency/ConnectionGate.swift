import Synchronization

/// The lock that gives one thread at a time a database connection, and knows which thread
/// holds it and for what: so a call made from inside another call's closure on the same
/// connection (an `update {}` that reads or changes another grid of the same database) joins
/// the running transaction, or is refused with ``GridError/reentrantCall``, instead of trapping
/// on a lock its own thread holds.
package final class ConnectionGate: Sendable {
    /// What the holder does with the connection.
    package enum Use: Int, Sendable {
        case read = 1, write = 2
    }

    private let lock = PlatformLock()
    private let owner = Atomic<UInt>(0)
    private let use = Atomic<Int>(0)

    package init() {}

    /// How the calling thread holds the gate, or `nil` when it does not.
    package var heldByCurrentThread: Use? {
        owner.load(ordering: .acquiring) == Platform.currentThread ? Use(rawValue: use.load(ordering: .relaxed)) : nil
    }

    /// Runs `body` holding the gate for `use`, waiting for it if another thread holds it.
    package func withLock<T>(for use: Use, _ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try holding(use, body)
    }

    /// Runs `body` holding the gate for `use` if no thread holds it; `nil` without running it otherwise.
    package func withLockIfAvailable<T>(for use: Use, _ body: () throws -> T) throws -> T? {
        guard lock.tryLock() else { return nil }
        defer { lock.unlock() }
        return try holding(use, body)
    }

    private func holding<T>(_ use: Use, _ body: () throws -> T) throws -> T {
        self.use.store(use.rawValue, ordering: .relaxed)
        owner.store(Platform.currentThread, ordering: .releasing)
        defer { owner.store(0, ordering: .releasing) }
        return try body()
    }
}
