import GridStore
import GridStorePostgreSQL

/// One `gridstore` subcommand.
protocol GridStoreCommand: Sendable {
    /// What the command accepts, for parsing, usage and help.
    static var spec: CommandSpec { get }

    /// Reads the command's arguments, rejecting malformed ones before anything is opened.
    init(parsing arguments: ParsedArguments) throws(CommandLineError)

    /// Does the work, printing to `context.console`.
    func run(in context: CommandContext) throws
}

/// What a running command can reach: the console, the chosen database and grid.
final class CommandContext {
    /// Where output goes.
    let console: Console
    /// `--db`, if given.
    private let explicitDatabase: String?
    /// The grid's name, if `--grid` was given.
    let explicitGridName: String?

    /// The command's name and arguments as typed, for ``operation``.
    private let command: (name: String, arguments: [String])?

    /// The operation as the grid's history records it: the command as typed, without the
    /// options that choose the database and grid or shape the output (`toggle 3`). Worked out
    /// only when a change records it.
    var operation: String? {
        command.map { GridStoreCommandLine.operationText(name: $0.name, $0.arguments) }
    }

    init(console: Console, global: GlobalOptions, command: (name: String, arguments: [String])? = nil) {
        self.console = console
        self.explicitDatabase = global.databasePath
        self.explicitGridName = global.gridName
        self.command = command
    }

    /// The grid's name: `--grid`, else `default`.
    var gridName: String { GridLimits.canonical(explicitGridName ?? GlobalOptions.defaultGridName) }

    /// The database: `--db`, else `$GRIDSTORE_DB`, else the XDG default; a file path or a
    /// PostgreSQL connection URI.
    func databaseArgument() throws -> DatabaseArgument {
        let location = try DatabaseLocation.resolve(explicitPath: explicitDatabase, environment: console.environment)
        return try DatabaseArgument(location, from: namingOption ?? "the default database path", command: nil)
    }

    /// ` --db <location>` when `--db` chose the database, so a command line printed as a hint
    /// runs on the same database when pasted (`$GRIDSTORE_DB` and the default path carry over).
    var databaseOption: String {
        guard let explicitDatabase, !explicitDatabase.isEmpty else { return "" }
        // A URI without its password (libpq finds it in ~/.pgpass or $PGPASSWORD).
        let shown = (try? DatabaseArgument(explicitDatabase, from: "--db", command: nil).displayName) ?? explicitDatabase
        return " --db " + ShellWord.quoted(shown)
    }

    /// What named the database, as a message says it: `--db`, `$GRIDSTORE_DB` or the default path.
    var databaseNaming: String { namingOption ?? "the default database path" }

    /// What named the database: `--db` or `$GRIDSTORE_DB`; `nil` for the default path.
    private var namingOption: String? {
        explicitDatabase?.isEmpty == false ? "--db"
            : console.environment["GRIDSTORE_DB"].map { !$0.isEmpty } == true ? "$GRIDSTORE_DB" : nil
    }

    /// The database, once a command has opened it.
    private var openedDatabase: GridDatabase?

    /// The database files the command may make, each with what named it: `--db` or
    /// `$GRIDSTORE_DB`, so that a mistyped name shows.
    private var filesMayBeMade: [(location: String, naming: String)] = []

    /// What standard error says once the command succeeded, for each database file it made
    /// that `--db` or `$GRIDSTORE_DB` named. A failed command's error stays one line.
    var createdDatabaseNote: String? {
        let made = filesMayBeMade.filter { (try? GridDatabase.exists(at: $0.location)) == true }
        guard !made.isEmpty else { return nil }
        return made.map { "Note: created a new database at '\(CommandLineOutput.printable($0.location))', which \($0.naming) named\n" }.joined()
    }

    /// Says, once the command succeeded, that it created the database file `location`, which
    /// `naming` named, if the file is there then.
    func noteCreatedDatabase(at location: String, namedBy naming: String) {
        filesMayBeMade.append((location, naming))
    }

    /// Opens the database for a command that changes it: pending migrations are applied, and a
    /// missing SQLite file is made by the command's first change that commits (a refused change
    /// makes none), or now with `creatingNow`.
    func openDatabase(creatingNow: Bool = false) throws -> GridDatabase {
        if let openedDatabase { return openedDatabase }
        let argument = try databaseArgument()
        // A file the user named that is not there is made, and said so: a mistyped name shows.
        let missing = try argument.server == nil && !argument.exists()
        let database = try argument.open(creatingOnFirstChange: !creatingNow)
        openedDatabase = database
        if missing, let namingOption { noteCreatedDatabase(at: argument.location, namedBy: namingOption) }
        if !missing && !database.migrationsAppliedOnOpen.isEmpty {
            console.committedChange = "\(database.location) was migrated to its current schema"
        }
        return database
    }

    /// Opens the database for a command that only reads: a missing SQLite file is reported,
    /// never created.
    ///
    /// - Throws: ``CommandLineError`` (exit 1) when `--db` names a file that does not exist.
    /// - Parameter toChange: Whether the command changes the database it found (`check
    ///   --repair`): it is then migrated as for any change.
    func openExistingDatabase(toChange: Bool = false) throws -> GridDatabase {
        if let openedDatabase { return openedDatabase }
        let database = try databaseArgument()
        if try !database.exists() {
            throw CommandLineError.failure("no database at '\(CommandLineOutput.printable(database.location))'; "
                                           + "commands that only read never create one (gridstore init does)")
        }
        guard database.server != nil, !toChange else { return try openDatabase() }
        // On a server, reading creates and migrates nothing: an empty database reads as one
        // without grids, and a role that may only read can.
        let opened = try database.open(applyingMigrations: false)
        let status = try opened.migrationStatus()
        if let problem = status.problem { throw problem }
        if let version = status.applied.last?.version, let wanted = status.pending.last?.version {
            throw CommandLineError.failure("\(database.displayName) is at gridstore's schema version \(version), and this "
                                           + "gridstore reads version \(wanted); run 'gridstore migrate' with a role that may "
                                           + "create tables, then try again")
        }
        openedDatabase = opened
        return opened
    }

    /// The key of grid `grid` closest to `key`, a mistyped one, if one is close enough.
    func closeKey(to key: String, inGrid grid: String) -> String? {
        guard let database = openedDatabase, let snapshot = try? Grid(named: grid, in: database, creatingWith: nil).snapshot() else {
            return nil
        }
        let keys = snapshot.itemCounts.indices.flatMap { section in (try? snapshot.keys(inSection: section))?.compactMap { $0 } ?? [] }
        return Suggestion.closest(to: key, among: keys)
    }

    /// The error for a grid named `name` that does not exist, suggesting a grid with a close name.
    func missingGrid(_ name: String) -> CommandLineError {
        let names = (try? openedDatabase.map { try Grid.list(in: $0).map(\.name) }) ?? nil
        let message = "no grid named '\(CommandLineOutput.printable(name))'"
        if let close = names.flatMap({ Suggestion.closest(to: name, among: $0) }) {
            return .failure(message + "; did you mean '\(CommandLineOutput.printable(close))'?")
        }
        return .failure(message + ((names?.isEmpty ?? true) ? "" : "; 'gridstore grids' lists the grids"))
    }
}
