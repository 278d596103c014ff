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
        /// A signal ended an interactive command, which has cleaned up: exit 128 plus the
        /// signal's number, as a shell reports it, with nothing printed.
        case interrupted(Int32)
    }

    /// How the failure ends the process.
    let kind: Kind

    /// One line: what is wrong and what would be valid.
    let message: String

    /// The command whose usage applies, for usage errors.
    var command: CommandSpec?

    /// Whether a usage error is followed by the usage lines (not when the command line is
    /// right but the surroundings are not, as `edit` without a terminal).
    var printsUsage = true

    /// The process exit status for ``kind``.
    var exitStatus: Int32 {
        switch kind {
        case .usage: 64
        case .badInput: 65
        case .failure: 1
        case .interrupted(let status): status
        }
    }

    static func usage(_ message: String, command: CommandSpec? = nil) -> CommandLineError {
        CommandLineError(kind: .usage, message: message, command: command)
    }

    /// A usage error (exit 64) reported in one line, without the usage.
    static func unusable(_ message: String) -> CommandLineError {
        CommandLineError(kind: .usage, message: message, printsUsage: false)
    }

    static func badInput(_ message: String) -> CommandLineError {
        CommandLineError(kind: .badInput, message: message)
    }

    static func failure(_ message: String) -> CommandLineError {
        CommandLineError(kind: .failure, message: message)
    }

    static func interrupted(status: Int32) -> CommandLineError {
        CommandLineError(kind: .interrupted(status), message: "")
    }
}
