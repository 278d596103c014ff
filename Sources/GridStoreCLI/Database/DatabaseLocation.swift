import GridStore

/// Where gridstore keeps its database when no path is given.
///
/// In order: an explicit path (the CLI's `--db`), then `$GRIDSTORE_DB`, then
/// `$XDG_DATA_HOME/gridstore/gridstore.sqlite`, with `$XDG_DATA_HOME` defaulting to
/// `~/.local/share` as the XDG Base Directory specification says (which also says to
/// ignore a relative `$XDG_DATA_HOME`). Missing folders are created when the database is.
enum DatabaseLocation {
    /// No database was named and there is no home folder to keep the default one in.
    static let noHomeDirectory = CommandLineError.failure(
        "there is no home folder for the default database (HOME is unset and the account has none); "
            + "name a database with --db or GRIDSTORE_DB")

    /// The file name inside the data folder.
    static let fileName = "gridstore.sqlite"

    /// The database path to use.
    ///
    /// - Parameters:
    ///   - explicitPath: A path the user gave, which wins over everything else.
    ///   - environment: The environment variables to consult; `nil` for the process's own.
    ///     Empty values count as unset.
    ///   - accountHome: The account's home folder from the password database, for when `HOME`
    ///     is unset or empty; the process's own by default.
    /// - Throws: ``noHomeDirectory`` when neither gives a home folder: a database is never
    ///   created under the working directory by accident.
    static func resolve(explicitPath: String? = nil, environment: NamedValues? = nil,
                        accountHome: () -> String? = DatabaseLocation.accountHomeDirectory) throws(CommandLineError) -> String {
        let lookup: (String) -> String? = { name in
            guard let environment else { return Platform.environment([name])[name].flatMap { $0.isEmpty ? nil : $0 } }
            return environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        if let explicitPath, !explicitPath.isEmpty { return explicitPath }
        if let path = lookup("GRIDSTORE_DB") { return path }
        if let dataHome = lookup("XDG_DATA_HOME").flatMap({ $0.hasPrefix("/") ? $0 : nil }) {
            return dataHome + "/gridstore/" + fileName
        }
        guard let home = lookup("HOME") ?? accountHome().flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw noHomeDirectory
        }
        return home + "/.local/share/gridstore/" + fileName
    }

    /// The home folder of the account the process runs as, from the password database.
    static func accountHomeDirectory() -> String? {
        Platform.accountHomeDirectory()
    }
}
