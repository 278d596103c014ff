/// Where a command's output goes: collected in memory, written out once at the end.
///
/// Collecting keeps a large grid's output to a single write and lets tests read
/// exactly what a command printed.
final class Console {
    /// What the command printed for standard output, as UTF-8.
    private(set) var standardOutputBytes: [UInt8] = []
    /// What the command printed for standard error.
    private(set) var standardError = ""
    /// The environment variables the command sees (those of ``consultedVariables`` that are set).
    let environment: NamedValues
    /// What the command committed, once it has (`grid 'default' is at revision 12`): a failure
    /// to write its output afterwards must not read as "nothing was done".
    var committedChange: String?

    /// Whether standard output goes through the pager when it is a terminal and the output is
    /// taller than it (see ``Pager``).
    var pagesLongOutput = false

    init(environment: NamedValues) {
        self.environment = environment
    }

    /// What the command printed for standard output.
    var standardOutput: String { String(decoding: standardOutputBytes, as: UTF8.self) }

    /// Appends `text` to standard output.
    func write(_ text: String) {
        standardOutputBytes.append(contentsOf: text.utf8)
    }

    /// Appends UTF-8 bytes to standard output.
    func write(bytes: [UInt8]) {
        standardOutputBytes.append(contentsOf: bytes)
    }

    /// Appends `text` to standard error.
    func writeError(_ text: String) {
        standardError += text
    }

    /// How writing the collected output ended.
    enum FlushResult: Equatable {
        /// Everything was written.
        case written
        /// The reader of standard output went away (`EPIPE`, when `SIGPIPE` is ignored): a quiet end.
        case brokenPipe
        /// Standard output or standard error could not be written; `reason` says why.
        case failed(stream: String, reason: String)
    }

    /// Writes what was collected to the process's standard output and standard error.
    ///
    /// - Returns: Whether everything was written; a full disk or a closed descriptor is a
    ///   failure the caller reports, so a script never keeps a truncated file as if it were whole.
    @discardableResult
    func flush() -> FlushResult {
        if pagesLongOutput, Pager.shouldPage(standardOutputBytes, environment: environment),
           Pager.show(standardOutputBytes, environment: environment) {
            standardOutputBytes = []
        }
        var outputFailure: Platform.Failure?
        do { try Platform.writeAll(standardOutputBytes, to: .standardOutput) } catch { outputFailure = error }
        var errorFailure: Platform.Failure?
        do { try Platform.writeAll(Array(standardError.utf8), to: .standardError) } catch { errorFailure = error }
        standardOutputBytes = []
        standardError = ""
        if let outputFailure {
            return outputFailure.isBrokenPipe ? .brokenPipe : .failed(stream: "standard output", reason: outputFailure.message)
        }
        if let errorFailure, !errorFailure.isBrokenPipe {
            return .failed(stream: "standard error", reason: errorFailure.message)
        }
        return .written
    }

    /// Writes one line to standard error, ignoring failure: for the last word when output failed.
    static func writeErrorLine(_ line: String) {
        try? Platform.writeAll(Array((line + "\n").utf8), to: .standardError)
    }

    /// Every environment variable a command consults. Only these are read from the process:
    /// copying the whole environment into a dictionary cost half a million instructions at
    /// every start.
    static let consultedVariables = ["GRIDSTORE_DB", "XDG_DATA_HOME", "HOME", "NO_COLOR", "TERM", "COLUMNS",
                                     "GRIDSTORE_PAGER", "PAGER"]

    /// The process's values of ``consultedVariables``.
    static func processEnvironment() -> NamedValues {
        Platform.environment(consultedVariables)
    }
}
