/// A backend's signal that its database may have changed, shared by every observer of one
/// ``GridDatabase`` (see ``DatabaseChangeWatch``): on SQLite the file's `data_version`, on
/// PostgreSQL a `LISTEN` connection that each change notifies.
///
/// A signal may fire when nothing an observer sees changed (another table, a grid no one
/// observes); it must fire for every committed change of a grid, by any process.
package protocol GridChangeSignal: AnyObject, Sendable {
    /// Waits until the database may have changed since the last call returned (or since the
    /// signal was made), at most `milliseconds`.
    ///
    /// - Returns: Whether it may have changed; `false` when the time ran out first.
    /// - Throws: When the signal broke (a lost connection); a new one is then made.
    func waitForChange(milliseconds: Int) throws -> Bool
}
