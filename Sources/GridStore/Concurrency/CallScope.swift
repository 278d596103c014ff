import Synchronization

/// What the running call holds: the databases (or writer queues, or connections) whose
/// transaction it is inside, innermost first.
///
/// A task-local value, bound for the length of a transaction: it follows the call's task
/// wherever it runs, and a synchronous call outside any task keeps it for its thread. So a
/// call made from inside another's closure is recognised by what its caller holds, never by
/// which thread it runs on, and refused with ``GridError/reentrantCall`` before it could wait
/// for itself or silently join a transaction it was not handed. A task started inside the
/// closure inherits the scope; once the transaction ends, the scope no longer counts there.
package final class CallScope: Sendable {
    /// The holder: a backend or a writer queue.
    private let owner: ObjectIdentifier
    /// What the calls around this one hold.
    private let outer: CallScope?
    /// Whether the transaction still runs: a task started inside it keeps the scope after.
    private let isActive = Atomic(true)

    private init(owner: ObjectIdentifier, outer: CallScope?) {
        self.owner = owner
        self.outer = outer
    }

    /// What the running call holds, innermost first.
    @TaskLocal private static var current: CallScope?

    /// Whether the running call holds `owner`.
    package static func holds(_ owner: AnyObject) -> Bool {
        let identifier = ObjectIdentifier(owner)
        var scope = current
        while let held = scope {
            if held.owner == identifier && held.isActive.load(ordering: .acquiring) { return true }
            scope = held.outer
        }
        return false
    }

    /// Runs `body` holding `owner`.
    package static func holding<T>(_ owner: AnyObject, _ body: () throws -> T) rethrows -> T {
        let scope = CallScope(owner: ObjectIdentifier(owner), outer: current)
        defer { scope.isActive.store(false, ordering: .releasing) }
        return try $current.withValue(scope, operation: body)
    }

    /// Throws ``GridError/reentrantCall`` when the running call holds `owner`: a call inside
    /// another's closure on the same database, which would wait for itself or join a
    /// transaction it was not handed.
    package static func refuseNested(in owner: AnyObject) throws(GridError) {
        if holds(owner) { throw .reentrantCall }
    }
}
