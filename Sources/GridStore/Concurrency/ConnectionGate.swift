/// The lock that gives one call at a time a database connection.
///
/// Which call holds it is not asked of the lock: a call made inside another's closure is found
/// by what the running call holds (``CallScope``), and refused before it reaches the lock.
package final class ConnectionGate: Sendable {
    private let lock = PlatformLock()

    package init() {}

    /// Runs `body` holding the gate, waiting for it if another call holds it.
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Runs `body` holding the gate if no call holds it; `nil` without running it otherwise.
    package func withLockIfAvailable<T>(_ body: () throws -> T) rethrows -> T? {
        guard lock.tryLock() else { return nil }
        defer { lock.unlock() }
        return try body()
    }
}
