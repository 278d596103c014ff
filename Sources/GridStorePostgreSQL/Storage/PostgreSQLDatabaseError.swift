import GridStore

/// Why a PostgreSQL location or database cannot be used by gridstore. In every case nothing
/// was run or changed.
public enum PostgreSQLDatabaseError: Error, Sendable, Equatable, CustomStringConvertible, StorageFailureDescribing {
    /// Objects gridstore did not create are attached to its tables (a trigger, rule or policy
    /// on one, another table's foreign key to one, a definition other than its migrations'); each is named.
    case attachedObjects(location: String, objects: [String])
    /// The location or a setting of it cannot be used; the text says why and what to do.
    case unsupported(String)

    public var description: String {
        switch self {
        case .attachedObjects(let location, let objects):
            return "\(location) holds \(objects.joined(separator: ", ")), which gridstore did not create and which would run "
                + "inside gridstore's changes; gridstore runs nothing there; drop \(objects.count == 1 ? "it" : "them"), "
                + "and keep an app's own objects on tables of its own, referring to a grid by its name"
        case .unsupported(let reason):
            return reason
        }
    }

    package var storageFailureKind: GridStorageFailure.Kind { .databaseFile }
}
