/// Where gridstore keeps its database when no path is given.
///
/// In order: an explicit path (the CLI's `--db`), then `$GRIDSTORE_DB`, then
/// `$XDG_DATA_HOME/gridstore/gridstore.sqlite`, with `$XDG_DATA_HOME` defaulting to
/// `~/.local/share` as the XDG Base Directory specification says (which also says to
/// ignore a relative `$XDG_DATA_HOME`). Missing folders are created when the database is.
public enum DatabaseLocation {
    /// The file name inside the data folder.
    public static let fileName = "gridstore.sqlite"

    /// The database path to use.
    ///
    /// - Parameters:
    ///   - explicitPath: A path the user gave, which wins over everything else.
    ///   - environment: The environment variables to consult; `nil` for the process's own.
    ///     Empty values count as unset.
    public static func resolve(explicitPath: String? = nil, environment: [String: String]? = nil) -> String {
        let lookup: (String) -> String? = { name in
            guard let environment else { return FileSystem.environment(name) }
            return environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        if let explicitPath, !explicitPath.isEmpty { return explicitPath }
        if let path = lookup("GRIDSTORE_DB") { return path }
        let dataHome = lookup("XDG_DATA_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((lookup("HOME") ?? ".") + "/.local/share")
        return dataHome + "/gridstore/" + fileName
    }

    /// The default database path, from the process's environment.
    public static var standard: String { resolve() }
}
