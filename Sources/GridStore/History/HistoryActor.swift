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
