import GridStore

/// When the running operation of a connection must end, for SQLite's progress handler.
final class SQLiteOperationClock {
    /// The monotonic time, in milliseconds, after which statements are stopped; `.max` for never.
    var deadline = Int.max

    /// Whether the deadline has passed.
    var isPastDeadline: Bool { deadline != .max && Self.now() > deadline }

    /// A monotonic clock, in milliseconds.
    static func now() -> Int { Platform.monotonicMilliseconds() }
}
