#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Who makes the changes of this process, as history entries record it: `ada (pid 4121)`.
enum HistoryActor {
    /// The user this process runs as, and its process id.
    static let current: String = {
        var name = "uid \(geteuid())"
        if let entry = getpwuid(geteuid()), let login = entry.pointee.pw_name {
            let text = String(cString: login)
            // A name from the password database is shown as it is only when it is plain text.
            if !text.isEmpty, !text.unicodeScalars.contains(where: GridLimits.isControlCharacter) { name = text }
        }
        return "\(name) (pid \(getpid()))"
    }()
}

/// The time a change is recorded at, as the database writes it: ISO 8601, UTC, milliseconds.
enum HistoryClock {
    /// Now: `2026-11-30T11:32:01.123Z`.
    static func now() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var seconds = time_t(time.tv_sec)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))T"
            + "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2)).\(padded(Int32(time.tv_nsec / 1_000_000), 3))Z"
    }
}
