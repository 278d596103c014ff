import Synchronization

/// What the running call holds: the schedulers of the connections it uses, and the storages it
/// uses them for, innermost first.
///
/// A task-local value, bound for the length of a call's turn on a connection: it follows the
/// call's task wherever it runs, and a synchronous call outside any task keeps it for its thread.
/// So a call made from inside another's closure is recognised by what its caller holds, never
/// by which thread it runs on, and refused with ``GridError/reentrantCall`` before it could wait
/// for itself or silently join a transaction it was not handed. A task started inside the
/// closure inherits the scope; once the turn ends, the scope no longer counts there.
package final class CallScope: Sendable {
    /// The scheduler (or pool) whose turn the call holds.
    private let scheduler: ObjectIdentifier
    /// The storage it holds the turn for.
    private let storage: ObjectIdentifier
    /// What the calls around this one hold.
    private let outer: CallScope?
    /// Whether the turn still runs: a task started inside it keeps the scope after.
    private let isActive = Atomic(true)

    private init(scheduler: ObjectIdentifier, storage: ObjectIdentifier, outer: CallScope?) {
        self.scheduler = scheduler
        self.storage = storage
        self.outer = outer
    }

    /// What the running call holds, innermost first.
    @TaskLocal private static var current: CallScope?

    /// Whether the running call holds `owner`: a scheduler, or a storage it holds one for.
    package static func holds(_ owner: AnyObject) -> Bool {
        let identifier = ObjectIdentifier(owner)
        var scope = current
        while let held = scope {
            if (held.scheduler == identifier || held.storage == identifier) && held.isActive.load(ordering: .acquiring) { return true }
            scope = held.outer
        }
        return false
    }

    /// What the running call holds, for work it starts on a thread of its own (``adopting(_:_:)``).
    package static var held: CallScope? { current }

    /// Runs `body` holding what `scope` holds: work a call runs on another thread is refused
    /// what the call itself would be.
    package static func adopting<T>(_ scope: CallScope?, _ body: () throws -> T) rethrows -> T {
        try $current.withValue(scope, operation: body)
    }

    /// Runs `body` holding `scheduler`'s turn for `storage`.
    package static func holding<T>(_ scheduler: AnyObject, _ storage: AnyObject, _ body: () throws -> T) rethrows -> T {
        let scope = CallScope(scheduler: ObjectIdentifier(scheduler), storage: ObjectIdentifier(storage), outer: current)
        defer { scope.isActive.store(false, ordering: .releasing) }
        return try $current.withValue(scope, operation: body)
    }

    /// Throws ``GridError/reentrantCall`` when the running call holds `scheduler` or `storage`:
    /// a call inside another's closure on the same connection or database, which would wait for
    /// itself or join a transaction it was not handed.
    package static func refuseNested(in scheduler: AnyObject, _ storage: AnyObject) throws(GridError) {
        if holds(scheduler) || holds(storage) { throw .reentrantCall }
    }
}
