#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("unsupported platform")
#endif
import GridStore

/// When the running operation of a connection must end, for SQLite's progress handler.
final class SQLiteOperationClock {
    /// The monotonic time, in milliseconds, after which statements are stopped; `.max` for never.
    var deadline = Int.max

    /// Whether the deadline has passed.
    var isPastDeadline: Bool { deadline != .max && Self.now() > deadline }

    /// A monotonic clock, in milliseconds.
    static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec * 1_000 + time.tv_nsec / 1_000_000
    }
}
