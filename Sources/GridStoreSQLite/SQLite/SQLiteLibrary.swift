import CSQLite

/// Settings of the SQLite library that hold for a whole process.
package enum SQLiteLibrary {
    /// Turns off SQLite's count of the memory it holds, which takes a process-wide lock around
    /// every allocation and free. gridstore reads no such count and sets no heap limit (which
    /// needs one).
    ///
    /// For a process that owns its start-up, as the `gridstore` command does, before its first
    /// use of SQLite: an app that embeds gridstore keeps its own configuration. Does nothing
    /// once SQLite has initialized.
    package static func turnOffMemoryStatistics() {
        _ = csqlite_config_memory_statistics(0)
    }
}
