/// A value shared between threads, reached only while holding its lock.
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched while `lock` is held.
    private let lock = PlatformLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&value) }
    }
}
