import GridLayout
import GridStore

extension GridDatabase {
    /// The content grid `name` holds, read as ``Grid/storedSnapshot()`` reads it; fails when the
    /// database has no such grid (it makes none). The sync suites compare replicas with it.
    public func content(of name: String = "default") throws -> GridContent {
        try Grid(named: name, in: self, creatingWith: nil).storedSnapshot().content
    }
}
