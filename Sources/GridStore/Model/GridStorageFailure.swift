/// Why the database could not carry out a grid operation: the file or server failed, not the
/// request. ``GridError/storage(_:)`` carries it, so every ``Grid`` and ``GridSizeRepository``
/// operation throws ``GridError`` alone.
///
/// ```swift
/// do throws(GridError) {
///     try grid.toggle(at: GridIndexPath(item: 3))
/// } catch .storage(let failure) where failure.kind == .busy {
///     // another process held the lock past the busy timeout: try again later
/// } catch {
///     print(error)
/// }
/// ```
public struct GridStorageFailure: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of failure it was.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Another process or connection held a lock for longer than the busy timeout; trying again may succeed.
        case busy
        /// The path or file cannot be used as a gridstore database (`DatabaseFileError` of GridStoreSQLite, `PostgreSQLDatabaseError`).
        case databaseFile
        /// The database's schema is newer, or its migration ledger changed (see ``MigrationError``).
        case migration
        /// The database could not be reached (a server down, restarting or refusing connections,
        /// or a connection lost before anything was committed): nothing was done, and trying
        /// again later may succeed.
        case unreachable
        /// Any other failure of the database or the connection to it (I/O, a full disk, a
        /// connection lost while committing, which may or may not have applied the change).
        case database
        /// The `GridDatabase` was closed (``GridDatabase/close()``): open the database again.
        case closed
    }

    /// What kind of failure it was.
    public let kind: Kind
    /// What went wrong, in words a user can act on.
    public let message: String
    /// The error the database layer reported (`DatabaseFileError`, ``MigrationError``,
    /// or the SQLite or PostgreSQL backend's own), for logging; not encoded or compared.
    public let underlying: (any Error)?

    /// A failure of `kind` described by `message`.
    public init(kind: Kind, message: String, underlying: (any Error)? = nil) {
        self.kind = kind
        self.message = message
        self.underlying = underlying
    }

    /// The failure `error` describes.
    package init(_ error: any Error) {
        let underlying: any Error = error
        switch error {
        case let error as MigrationError: self.init(kind: .migration, message: error.description, underlying: underlying)
        case let error as any StorageFailureDescribing:
            self.init(kind: error.storageFailureKind, message: String(describing: error), underlying: underlying)
        default: self.init(kind: .database, message: String(describing: error), underlying: underlying)
        }
    }

    public var description: String { message }

    public static func == (lhs: GridStorageFailure, rhs: GridStorageFailure) -> Bool {
        lhs.kind == rhs.kind && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(message)
    }

    private enum CodingKeys: String, CodingKey { case kind, message }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(kind: try container.decode(Kind.self, forKey: .kind), message: try container.decode(String.self, forKey: .message))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(message, forKey: .message)
    }
}

/// An error of a storage backend outside this module that says which kind of failure it is.
package protocol StorageFailureDescribing: Error {
    /// The kind of ``GridStorageFailure`` it is.
    var storageFailureKind: GridStorageFailure.Kind { get }
}

extension GridError {
    /// Runs `body`, turning any error but a ``GridError`` into ``GridError/storage(_:)``.
    @inline(__always)
    package static func catching<T>(_ body: () throws -> T) throws(GridError) -> T {
        do {
            return try body()
        } catch let error as GridError {
            throw error
        } catch {
            throw .storage(GridStorageFailure(error))
        }
    }

    /// Awaits `body`, turning any error but a ``GridError`` into ``GridError/storage(_:)``.
    package static func catching<T>(_ body: () async throws -> T) async throws(GridError) -> T {
        do {
            return try await body()
        } catch let error as GridError {
            throw error
        } catch {
            throw .storage(GridStorageFailure(error))
        }
    }
}
