/// A PostgreSQL connection URI as the user gave it, and how to name it in messages.
///
/// The URI goes to libpq untouched, so everything libpq reads works as it does for `psql`:
/// `host=/socket/dir` and `port` query parameters, `sslmode`, `PGPASSWORD`, `~/.pgpass`,
/// `PGHOST` and the other environment variables for what the URI leaves out.
public struct PostgreSQLLocation: Sendable, Hashable {
    /// The URI exactly as given.
    public let uri: String

    /// Whether `text` is a PostgreSQL connection URI (`postgresql://…` or `postgres://…`)
    /// rather than a file path.
    public static func isConnectionURI(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// Wraps `uri`; `nil` unless it starts with `postgresql://` or `postgres://`.
    public init?(_ uri: String) {
        guard Self.isConnectionURI(uri) else { return nil }
        self.uri = uri
    }

    /// The URI with any password removed (from the user part and from a `password=` parameter):
    /// what messages print.
    public var displayName: String {
        let scheme = uri.hasPrefix("postgresql://") ? "postgresql://" : "postgres://"
        var result = scheme
        let rest = uri.dropFirst(scheme.count)
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            let user = authority[..<at]
            let name = user.firstIndex(of: ":").map { user[..<$0] } ?? user
            authority = Substring(name + authority[at...])
        }
        result += authority
        let tail = rest[authorityEnd...]
        guard let query = tail.firstIndex(of: "?") else { return result + tail }
        result += tail[...query]
        let parameters = tail[tail.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false).map { parameter in
            parameter.hasPrefix("password=") ? "password=***" : String(parameter)
        }
        return result + parameters.joined(separator: "&")
    }
}
