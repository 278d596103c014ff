import GridStore

/// A PostgreSQL database's change signal: a connection of its own that `LISTEN`s on
/// ``channel``, which every change of a grid notifies at its commit, whichever process or
/// server made it.
///
/// One per database, read by its one watch loop. Behind a pooler in transaction mode a
/// session's `LISTEN` would be lost with the server session, so there is none, and observers
/// poll (see ``PostgreSQLStorage/makeChangeSignal()``).
final class PostgreSQLChangeSignal: GridChangeSignal, @unchecked Sendable {
    // @unchecked: used by the one watch loop only.

    /// The channel gridstore's changes notify.
    static let channel = "gridstore_changes"

    private let connection: PostgreSQLConnection

    init(_ location: PostgreSQLLocation) throws {
        connection = try PostgreSQLConnection(location)
        try connection.execute("LISTEN \(Self.channel)")
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
