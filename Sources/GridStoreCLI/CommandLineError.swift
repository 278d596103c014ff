/// A failure the command line reports, with the exit status it ends in.
///
/// Exit statuses follow BSD's `sysexits.h`, as Swift's own command-line tools do.
struct CommandLineError: Error, Equatable {
    /// How a failure ends the process.
    enum Kind: Equatable {
        /// The command line itself is wrong: an unknown command or option, a missing or
        /// malformed argument, an index out of range, an unknown size. Exit 64 (`EX_USAGE`).
        case usage
        /// An input file is malformed. Exit 65 (`EX_DATAERR`).
        case badInput
        /// Anything else: a locked or unreadable database, a newer schema. Exit 1.
        case failure
    }

    /// How the failure ends the process.
    let kind: Kind

    /// One line: what is wrong and what would be valid.
    let message: String

    /// The command whose usage applies, for usage errors.
    var command: CommandSpec?

    /// The process exit status for ``kind``.
    var exitStatus: Int32 {
        switch kind {
        case .usage: 64
        case .badInput: 65
        case .failure: 1
        }
    }

    static func usage(_ message: String, command: CommandSpec? = nil) -> CommandLineError {
        CommandLineError(kind: .usage, message: message, command: command)
    }

    static func badInput(_ message: String) -> CommandLineError {
        CommandLineError(kind: .badInput, message: message)
    }

    static func failure(_ message: String) -> CommandLineError {
        CommandLineError(kind: .failure, message: message)
    }
}
