/// A PostgreSQL connection URI as the user gave it, and how to name it in messages.
///
/// The URI goes to libpq as it is, so everything libpq reads works as it does for `psql`:
/// `host=/socket/dir` and `port` query parameters, multiple hosts with
/// `target_session_attrs`, `sslmode`, `PGPASSWORD`, `~/.pgpass`, `PGHOST` and the other
/// environment variables for what the URI leaves out. The one parameter that is gridstore's
/// own, `pool_mode`, is taken out first (see ``PoolMode``).
public struct PostgreSQLLocation: Sendable, Hashable {
    /// How the server end of each connection is held, as a pooler in front of the server
    /// (PgBouncer's `pool_mode`) hands it out.
    public enum PoolMode: String, Sendable, Hashable {
        /// One server session per connection, for as long as the connection lasts: a server
        /// itself, or a pooler in session mode. Statements are prepared once per session.
        case session
        /// A server session per transaction (PgBouncer's `pool_mode = transaction`): nothing
        /// outlives a transaction, so no statement is prepared by name and the session's
        /// settings gridstore needs are set in every transaction (`SET LOCAL`).
        case transaction
    }

    /// The URI exactly as given.
    public let uri: String

    /// The URI libpq is given: ``uri`` without its `pool_mode` parameter.
    public let libpqURI: String

    /// The URI's `pool_mode` parameter (`session` unless it says `transaction`); `nil` when it
    /// names another mode, which ``GridDatabase/init(postgreSQL:connections:applyingMigrations:)`` refuses.
    public let poolMode: PoolMode?

    /// What the URI's `pool_mode` parameter says, as written: for the message that refuses it.
    public let poolModeText: String?

    /// Whether `text` is a PostgreSQL connection URI (`postgresql://…` or `postgres://…`)
    /// rather than a file path.
    public static func isConnectionURI(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// Wraps `uri`; `nil` unless it starts with `postgresql://` or `postgres://`.
    public init?(_ uri: String) {
        guard Self.isConnectionURI(uri) else { return nil }
        self.uri = uri
        var given: String?
        var rest = uri
        // The query starts at the first `?` after the user part, as libpq reads it: a password may hold a `?`.
        let afterScheme = uri.index(uri.startIndex, offsetBy: uri.hasPrefix("postgresql://") ? 13 : 11)
        let hostStart = uri[afterScheme...].firstIndex { $0 == "@" || $0 == "/" }
            .flatMap { uri[$0] == "@" ? uri.index(after: $0) : nil } ?? afterScheme
        if let query = uri[hostStart...].firstIndex(of: "?") {
            var kept: [Substring] = []
            for parameter in uri[uri.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false) {
                let name = Self.percentDecoded(String(parameter.prefix { $0 != "=" }))
                guard name == "pool_mode" else {
                    kept.append(parameter)
                    continue
                }
                given = Self.percentDecoded(String(parameter.drop { $0 != "=" }.dropFirst()))
            }
            rest = String(uri[..<query]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        }
        libpqURI = rest
        poolModeText = given
        poolMode = given.map { PoolMode(rawValue: $0) } ?? .session
    }

    /// The URI with any password removed (from the user part and from a `password=` parameter):
    /// what messages print.
    public var displayName: String { Self.displayName(of: uri) }

    private static func displayName(of uri: String) -> String {
        let scheme = uri.hasPrefix("postgresql://") ? "postgresql://" : "postgres://"
        var result = scheme
        let rest = uri.dropFirst(scheme.count)
        // The user part runs to the last `@`, so that a password with an unencoded `/`, `?` or
        // `@` in it is still left out.
        let authorityEnd = rest.lastIndex(of: "@").flatMap { at in rest[at...].firstIndex(where: { $0 == "/" || $0 == "?" }) }
            ?? rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            let user = authority[..<at]
            let name = user.firstIndex(of: ":").map { user[..<$0] } ?? user
            authority = Substring(name + authority[at...])
        }
        result += authority
        return maskingPasswordParameters(result + rest[authorityEnd...])
    }

    /// `text` with the value of every `password=` parameter replaced by `***`: any piece after a
    /// `?` or `&` whose name decodes to `password`, wherever the query seems to start (a user
    /// name or another parameter's value may hold an `@` or a `?`).
    static func maskingPasswordParameters(_ text: String) -> String {
        var output = ""
        var index = text.startIndex
        var atParameterStart = false
        while index < text.endIndex {
            if atParameterStart, let equals = text[index...].firstIndex(where: { $0 == "=" || $0 == "&" || $0 == "?" }),
               text[equals] == "=", percentDecoded(String(text[index..<equals])).lowercased() == "password" {
                output += text[index...equals] + "***"
                index = text[equals...].firstIndex(of: "&") ?? text.endIndex
                atParameterStart = false
                continue
            }
            let character = text[index]
            output.append(character)
            atParameterStart = character == "?" || character == "&"
            index = text.index(after: index)
        }
        return output
    }

    /// The URI's passwords, as written and percent-decoded: the user part's and any `password=`
    /// parameter's, found even in a URI too malformed for libpq to read.
    var secrets: [String] {
        let scheme = uri.hasPrefix("postgresql://") ? "postgresql://" : "postgres://"
        let rest = uri.dropFirst(scheme.count)
        var found: [String] = []
        // The user part ends at an `@`: the first one before a `/` as libpq reads it, or the last
        // one before the query, for a password with an unencoded `/`, `?` or `@` in it.
        let authority = rest[..<(rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex)]
        for user in [authority.firstIndex(of: "@").map { authority[..<$0] }, rest.lastIndex(of: "@").map { rest[..<$0] }] {
            if let user, let colon = user.firstIndex(of: ":") { found.append(String(user[user.index(after: colon)...])) }
        }
        if let query = rest.firstIndex(of: "?") {
            for parameter in rest[rest.index(after: query)...].split(separator: "&") {
                // libpq decodes a parameter's name too: `pass%77ord=` is a password.
                let name = Self.percentDecoded(String(parameter.prefix { $0 != "=" })).lowercased()
                if name == "password", let equals = parameter.firstIndex(of: "=") {
                    found.append(String(parameter[parameter.index(after: equals)...]))
                }
            }
        }
        return (found + found.map(Self.percentDecoded)).filter { !$0.isEmpty }
    }

    /// `text` with each `%XX` replaced by its byte; a malformed escape is kept as it is.
    static func percentDecoded(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        var index = 0
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 48...57: byte - 48
            case 65...70: byte - 55
            case 97...102: byte - 87
            default: nil
            }
        }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) {
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `message` (libpq's, which may quote the URI or a piece of it) with no password left in
    /// it: the URI is replaced by ``displayName``, and a quoted piece that holds a password by
    /// `"***"`, as is any other occurrence of a password of four characters or more.
    public func redacting(_ message: String) -> String {
        // libpq quotes the URI it was given, without pool_mode.
        var text = message.replacing(libpqURI, with: Self.displayName(of: libpqURI))
        let secrets = self.secrets
        guard !secrets.isEmpty else { return text }
        let pieces = text.split(separator: "\"", omittingEmptySubsequences: false)
        // A quoted piece that holds a password, or four characters of one (libpq may quote a token
        // that starts inside it).
        func holdsSecret(_ piece: Substring) -> Bool {
            secrets.contains { secret in
                let characters = Array(secret), window = min(4, characters.count)
                return (0...(characters.count - window)).contains { piece.contains(String(characters[$0..<($0 + window)])) }
            }
        }
        text = pieces.enumerated().map { index, piece in
            index % 2 == 1 && index < pieces.count - 1 && holdsSecret(piece) ? "***" : String(piece)
        }.joined(separator: "\"")
        for secret in secrets where secret.count >= 4 { text = text.replacing(secret, with: "***") }
        return text
    }
}
