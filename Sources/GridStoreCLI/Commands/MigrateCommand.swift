import GridStore
import GridStorePostgreSQL

/// `gridstore migrate [--status]`: brings the database's schema up to date, or reports it.
struct MigrateCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "migrate",
        abstract: "Apply pending schema migrations, or list applied and pending ones.",
        discussion: """
            Every command migrates the database when it opens it; this one does only that.
            With --status nothing is written: a database that does not exist is not created.
            """,
        options: [status, .init(name: "format", valueName: "text|json", help: "With --status: text (the default) or json."),
                  QuietOption.option],
        usesGrid: false)

    /// `--status`.
    static let status = CommandSpec.Option(name: "status", help: "List applied and pending migrations instead of applying them.")

    let statusOnly: Bool
    let format: ValueFormat
    let quiet: Bool

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        statusOnly = arguments.flag(Self.status)
        format = try ValueFormat(arguments, command: Self.spec)
        quiet = arguments.flag(QuietOption.option)
        if arguments.value(ValueFormat.option) != nil && !statusOnly {
            throw .usage("--format goes with --status", command: Self.spec)
        }
        if quiet && statusOnly { throw .usage("--quiet goes with migrating, not with --status", command: Self.spec) }
    }

    func run(in context: CommandContext) throws {
        statusOnly ? try printStatus(context) : try migrate(context)
    }

    private func migrate(_ context: CommandContext) throws {
        let database = try context.openDatabase(creatingNow: true)
        let applied = database.migrationsAppliedOnOpen
        let version = try database.migrationStatus().currentVersion
        if !applied.isEmpty { context.noteCommitted("\(database.location) is at schema version \(version)") }
        if quiet { return }
        if applied.isEmpty {
            context.console.write("\(CommandLineOutput.printable(database.location)) is up to date at schema version \(version).\n")
        } else {
            let names = applied.map(\.fileName).joined(separator: ", ")
            context.console.write("Applied \(applied.count) migration(s) to \(CommandLineOutput.printable(database.location)): \(names)\n")
            context.console.write("\(CommandLineOutput.printable(database.location)) is now at schema version \(version).\n")
        }
    }

    private func printStatus(_ context: CommandContext) throws {
        let database = try context.databaseArgument()
        let known = database.knownMigrations
        let status: MigrationStatus
        let exists = try database.exists()
        if exists {
            status = try database.open(applyingMigrations: false).migrationStatus()
        } else {
            status = MigrationStatus(applied: [], pending: known.migrations, problem: nil)
        }
        if format == .json {
            context.console.write(Self.json(status, known: known, location: database.displayName, exists: exists))
        } else {
            Self.printText(status, known: known, location: database.displayName, exists: exists, to: context.console)
        }
        if let problem = status.problem {
            throw CommandLineError.failure(problem.description)
        }
    }

    /// `{"database":…,"exists":true,"version":2,"latestKnown":2,"applied":[…],"pending":[…]}`; each applied
    /// migration has a `"state"`: `ok`, `unknown` (to this gridstore) or `changed` (its file, since applied).
    static func json(_ status: MigrationStatus, known: MigrationSet, location: String, exists: Bool) -> String {
        let applied = status.applied.map { migration in
            let knownMigration = known.migration(version: migration.version)
            let state = knownMigration == nil ? "unknown" : knownMigration?.checksum != migration.checksum ? "changed" : "ok"
            return Status.Applied(version: migration.version, name: migration.name, appliedAt: migration.appliedAt,
                                  checksum: migration.checksum, state: state)
        }
        return JSONOutput.text(Status(database: location, exists: exists, version: status.currentVersion, latestKnown: known.latestVersion,
                                      applied: applied, pending: status.pending.map { Status.Pending(version: $0.version, name: $0.name) }),
                               layout: .listsOnLines)
    }

    /// What `migrate --status --format json` prints.
    private struct Status: Encodable {
        struct Applied: Encodable {
            let version: Int
            let name: String
            let appliedAt: String
            let checksum: String
            /// `ok`, `unknown` (to this gridstore) or `changed` (its file, since applied).
            let state: String
        }
        struct Pending: Encodable {
            let version: Int
            let name: String
        }
        let database: String
        let exists: Bool
        let version: Int
        let latestKnown: Int
        let applied: [Applied]
        let pending: [Pending]
    }

    private static func printText(_ status: MigrationStatus, known: MigrationSet, location: String, exists: Bool,
                                  to console: Console) {
        console.write("Database: \(CommandLineOutput.printable(location))\(exists ? "" : " (does not exist yet)")\n")
        console.write("Schema version: \(status.currentVersion) (this gridstore knows up to \(known.latestVersion))\n")
        console.write("Applied:\n")
        if status.applied.isEmpty { console.write("  none\n") }
        for migration in status.applied {
            let knownMigration = known.migration(version: migration.version)
            let mark = knownMigration == nil ? "  (unknown to this gridstore)"
                : knownMigration?.checksum != migration.checksum ? "  (file changed since applied)" : ""
            // The ledger is read from the file: its text is escaped before it reaches the terminal.
            let stem = Migration.fileStem(version: migration.version, name: migration.name)
            console.write("  \(CommandLineOutput.printable(stem))  \(CommandLineOutput.printable(migration.appliedAt))  "
                          + "sha256:\(CommandLineOutput.printable(String(migration.checksum.prefix(12))))\(mark)\n")
        }
        console.write("Pending:\n")
        if status.pending.isEmpty { console.write("  none\n") }
        for migration in status.pending {
            console.write("  \(Migration.fileStem(version: migration.version, name: migration.name))\n")
        }
    }
}
