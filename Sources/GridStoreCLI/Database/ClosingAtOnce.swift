import Dispatch
import GridStore

extension GridDatabase {
    /// Closes `databases` at once, each on a thread of its own, and returns when every one is
    /// closed. Closing a SQLite file moves its write-ahead log into it and waits for the disk
    /// twice (the file written through, the log emptied); a command done with two files has
    /// them wait together rather than one after the other.
    static func closeAtOnce(_ databases: [GridDatabase]) {
        DispatchQueue.concurrentPerform(iterations: databases.count) { index in
            // Throws only inside a call on the database, which a command has none of here.
            try? databases[index].close()
        }
    }
}
