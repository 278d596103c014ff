import GridStore
import GridStorePostgreSQL
import GridStoreSQLite

/// Turns the errors commands throw into what the user sees and the exit status.
enum CommandLineErrorTranslator {
    /// - Parameter command: The command that failed, whose usage a usage error prints.
    static func translate(_ error: any Error, command: CommandSpec?) -> CommandLineError {
        switch error {
        case let error as CommandLineError:
            return error
        case let error as GridError:
            return translate(error, command: command)
        case let error as DatabaseFileError:
            return .failure(error.description)
        case let error as PostgreSQLDatabaseError:
            return .failure(error.description)
        case let error as MigrationError:
            return .failure(error.description)
        case let error as SQLiteError where error.isBusy:
            return .failure("the database is busy: another process kept it locked for more than "
                            + "\(GridDatabase.busyTimeoutMilliseconds / 1000) seconds; try again")
        case let error as SQLiteError:
            return .failure(error.description)
        case let error as PostgreSQLError where error.sqlState == "55P03":
            return .failure("the grid is busy: another connection to \(error.server) kept it locked for longer than "
                            + "lock_timeout; try again")
        default:
            return .failure(String(describing: error))
        }
    }

    /// Grid errors, with what to type next where the command line knows it.
    private static func translate(_ error: GridError, command: CommandSpec?) -> CommandLineError {
        switch error {
        case .storage(let failure):
            // The database's own error says more (the busy timeout, a file's path).
            return failure.underlying.map { translate($0, command: command) } ?? .failure(failure.message)
        case .corrupted:
            return .failure(error.description)
        case .sync(let refusal) where refusal.kind == .sameDatabase:
            return .usage(error.description, command: command)
        case .sync:
            return .failure(error.description)
        case .gridNotFound:
            return .failure(error.description + "; 'gridstore grids' lists the grids")
        case .gridExists:
            return .usage(error.description + "; use --force to replace it", command: command)
        case .customColumns:
            return .usage(error.description + "; set one with 'gridstore type less' or 'gridstore type more'", command: command)
        case .keyNotFound(_, let grid):
            let option = grid == "default" ? "" : " --grid \(ShellWord.quoted(grid))"
            return .usage(error.description + "; 'gridstore\(option) keys' lists the keys", command: command)
        case .notTiles(_, let grid):
            let option = grid.map { " --grid \(ShellWord.quoted($0))" } ?? ""
            return .usage(error.description + ". To lay it out as tiles: gridstore\(option) init --force", command: command)
        default:
            // Everything else names an index, section, count, name or setting the user gave.
            return .usage(error.description, command: command)
        }
    }
}

/// Text a user can paste into a shell.
enum ShellWord {
    /// `text` as one shell word: bare when it is plain, else in single quotes.
    static func quoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0)
            || ("0"..."9").contains($0) || "-_./".unicodeScalars.contains($0) }
        return plain ? text : "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
