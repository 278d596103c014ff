import GridStore

/// A PostgreSQL database's change signal: a connection of its own that `LISTEN`s on
/// ``channel``, which every change of a grid notifies at its commit while anyone listens,
/// whichever process or server made it.
///
/// PostgreSQL serializes the commits of every transaction that notifies, cluster-wide, so a
/// change notifies only while a listener holds the shared advisory lock ``listenersKey``.
/// Each change holds ``writersKey`` shared until it commits, and a listener takes it alone,
/// for the transaction in which it starts to listen and takes ``listenersKey``: a change that
/// found no listener has committed before the listener starts, so the listener's first read
/// sees it. The listener waits at most ``writersWaitMilliseconds`` for the changes in flight,
/// as new changes wait behind it; past that it fails, and the watch tries again later while its
/// observers read on their own.
///
/// One per database, read by its one watch loop. Behind a pooler in transaction mode a
/// session's `LISTEN` would be lost with the server session, so there is none, and observers
/// poll (see ``PostgreSQLStorage/makeChangeSignal()``).
final class PostgreSQLChangeSignal: GridChangeSignal, @unchecked Sendable {
    // @unchecked: used by the one watch loop only.

    /// The channel gridstore's changes notify.
    static let channel = "gridstore_changes"

    /// The advisory lock every change holds shared until it commits ("gridstor" in ASCII).
    static let writersKey: Int64 = 0x6772_6964_7374_6F72
    /// The advisory lock every listener holds shared while it listens.
    static let listenersKey: Int64 = writersKey + 1

    /// What a change runs before it commits: the writers' lock, then a notification when a
    /// listener holds its lock (tried alone and released at once, in that order).
    static let notifyWhenListened = [
        "SELECT pg_advisory_xact_lock_shared(\(writersKey))",
        "SELECT pg_notify('\(channel)', '') WHERE CASE WHEN pg_try_advisory_lock(\(listenersKey)) "
            + "THEN NOT pg_advisory_unlock(\(listenersKey)) ELSE true END",
    ]

    private let connection: PostgreSQLConnection

    /// The longest a listener waits for the changes in flight when it starts.
    static let writersWaitMilliseconds = 250

    /// Listens, once every change in progress has committed.
    ///
    /// - Throws: ``PostgreSQLError`` when the changes in flight hold the writers' lock past
    ///   ``writersWaitMilliseconds``, or the server refuses.
    init(_ location: PostgreSQLLocation) throws {
        connection = try PostgreSQLConnection(location)
        // One transaction, so one server session even behind a pooler: the writers' lock ends
        // with it, whatever fails; LISTEN takes effect at its commit.
        try connection.executeScript("BEGIN; SET LOCAL lock_timeout = \(Self.writersWaitMilliseconds); LISTEN \(Self.channel); "
                                     + "SELECT pg_advisory_xact_lock(\(Self.writersKey)); "
                                     + "SELECT pg_advisory_lock_shared(\(Self.listenersKey)); COMMIT")
    }

    func waitForChange(milliseconds: Int) throws -> Bool {
        try connection.waitForNotification(milliseconds: milliseconds)
    }
}

extension PostgreSQLStorage {
    package func makeChangeSignal() throws -> (any GridChangeSignal)? {
        guard pool.location.poolMode == .session else { return nil }
        return try PostgreSQLChangeSignal(pool.location)
    }
}
