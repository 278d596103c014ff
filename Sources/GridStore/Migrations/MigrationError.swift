/// Why migrations could not be applied.
///
/// Each case describes a state gridstore refuses to touch; nothing is written when
/// one is thrown, except that ``failed(fileName:error:)`` has rolled its migration back.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A migration file is not named `NNNN_short_name.sql`.
    case invalidFileName(String)

    /// Two migration files share a version number.
    case duplicateVersion(Int, fileNames: [String])

    /// An applied migration's file was edited after it was applied.
    case checksumMismatch(fileName: String, recorded: String, current: String)

    /// The database was migrated by a newer gridstore that knows versions this build does not.
    case newerDatabase(unknownVersions: [Int], latestKnownVersion: Int)

    /// The database has versions of an app's namespace (see ``MigrationRunner/namespace``) that
    /// the app's migration set does not know: a newer version of the app migrated it.
    case newerNamespace(String, unknownVersions: [Int], latestKnownVersion: Int)

    /// The database has applied versions that this build has no file for, below its latest one.
    case unknownVersions([Int])

    /// A migration file has not been applied, but a later version has been.
    case outOfOrder(fileName: String, highestAppliedVersion: Int)

    /// A migration failed and was rolled back; the database stays at the previous version.
    /// `reason` is the database's message.
    case failed(fileName: String, reason: String)

    /// Migrations are pending but the database can only be read.
    case readOnly(pendingFileNames: [String])

    public var description: String {
        switch self {
        case .invalidFileName(let name):
            return "migration file '\(name)' is not named NNNN_short_name.sql (for example 0002_add_colors.sql)"
        case .duplicateVersion(let version, let names):
            return "migration files \(names.joined(separator: " and ")) share version \(version); give each a unique number"
        case .checksumMismatch(let name, let recorded, let current):
            return "migration \(name) was changed after it was applied (recorded sha256 \(recorded.prefix(12))…, "
                + "file sha256 \(current.prefix(12))…); restore the file and add a new migration instead"
        case .newerDatabase(let unknown, let latest):
            let versions = unknown.map { String($0) }.joined(separator: ", ")
            return "the database was created by a newer gridstore (it has schema version(s) \(versions); "
                + "this build knows up to \(latest)); upgrade gridstore to open it"
        case .newerNamespace(let namespace, let unknown, let latest):
            let versions = unknown.map { String($0) }.joined(separator: ", ")
            return "the database has version(s) \(versions) of the '\(namespace)' migrations, and this set knows up to "
                + "\(latest); open it with the newer migrations that made them"
        case .unknownVersions(let unknown):
            let versions = unknown.map { String($0) }.joined(separator: ", ")
            return "the database has applied migration version(s) \(versions) that this build does not have"
        case .outOfOrder(let name, let highest):
            return "migration \(name) is not applied, but version \(highest) already is; "
                + "renumber it after \(highest) to apply it"
        case .failed(let name, let reason):
            return "migration \(name) failed and was rolled back: \(reason)"
        case .readOnly(let names):
            return "the database is read-only, so pending migration(s) \(names.joined(separator: ", ")) cannot be applied"
        }
    }
}
