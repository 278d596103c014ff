/// Tells an error an app's closure threw from the engine's own failures, so that a call which
/// runs the closure passes the closure's errors through as they are, and makes every other
/// failure a ``GridError``.
final class ThrownByBody {
    /// What the closure threw in its last run; `nil` when it returned.
    private var thrown: (any Error)?

    /// Whether the closure threw in its last run.
    var threw: Bool { thrown != nil }

    /// Runs the closure, remembering what it throws. A backend may run it again (a retried
    /// transaction): only the last run counts.
    func run<T>(_ body: () throws -> T) throws -> T {
        thrown = nil
        do {
            return try body()
        } catch {
            thrown = error
            throw error
        }
    }

    /// What the call throws for `error`: the closure's own error, a ``GridError``, or any other
    /// failure as ``GridError/storage(_:)``.
    func translated(_ error: any Error) -> any Error {
        if let thrown { return thrown }
        if error is GridError { return error }
        return GridError.storage(GridStorageFailure(error))
    }
}
