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

    init(console: Console, global: GlobalOptions) {
        self.console = console
        self.explicitDatabase = global.databasePath
        self.explicitGridName = global.gridName
    }

    /// The grid's name: `--grid`, else `default`.
    var gridName: String { explicitGridName ?? GlobalOptions.defaultGridName }

    /// The database: `--db`, else `$GRIDSTORE_DB`, else the XDG default; a file path or a
    /// PostgreSQL connection URI.
    func databaseLocation() throws -> String {
        try DatabaseLocation.resolve(explicitPath: explicitDatabase, environment: console.environment)
    }

    /// Opens the database, creating and migrating it as needed.
    func openDatabase() throws -> GridDatabase {
        try GridDatabase(location: databaseLocation())
    }
}
