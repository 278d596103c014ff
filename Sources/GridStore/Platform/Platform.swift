#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("unsupported platform")
#endif

/// The C library calls the engine makes, in one place: threads, clocks and who runs the process.
package enum Platform {
    /// A monotonic clock, in milliseconds.
    package static func monotonicMilliseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec * 1_000 + time.tv_nsec / 1_000_000
    }

    /// The wall clock: milliseconds since 1970 in UTC.
    package static func wallClockMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000 + Int64(time.tv_nsec / 1_000_000)
    }

    /// Sleeps the calling thread for `milliseconds`, whatever signals interrupt it.
    package static func sleep(milliseconds: Int) {
        var request = timespec(tv_sec: milliseconds / 1_000, tv_nsec: (milliseconds % 1_000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// The time of day in UTC, to the millisecond.
    package static func utcNow() -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var seconds = time_t(time.tv_sec)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min),
                Int(parts.tm_sec), Int(time.tv_nsec / 1_000_000))
    }

    /// The login name of the user the process runs as, from the password database, and its id.
    package static func user() -> (name: String?, id: UInt32) {
        let id = geteuid()
        guard let entry = getpwuid(id), let login = entry.pointee.pw_name else { return (nil, UInt32(id)) }
        return (String(cString: login), UInt32(id))
    }

    /// The machine's host name (`gethostname`); `nil` when it has none, or it is not UTF-8.
    package static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return bytes.isEmpty ? nil : String(validating: bytes, as: UTF8.self)
    }

    /// The process's id.
    package static var processID: Int32 { getpid() }

    /// A mark each thread has or has not, unset on every thread until set on it.
    package final class ThreadMark: Sendable {
        private let key: pthread_key_t

        package init() {
            var key = pthread_key_t()
            precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left")
            self.key = key
        }

        /// Whether the calling thread has the mark.
        package var isSet: Bool { pthread_getspecific(key) != nil }

        /// Sets or clears the mark on the calling thread.
        package func set(_ marked: Bool) {
            pthread_setspecific(key, marked ? UnsafeRawPointer(bitPattern: 1) : nil)
        }
    }

    /// Starts a detached thread running `body`; `false` when none could be made.
    @discardableResult
    package static func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
        final class Box: Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { context in
            #if canImport(Darwin)
            let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
            #else
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            #endif
            box.body()
            return nil
        }, context) == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}

/// A mutex with a condition, for the few places threads wait for each other.
///
/// A pthread mutex rather than Synchronization's `Mutex`: on Linux that one waits in a
/// priority-inheriting futex, whose handover ThreadSanitizer cannot see, so every contended
/// use of it was reported as a race, hiding real ones. CI runs the library's tests under
/// ThreadSanitizer.
package final class PlatformLock: @unchecked Sendable {
    // @unchecked: a pthread mutex and condition are made to be shared between threads.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        #if canImport(Darwin)
        pthread_cond_init(condition, nil)
        #else
        // Timed waits count on the monotonic clock, so a step of the wall clock neither
        // stretches nor cuts them.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        #endif
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Takes the lock, waiting for it.
    package func lock() { pthread_mutex_lock(mutex) }

    /// Takes the lock if no thread holds it.
    package func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    /// Gives the lock back.
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Gives the lock back until the condition is signalled or `milliseconds` pass (`nil`: no
    /// limit), then takes it again. Call it holding the lock, in a loop that checks what it waits for.
    ///
    /// - Returns: `false` when the time ran out.
    package func wait(milliseconds: Int? = nil) -> Bool {
        guard let milliseconds else { return pthread_cond_wait(condition, mutex) == 0 }
        var deadline = timespec()
        #if canImport(Darwin)
        clock_gettime(CLOCK_REALTIME, &deadline)
        #else
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        #endif
        deadline.tv_sec += milliseconds / 1_000
        deadline.tv_nsec += (milliseconds % 1_000) * 1_000_000
        if deadline.tv_nsec >= 1_000_000_000 { deadline.tv_sec += 1; deadline.tv_nsec -= 1_000_000_000 }
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    /// Wakes every thread waiting in ``wait(milliseconds:)``.
    package func broadcast() { pthread_cond_broadcast(condition) }
}
