import GridStore
import GridStorePostgreSQL
import GridStoreSQLite

/// A database the command line names, for `--db`, `$GRIDSTORE_DB` and `copy`'s databases: the
/// one place it tells a PostgreSQL server from an SQLite file, and opens either.
///
/// `postgresql://…` and `postgres://…` are PostgreSQL connection URIs. Anything else shaped
/// like a URI, a scheme and a colon followed by `//` (`pg://x/y`, `mysql://u@h/db`), or the colon
/// of a scheme a URI is known by (`postgres:/layouts`, `file:x`, `sqlite:grids.db`), is refused
/// with a suggestion rather than becoming a file named after the text; a file whose name really
/// looks like that is given as `./name`. Every other text is a file path, colons and all
/// (`backup-2026-12-01T10:30:00.sqlite`).
struct DatabaseArgument {
    /// The location as given: a file path or a connection URI.
    let location: String
    /// The server, when the location is a PostgreSQL connection URI.
    let server: PostgreSQLLocation?

    /// The database `location` names.
    ///
    /// - Parameter source: Where it came from, as the message names it (`--db`, `$GRIDSTORE_DB`).
    /// - Throws: Unless `location` is a PostgreSQL URI or a path that is not shaped like a URI.
    init(_ location: String, from source: String, command: CommandSpec?) throws(CommandLineError) {
        self.location = location
        server = PostgreSQLLocation(location)
        if server == nil { try Self.validate(path: location, from: source, command: command) }
    }

    /// Whether the database is there: a server always counts as there; a file must exist.
    ///
    /// - Throws: ``DatabaseFileError/isDirectory(path:)`` when the path is a folder.
    func exists() throws -> Bool {
        try server != nil || GridDatabase.exists(at: location)
    }

    /// Opens the database; a missing file is created unless `applyingMigrations` is `false`.
    func open(applyingMigrations: Bool = true) throws -> GridDatabase {
        if server != nil { return try GridDatabase(postgreSQL: location, applyingMigrations: applyingMigrations) }
        return try GridDatabase(path: location, applyingMigrations: applyingMigrations)
    }

    /// gridstore's own migrations for this kind of database.
    var knownMigrations: MigrationSet { server == nil ? .gridStore : .gridStorePostgreSQL }

    /// The location as messages show it: a URI without its password.
    var displayName: String { server?.displayName ?? location }

    /// Throws when `location`, which is not a PostgreSQL URI, is shaped like some URI.
    private static func validate(path location: String, from source: String, command: CommandSpec?) throws(CommandLineError) {
        guard let scheme = scheme(of: location) else { return }
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
