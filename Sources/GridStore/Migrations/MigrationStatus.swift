/// Where a database stands against a set of migrations.
public struct MigrationStatus: Sendable, Equatable {
    /// A migration recorded in the database's `schema_migrations` ledger.
    public struct AppliedMigration: Sendable, Equatable {
        /// The version number.
        public let version: Int
        /// The name recorded when it was applied.
        public let name: String
        /// The checksum recorded when it was applied.
        public let checksum: String
        /// When it was applied, as recorded (ISO 8601, UTC).
        public let appliedAt: String

        /// Creates a ledger row.
        public init(version: Int, name: String, checksum: String, appliedAt: String) {
            self.version = version
            self.name = name
            self.checksum = checksum
            self.appliedAt = appliedAt
        }
    }

    /// Every migration the ledger records, in version order.
    public let applied: [AppliedMigration]

    /// The migrations of the set that are not applied yet, in version order.
    public let pending: [Migration]

    /// What keeps the migrations from being applied, if anything: a changed file, a newer
    /// database, or a migration out of order.
    public let problem: MigrationError?

    /// Creates a status from the ledger's rows, the pending migrations and the problem found, if any.
    public init(applied: [AppliedMigration], pending: [Migration], problem: MigrationError?) {
        self.applied = applied
        self.pending = pending
        self.problem = problem
    }

    /// Compares a database's ledger with `migrations`: what is pending and what, if anything,
    /// forbids applying it. The same rules hold for every backend.
    ///
    /// - Parameter namespace: The namespace `applied` belongs to (`gridstore` for gridstore's own).
    public init(ledger applied: [AppliedMigration], migrations: MigrationSet,
                namespace: String = "gridstore") {
        let appliedVersions = Set(applied.map(\.version))
        let pending = migrations.migrations.filter { !appliedVersions.contains($0.version) }
        self.init(applied: applied, pending: pending,
                  problem: Self.problem(applied: applied, pending: pending, migrations: migrations, namespace: namespace))
    }

    private static func problem(applied: [AppliedMigration], pending: [Migration], migrations: MigrationSet,
                                namespace: String) -> MigrationError? {
        let unknown = applied.filter { migrations.migration(version: $0.version) == nil }.map(\.version)
        if let highestUnknown = unknown.last {
            guard highestUnknown > migrations.latestVersion else { return .unknownVersions(unknown) }
            return namespace == Self.gridStoreNamespace
                ? .newerDatabase(unknownVersions: unknown, latestKnownVersion: migrations.latestVersion)
                : .newerNamespace(namespace, unknownVersions: unknown, latestKnownVersion: migrations.latestVersion)
        }
        for record in applied {
            guard let migration = migrations.migration(version: record.version) else { continue }
            if migration.checksum != record.checksum {
                return .checksumMismatch(fileName: migration.fileName, recorded: record.checksum, current: migration.checksum)
            }
        }
        if let highestApplied = applied.last?.version, let early = pending.first(where: { $0.version < highestApplied }) {
            return .outOfOrder(fileName: early.fileName, highestAppliedVersion: highestApplied)
        }
        return nil
    }

    /// The highest applied version, or 0 for a new database.
    public var currentVersion: Int { applied.last?.version ?? 0 }

    /// Whether the database is fully migrated and consistent with the set.
    public var isUpToDate: Bool { pending.isEmpty && problem == nil }
}

extension MigrationStatus {
    /// The namespace of gridstore's own migrations in a database's ledger.
    package static let gridStoreNamespace = "gridstore"
}
