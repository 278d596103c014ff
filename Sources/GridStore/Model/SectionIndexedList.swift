/// Values kept by section index in a list of optionals, grown as sections are reached: what a
/// change keeps for the sections it touched (``GridChanges``, ``GridChangeSet``). A list, not a
/// dictionary: a process's first `[Int: …]` makes the Swift runtime search the binary's
/// conformance records for `Int: Hashable`, 160,000 instructions of every `gridstore toggle`.
extension Array {
    /// Sets the value of `section`, growing the list with `nil`s to reach it.
    ///
    /// Appended one by one: `append(contentsOf: repeatElement(…))` costs the process a search of
    /// the runtime's conformance records the first time.
    mutating func setValue<Value>(_ value: Value, ofSection section: Int) where Element == Value? {
        precondition(section >= 0, "section \(section) recorded as changed: the editor checks every path first")
        while count <= section { append(nil) }
        self[section] = value
    }

    /// The value of `section`, `nil` when none was set.
    func value<Value>(ofSection section: Int) -> Value? where Element == Value? {
        section >= 0 && section < count ? self[section] : nil
    }
}
