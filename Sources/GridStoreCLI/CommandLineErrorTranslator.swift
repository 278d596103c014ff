import GridStore
import GridStorePostgreSQL

/// Turns the errors commands throw into what the user sees and the exit status.
enum CommandLineErrorTranslator {
    /// - Parameter command: The command that failed, whose usage a usage error prints.
    static func translate(_ error: any Error, command: CommandSpec?) -> CommandLineError {
        switch error {
        case let error as CommandLineError:
            return error
        case let error as GridError:
            if case .corrupted = error { return .failure(error.description) }
            // Everything else names an index, section, count, name or setting the user gave.
            return .usage(error.description, command: command)
        case let error as DatabaseFileError:
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
}
