import GridStorePostgreSQL

/// The one place the command line tells a server from a file, for `--db`, `$GRIDSTORE_DB`
/// and `copy`'s databases.
///
/// `postgresql://…` and `postgres://…` are PostgreSQL connection URIs. Anything else shaped
/// like a URI, a scheme and a colon followed by `//` (`pg://x/y`, `mysql://u@h/db`), or the colon
/// of a scheme a URI is known by (`postgres:/layouts`, `file:x`, `sqlite:grids.db`), is refused
/// with a suggestion rather than becoming a file named after the text; a file whose name really
/// looks like that is given as `./name`. Every other text is a file path, colons and all
/// (`backup-2026-12-01T10:30:00.sqlite`).
enum DatabaseArgument {
    /// Throws unless `location` is a PostgreSQL URI or a path that is not shaped like a URI.
    ///
    /// - Parameter source: Where it came from, as the message names it (`--db`, `$GRIDSTORE_DB`).
    static func validate(_ location: String, from source: String, command: CommandSpec?) throws(CommandLineError) {
        guard PostgreSQLLocation(location) == nil, let scheme = scheme(of: location) else { return }
        let rest = location.dropFirst(scheme.count + 1)
        guard rest.hasPrefix("//") || knownSchemes.contains(scheme.lowercased()) || scheme.lowercased().hasPrefix("postgres") else {
            return
        }
        let shown = "\(source) '\(CommandLineOutput.printable(location))'"
        // A path with a `/` after the scheme names folders: the hint is for a plain file name.
        let file = rest.contains("/") ? "a file path cannot start like a URI"
            : "a file of that name is './\(CommandLineOutput.printable(location))'"
        if Suggestion.closest(to: scheme, among: ["postgresql", "postgres"]) != nil || ["pg", "psql", "pgsql"].contains(scheme.lowercased())
            || scheme.lowercased().hasPrefix("postgres") {
            let suggested = "postgresql:" + (rest.hasPrefix("//") ? rest : "//" + rest)
            throw .usage("\(shown) is not a PostgreSQL URI; did you mean '\(CommandLineOutput.printable(suggested))'? (\(file))",
                         command: command)
        }
        throw .usage("\(shown) looks like a URI of scheme '\(CommandLineOutput.printable(scheme))', but gridstore keeps grids in "
                     + "SQLite files and on PostgreSQL servers (postgresql://…); \(file)", command: command)
    }

    /// Schemes a location is known to mean as a URI even without `//` after the colon.
    static let knownSchemes: Set<String> = ["postgres", "postgresql", "pg", "psql", "pgsql", "file", "sqlite", "sqlite3", "mysql",
                                            "mariadb", "http", "https", "redis", "mongodb", "jdbc"]

    /// The scheme `text` starts with, as RFC 3986 spells one (a letter, then letters, digits,
    /// `+`, `-` or `.`) before a colon; `nil` when it does not start with one.
    static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
              scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        return String(scheme)
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
