/// Who makes the changes of this process, as history entries record it: `ada (pid 4121)`.
enum HistoryActor {
    /// The user this process runs as, and its process id.
    static let current: String = {
        let user = Platform.user()
        var name = "uid \(user.id)"
        // A name from the password database is shown as it is only when it is plain text.
        if let text = user.name, !text.isEmpty, !text.unicodeScalars.contains(where: GridLimits.isControlCharacter) { name = text }
        return "\(name) (pid \(Platform.processID))"
    }()
}

/// The time a change is recorded at, as the database writes it: ISO 8601, UTC, milliseconds.
enum HistoryClock {
    /// Now: `2026-11-30T11:32:01.123Z`.
    static func now() -> String {
        let now = Platform.utcNow()
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(now.year, 4))-\(padded(now.month, 2))-\(padded(now.day, 2))T"
            + "\(padded(now.hour, 2)):\(padded(now.minute, 2)):\(padded(now.second, 2)).\(padded(now.millisecond, 3))Z"
    }
}
