import GridStore

/// A failure reported by a PostgreSQL server or by libpq, printed as one line.
///
/// Server errors carry the SQLSTATE code (`40001` for a serialization failure, `40P01` for a
/// deadlock, `23505` for a unique violation, class `08` for connection failures), so callers
/// can tell what to retry.
public struct PostgreSQLError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The five-character SQLSTATE, or `nil` when libpq failed without one (the server is unreachable).
    public let sqlState: String?
    /// The primary message, on one line.
    public let message: String
    /// The server, as ``PostgreSQLLocation/displayName`` writes it: never with a password.
    public let server: String

    /// Whether libpq refused the connection URI itself (a misspelt parameter, a value it does
    /// not know) before trying any server.
    public let isInvalidLocation: Bool

    /// Creates an error from its parts; `message` is folded onto one line.
    public init(sqlState: String?, message: String, server: String) {
        self.init(sqlState: sqlState, message: message, server: server, isInvalidLocation: false)
    }

    init(sqlState: String?, message: String, server: String, isInvalidLocation: Bool) {
        self.sqlState = sqlState
        self.message = PostgreSQLError.singleLine(message)
        self.server = server
        self.isInvalidLocation = isInvalidLocation
    }

    /// libpq refused the connection URI `server` before trying a server.
    static func invalidLocation(_ message: String, server: String) -> PostgreSQLError {
        PostgreSQLError(sqlState: nil, message: message, server: server, isInvalidLocation: true)
    }

    public var description: String {
        if isReadOnly {
            return "PostgreSQL server \(server) is read-only (a hot standby, or a read-only database): "
                + "changes go to the primary (\(message); SQLSTATE 25006)"
        }
        if isLostPreparedStatement {
            return "PostgreSQL server \(server): \(message) (SQLSTATE \(sqlState!)): the server session changed between "
                + "transactions, as behind a pooler in transaction mode; add pool_mode=transaction to the URI"
        }
        if let sqlState {
            return "PostgreSQL server \(server): \(message) (SQLSTATE \(sqlState))"
        }
        if isInvalidLocation {
            return "the PostgreSQL connection URI \(server) is not one libpq accepts: \(message) "
                + "(the parameters are listed in libpq's documentation, \"Parameter Key Words\")"
        }
        return "cannot reach PostgreSQL server \(server): \(message)"
    }

    /// Whether the server refused a write because it is read-only (SQLSTATE 25006): a hot standby.
    public var isReadOnly: Bool { sqlState == "25006" }

    /// Whether a statement gridstore prepared was missing, or its name taken, on the server
    /// session (SQLSTATE 26000 or 42P05): the session is not the one it was prepared on.
    public var isLostPreparedStatement: Bool {
        (sqlState == "26000" || sqlState == "42P05") && message.contains("gridstore_")
    }

    /// Whether the same transaction may simply be run again: a serialization failure or a deadlock.
    public var isTransient: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// Whether the connection to the server is gone (no SQLSTATE, or class 08, or an administrator shutdown).
    public var isConnectionFailure: Bool {
        guard let sqlState else { return !isInvalidLocation }
        return sqlState.hasPrefix("08") || sqlState == "57P01" || sqlState == "57P02" || sqlState == "57P03"
    }

    /// libpq's messages span lines (a hint after a tab); an error is printed on one.
    static func singleLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingPrefix(while: \.isWhitespace) }
            .filter { !$0.isEmpty }
            .joined(separator: "; ")
    }
}

extension PostgreSQLError: StorageFailureDescribing {
    /// A lock held past `lock_timeout` (SQLSTATE 55P03) is ``GridStorageFailure/Kind/busy``; a
    /// server that cannot be reached, or a connection lost before `COMMIT` was sent, is
    /// ``GridStorageFailure/Kind/unreachable``; a connection lost while committing (SQLSTATE
    /// 08007, transaction resolution unknown) is not: the change may have been applied.
    package var storageFailureKind: GridStorageFailure.Kind {
        if sqlState == "55P03" { return .busy }
        if isConnectionFailure && sqlState != "08007" { return .unreachable }
        return .database
    }
}
