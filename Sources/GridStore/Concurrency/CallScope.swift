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
    /// What a call holds something for.
    package enum Use: Sendable {
        case read, write
    }

    /// The holder: a backend, a writer queue or a connection pool.
    private let owner: ObjectIdentifier
    /// What it is held for.
    private let use: Use
    /// What the calls around this one hold.
    private let outer: CallScope?
    /// Whether the transaction still runs: a task started inside it keeps the scope after.
    private let isActive = Atomic(true)

    private init(owner: ObjectIdentifier, use: Use, outer: CallScope?) {
        self.owner = owner
        self.use = use
        self.outer = outer
    }

    /// What the running call holds, innermost first.
    @TaskLocal private static var current: CallScope?

    /// What the running call holds `owner` for, if it holds it.
    package static func use(of owner: AnyObject) -> Use? {
        let identifier = ObjectIdentifier(owner)
        var scope = current
        while let held = scope {
            if held.owner == identifier && held.isActive.load(ordering: .acquiring) { return held.use }
            scope = held.outer
        }
        return nil
    }

    /// Whether the running call holds `owner` for anything.
    package static func holds(_ owner: AnyObject) -> Bool {
        use(of: owner) != nil
    }

    /// Runs `body` holding `owner` for `use`.
    package static func holding<T>(_ owner: AnyObject, for use: Use, _ body: () throws -> T) rethrows -> T {
        let scope = CallScope(owner: ObjectIdentifier(owner), use: use, outer: current)
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
