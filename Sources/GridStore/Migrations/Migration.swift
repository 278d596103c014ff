import MigrationText

/// One schema migration: an SQL file named `NNNN_short_name.sql`.
///
/// Migrations are identified by their version number and verified by the
/// SHA-256 checksum of their text with line endings normalised to `\n`, so a
/// file checked out with Windows line endings keeps its checksum.
public struct Migration: Sendable, Hashable {
    /// The version number: the file name's leading digits.
    public let version: Int

    /// The short name: the file name between the version and `.sql`.
    public let name: String

    /// The SQL text, exactly as in the file.
    public let sql: String

    /// The SHA-256 of ``sql`` with `\r\n` and `\r` replaced by `\n`, as 64 hexadecimal digits.
    public let checksum: String

    /// For gridstore's own SQLite migrations, every schema object that exists once this
    /// migration and those before it are applied, with its SQL as SQLite keeps it (recorded at
    /// build time); `nil` for migrations read at run time.
    package var schemaAfter: [SchemaObject]? { recordedSchema?() }

    /// Builds ``schemaAfter`` when asked: a process checks one migration's schema, so it does
    /// not build the other migrations' objects at start-up.
    private let recordedSchema: (@Sendable () -> [SchemaObject])?

    /// Whether ``schemaAfter`` was recorded at build time, without building it.
    package var hasRecordedSchema: Bool { recordedSchema != nil }

    /// Creates a migration from a file name of the form `NNNN_short_name.sql` and its text.
    ///
    /// - Throws: ``MigrationError/invalidFileName(_:)`` for any other name.
    public init(fileName: String, sql: String) throws(MigrationError) {
        guard let (version, name) = Self.parse(fileName: fileName) else {
            throw .invalidFileName(fileName)
        }
        self.version = version
        self.name = name
        self.sql = sql
        self.checksum = Self.checksum(of: sql)
        self.recordedSchema = nil
    }

    /// Creates a migration compiled in by the `MigrationEmbedder` plugin, whose name it checked
    /// and whose checksum and resulting schema it computed at build time.
    package init(embeddedFileName fileName: String, sql: String, checksum: String,
                 schemaAfter: (@Sendable () -> [SchemaObject])?) {
        guard let (version, name) = Self.parse(fileName: fileName) else {
            fatalError("the MigrationEmbedder plugin compiled in a badly named file: \(fileName)")
        }
        self.version = version
        self.name = name
        self.sql = sql
        self.checksum = checksum
        self.recordedSchema = schemaAfter
    }

    /// The file name: `0001_initial.sql` for version 1 named `initial`.
    public var fileName: String { Self.fileStem(version: version, name: name) + ".sql" }

    /// The file name without `.sql`: `0001_initial` for version 1 named `initial`.
    public static func fileStem(version: Int, name: String) -> String {
        let digits = String(version)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "_" + name
    }

    /// The checksum gridstore records for a migration's text.
    public static func checksum(of sql: String) -> String {
        MigrationChecksum.of(sql)
    }

    /// Splits `NNNN_short_name.sql` into its version and name; `nil` for any other form.
    ///
    /// The version has at least four digits; the name is lowercase letters, digits and underscores.
    static func parse(fileName: String) -> (version: Int, name: String)? {
        guard fileName.hasSuffix(".sql") else { return nil }
        let stem = fileName.utf8.dropLast(4)
        guard let underscore = stem.firstIndex(of: UInt8(ascii: "_")) else { return nil }
        let digits = stem[..<underscore]
        let name = stem[stem.index(after: underscore)...]
        guard digits.count >= 4, digits.count <= 9, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }),
              !name.isEmpty,
              name.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 })
        else { return nil }
        let version = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
        guard version > 0 else { return nil }
        return (version, String(decoding: name, as: UTF8.self))
    }
}

extension Migration {
    /// Two migrations are equal when their file names and texts are: the schema after it, which
    /// gridstore computed from the text at build time, does not tell them apart.
    public static func == (lhs: Migration, rhs: Migration) -> Bool {
        lhs.version == rhs.version && lhs.name == rhs.name && lhs.sql == rhs.sql
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(name)
        hasher.combine(sql)
    }
}
