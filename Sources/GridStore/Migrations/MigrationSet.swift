import MigrationText

/// An ordered list of migrations with unique versions.
public struct MigrationSet: Sendable, Hashable {
    /// The migrations, in ascending version order.
    public let migrations: [Migration]

    /// Creates a set from migrations in any order.
    ///
    /// - Throws: ``MigrationError/duplicateVersion(_:fileNames:)`` when two share a version.
    public init(_ migrations: [Migration]) throws(MigrationError) {
        let sorted = migrations.sorted { $0.version < $1.version }
        for (previous, next) in zip(sorted, sorted.dropFirst()) where previous.version == next.version {
            throw .duplicateVersion(next.version, fileNames: [previous.fileName, next.fileName].sorted())
        }
        self.migrations = sorted
    }

    /// Creates a set from file names and their texts.
    ///
    /// - Throws: ``MigrationError`` for a badly named file or a duplicate version.
    public init(files: [(fileName: String, sql: String)]) throws(MigrationError) {
        var migrations: [Migration] = []
        for file in files {
            migrations.append(try Migration(fileName: file.fileName, sql: file.sql))
        }
        try self.init(migrations)
    }

    /// The set of files the `MigrationEmbedder` plugin compiled in, with the checksums it
    /// computed when it built them (so no process hashes them at start-up).
    package init(embedded migrations: [Migration]) {
        do {
            try self.init(migrations)
        } catch {
            // The MigrationEmbedder plugin checks names and versions when it builds; this cannot happen.
            fatalError("the embedded migrations are invalid: \(error)")
        }
    }

    /// The highest version, or 0 for an empty set.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The migration with `version`, if the set has one.
    public func migration(version: Int) -> Migration? {
        migrations.first { $0.version == version }
    }
}
