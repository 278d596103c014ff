/// A call that waited its whole limit behind this process's own earlier calls on the same
/// database, and gave up before it started: nothing of it was done.
///
/// gridstore serves a process's `async` calls on one connection in the order they arrive, each
/// waiting at most ``GridDatabase/queueWaitLimitMilliseconds``, and its writers of one SQLite
/// file in the order they arrive, each waiting at most SQLite's busy timeout. A
/// ``GridStorageFailure`` of kind ``GridStorageFailure/Kind/busy`` carries it: trying again
/// later may succeed, and fewer calls at once will.
package struct QueueWaitTimeout: Error, Sendable, CustomStringConvertible, StorageFailureDescribing {
    /// How long the call waited, in milliseconds.
    package var waitedMilliseconds: Int
    /// How long a call may wait, in milliseconds.
    package var limitMilliseconds: Int
    /// How many of this process's calls were ahead of it when it gave up.
    package var ahead: Int
    /// The database, as messages name it.
    package var location: String

    package init(waitedMilliseconds: Int, limitMilliseconds: Int, ahead: Int, location: String) {
        self.waitedMilliseconds = waitedMilliseconds
        self.limitMilliseconds = limitMilliseconds
        self.ahead = ahead
        self.location = location
    }

    package var storageFailureKind: GridStorageFailure.Kind { .busy }

    package var description: String {
        func seconds(_ milliseconds: Int) -> String { "\(milliseconds / 1_000).\(milliseconds % 1_000 / 100) s" }
        return "gave up after waiting \(seconds(waitedMilliseconds)) behind this process's \(ahead) earlier call(s) on \(location), "
            + "having done nothing (a call waits at most \(seconds(limitMilliseconds)) for this process's calls before it)"
    }
}
