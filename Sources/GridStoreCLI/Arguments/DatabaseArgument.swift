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

    /// Opens the database; a missing file is created unless `applyingMigrations` is `false`,
    /// with `creatingOnFirstChange` by the first change that commits.
    func open(applyingMigrations: Bool = true, creatingOnFirstChange: Bool = false) throws -> GridDatabase {
        if server != nil { return try GridDatabase(postgreSQL: location, applyingMigrations: applyingMigrations) }
        if applyingMigrations && creatingOnFirstChange { return try GridDatabase(path: location, creatingOnFirstChange: true) }
        return try GridDatabase(path: location, applyingMigrations: applyingMigrations)
    }

    /// Opens the existing database to read only: it is not created, migrated or written.
    ///
    /// - Throws: ``CommandLineError`` (exit 1) when its schema is older than this gridstore
    ///   reads, saying how to migrate it; what ``GridDatabase`` throws otherwise.
    func openReadingOnly() throws -> GridDatabase {
        do {
            if server != nil { return try GridDatabase(readingOnlyPostgreSQL: location) }
            return try GridDatabase(readingOnly: location)
        } catch MigrationError.readOnly {
            throw CommandLineError.failure("\(displayName) is at an older schema, and a dry run migrates nothing; run "
                                           + "'gridstore --db \(ShellWord.quoted(location)) migrate' first")
        }
    }

    /// gridstore's own migrations for this kind of database.
    var knownMigrations: MigrationSet { server == nil ? .gridStore : .gridStorePostgreSQL }

    /// The location as messages show it: a URI without its password.
    var displayName: String { server?.displayName ?? location }

    /// Throws when `location`, which is not a PostgreSQL URI, is shaped like some URI.
    private static func validate(path location: String, from source: String, command: CommandSpec?) throws(CommandLineError) {
        guard let scheme = scheme(of: location) else { return }
        var rest = location.dropFirst(scheme.count + 1)
        guard rest.hasPrefix("//") || knownSchemes.contains(scheme.lowercased()) || scheme.lowercased().hasPrefix("postgres") else {
            return
        }
        // Shown without a password, as a URI of any scheme may carry one (`pg://app:secret@db/x`).
        let location = withoutPassword(location)
        rest = location.dropFirst(scheme.count + 1)
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

    /// `text` with the password of a URI's user information (`//user:password@host`) and the
    /// value of each `password=` parameter as `***`.
    static func withoutPassword(_ text: String) -> String {
        var bytes = Array(text.utf8)
        let stars = Array("***".utf8)
        func starts(_ word: String, at index: Int) -> Bool {
            let word = Array(word.utf8)
            guard index + word.count <= bytes.count else { return false }
            // ASCII letters of `word` match either case.
            return zip(bytes[index..<(index + word.count)], word).allSatisfy { $0 == $1 || $0 | 0x20 == $1 }
        }
        if let slashes = bytes.indices.first(where: { starts("//", at: $0) }) {
            let start = slashes + 2
            let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
                ?? bytes.count
            if let at = bytes[start..<end].lastIndex(of: UInt8(ascii: "@")),
               let colon = bytes[start..<at].firstIndex(of: UInt8(ascii: ":")) {
                bytes.replaceSubrange((colon + 1)..<at, with: stars)
            }
        }
        var index = 0
        while index < bytes.count {
            if starts("password=", at: index) {
                let value = index + 9
                let end = bytes[value...].firstIndex { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "#") } ?? bytes.count
                bytes.replaceSubrange(value..<end, with: stars)
                index = value + stars.count
            } else {
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
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
