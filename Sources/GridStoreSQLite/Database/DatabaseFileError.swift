import GridStore

/// Why a path could not be used as a gridstore SQLite database.
///
/// gridstore never writes to a file it did not create: in every case below the file
/// is left exactly as it was.
public enum DatabaseFileError: Error, Sendable, Equatable, CustomStringConvertible, StorageFailureDescribing {
    /// The path names a directory.
    case isDirectory(path: String)

    /// The file exists but is empty; gridstore creates its files whole, so this one is not its own.
    case emptyFile(path: String)

    /// The file is not an SQLite database.
    case notADatabase(path: String)

    /// The file is an SQLite database of another application.
    case foreignDatabase(path: String, applicationID: Int32)

    /// The database or a folder on its path could not be created.
    case cannotCreate(path: String, reason: String)

    /// The file exists but could not be opened.
    case cannotOpen(path: String, reason: String)

    /// A change was asked of a database that can only be read.
    case readOnly(path: String)

    /// The database holds schema objects gridstore's migrations did not create (`found`, such
    /// as a planted trigger), or lacks some they did (`missing`); gridstore runs nothing in it.
    case unexpectedSchema(path: String, found: [String], missing: [String])
    /// Objects of gridstore's (such as `view placements`) are defined otherwise than its
    /// migrations define them: redefined, altered, or edited through `writable_schema`.
    case alteredSchema(path: String, altered: [String])
    /// Tables beside gridstore's (such as an app's) have foreign keys to gridstore's tables,
    /// whose actions would run inside gridstore's own changes; each is `table (to target)`.
    case foreignKeysToGridStore(path: String, tables: [String])
    /// A rollback journal beside the file holds an interrupted write, which opening would
    /// replay into the file; gridstore does not, and changed nothing.
    case hotJournal(path: String)

    /// A statement ran past gridstore's time limit and was stopped; nothing was changed.
    case timeLimitExceeded(path: String, seconds: Int)
    /// The file was deleted, or another file put at its path, while the database was open.
    case replaced(path: String)
    /// The path cannot name a database file: empty, with a NUL character, or SQLite's
    /// special `:memory:` (use ``InMemoryGridSizeRepository`` for a grid kept in memory).
    case invalidPath(String, reason: String)
    /// The operation does not apply to this database or request; the text says why and what to do.
    case unsupported(String)

    public var description: String {
        switch self {
        case .isDirectory(let path):
            return "\(path) is a directory; give the path of a database file"
        case .emptyFile(let path):
            return "\(path) is an empty file, not a gridstore database; remove it or choose another path"
        case .notADatabase(let path):
            return "\(path) is not a gridstore database (it is not an SQLite file); choose another path"
        case .foreignDatabase(let path, let applicationID):
            let owner = applicationID == 0
                ? "it has tables but no gridstore application_id"
                : "its application_id is \(applicationID), gridstore's is \(Self.gridStoreApplicationID)"
            return "\(path) is an SQLite database of another application (\(owner)); choose another path"
        case .cannotCreate(let path, let reason):
            return "cannot create \(path): \(reason)"
        case .cannotOpen(let path, let reason):
            return "cannot open \(path): \(reason)"
        case .readOnly(let path):
            return "\(path) is read-only; changes need write access to the file and its folder"
        case .unexpectedSchema(let path, let found, let missing):
            var parts: [String] = []
            if !found.isEmpty { parts.append("it holds \(found.joined(separator: ", ")), which gridstore did not create") }
            if !missing.isEmpty { parts.append("it lacks \(missing.joined(separator: ", ")), which gridstore created") }
            let remedy = found.isEmpty ? "restore it from a backup"
                : "remove \(found.count == 1 ? "it" : "them") with sqlite3 (DROP \(found[0].uppercased().split(separator: " ")[0]) …) "
                    + "if you trust nothing else was changed, or restore a backup"
            return "\(path) is not as gridstore left it: \(parts.joined(separator: "; ")); gridstore runs nothing in it; \(remedy)"
        case .alteredSchema(let path, let altered):
            return "\(path) is not as gridstore left it: the definition of \(altered.joined(separator: ", ")) differs from what "
                + "gridstore's migrations create; gridstore runs nothing in it; restore it from a backup"
        case .foreignKeysToGridStore(let path, let tables):
            return "\(path) holds table\(tables.count == 1 ? "" : "s") \(tables.joined(separator: ", ")) with a foreign key to "
                + "gridstore's tables, whose actions would run inside gridstore's changes; gridstore runs nothing in it; "
                + "refer to a grid by its name instead of a foreign key"
        case .hotJournal(let path):
            return "\(path)-journal holds an interrupted write that opening would replay into \(path); gridstore replays nothing "
                + "and changed nothing; roll it back with sqlite3 \(path) 'PRAGMA integrity_check', then try again"
        case .timeLimitExceeded(let path, let seconds):
            return "a statement on \(path) ran longer than \(seconds) seconds and was stopped, changing nothing; "
                + "the file may hold SQL that gridstore did not write, or more rows than the statement reads in that time"
        case .replaced(let path):
            return "the database file \(path) was deleted or replaced while it was open; nothing was read or written "
                + "through the old file; open the database again"
        case .unsupported(let reason):
            return reason
        case .invalidPath(let path, let reason):
            return "'\(path)' cannot name a database file: \(reason)"
        }
    }
}

extension DatabaseFileError {
    package var storageFailureKind: GridStorageFailure.Kind { .databaseFile }

    /// The `PRAGMA application_id` that marks a gridstore SQLite file: the ASCII bytes `GRID`.
    package static let gridStoreApplicationID: Int32 = 0x4752_4944
}
