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

    /// Creates an error from its parts; `message` is folded onto one line.
    public init(sqlState: String?, message: String, server: String) {
        self.sqlState = sqlState
        self.message = PostgreSQLError.singleLine(message)
        self.server = server
    }

    public var description: String {
        if let sqlState {
            return "PostgreSQL server \(server): \(message) (SQLSTATE \(sqlState))"
        }
        return "cannot reach PostgreSQL server \(server): \(message)"
    }

    /// Whether the same transaction may simply be run again: a serialization failure or a deadlock.
    public var isTransient: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// Whether the connection to the server is gone (no SQLSTATE, or class 08, or an administrator shutdown).
    public var isConnectionFailure: Bool {
        guard let sqlState else { return true }
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
    /// A lock held past `lock_timeout` (SQLSTATE 55P03) is ``GridStorageFailure/Kind/busy``.
    package var storageFailureKind: GridStorageFailure.Kind {
        sqlState == "55P03" ? .busy : .database
    }
}
