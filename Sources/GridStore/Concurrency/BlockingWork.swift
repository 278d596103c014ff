#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Runs blocking database work (SQLite waiting for a lock, a PostgreSQL round trip) on a
/// thread of gridstore's own, so an `async` caller never holds one of Swift's cooperative
/// threads while it waits: the app's other tasks keep running.
package enum BlockingWork {
    private static let running = Atomic(0)

    /// How many pieces of work are running now, for tests and diagnostics.
    package static var waiting: Int { running.load(ordering: .relaxed) }

    /// The result of `body`, run on a new thread while the caller is suspended.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let work = Work {
                running.add(1, ordering: .relaxed)
                let result = Result { try body() }
                running.subtract(1, ordering: .relaxed)
                continuation.resume(with: result)
            }
            if !work.start() {
                // No thread could be made (the process is at its limit): run here rather than fail.
                work.body()
            }
        }
    }

    /// One piece of work and the thread it runs on.
    private final class Work: Sendable {
        let body: @Sendable () -> Void

        init(_ body: @escaping @Sendable () -> Void) { self.body = body }

        /// Starts a detached thread running `body`; `false` when none could be made.
        func start() -> Bool {
            let context = Unmanaged.passRetained(self).toOpaque()
            var thread = pthread_t()
            guard pthread_create(&thread, nil, { context in
                #if canImport(Darwin)
                let work = Unmanaged<Work>.fromOpaque(context).takeRetainedValue()
                #else
                let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
                #endif
                work.body()
                return nil
            }, context) == 0 else {
                Unmanaged<Work>.fromOpaque(context).release()
                return false
            }
            pthread_detach(thread)
            return true
        }
    }
}
