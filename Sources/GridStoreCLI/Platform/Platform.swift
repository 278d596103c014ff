#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("gridstore's command line needs a POSIX C library: Glibc, Musl or Darwin")
#endif

/// The command line's one door to the C library: files, standard streams, terminals,
/// processes, threads and clocks. Every call that can be interrupted by a signal is retried.
enum Platform {
    /// One of the process's standard streams.
    enum Stream {
        case standardInput, standardOutput, standardError

        var descriptor: Int32 {
            switch self {
            case .standardInput: STDIN_FILENO
            case .standardOutput: STDOUT_FILENO
            case .standardError: STDERR_FILENO
            }
        }
    }

    /// Why a read or a write failed: the system's message, and whether the reader went away.
    struct Failure: Error, Equatable {
        /// The system's words for it: `No space left on device`.
        var message: String
        /// Whether the other end of a pipe was closed (`EPIPE`).
        var isBrokenPipe = false
        /// Whether the path is a directory.
        var isDirectory = false

        static func current() -> Failure {
            Failure(message: String(cString: strerror(errno)), isBrokenPipe: errno == EPIPE)
        }
    }

    // MARK: Streams and files

    /// Whether `stream` is a terminal.
    static func isTerminal(_ stream: Stream) -> Bool {
        isatty(stream.descriptor) == 1
    }

    /// Writes `bytes` whole to `stream`.
    static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to stream: Stream) throws(Failure) {
        try writeAll(bytes, to: stream.descriptor)
    }

    /// Writes `bytes` whole to `stream`.
    static func writeAll(_ bytes: [UInt8], to stream: Stream) throws(Failure) {
        try bytes.withUnsafeBufferPointer { buffer throws(Failure) in try writeAll(buffer, to: stream.descriptor) }
    }

    private static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw .current()
            }
            offset += written
        }
    }

    /// Everything in the file at `path`, or in standard input when `path` is `nil`; `nil` when
    /// there are more than `limit` bytes (reading stops there).
    static func readAll(path: String?, limit: Int) throws(Failure) -> [UInt8]? {
        let descriptor = path.map { open($0, O_RDONLY | O_CLOEXEC) } ?? STDIN_FILENO
        guard descriptor >= 0 else { throw .current() }
        defer { if path != nil { close(descriptor) } }
        var info = stat()
        if fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            throw Failure(message: "it is a directory", isDirectory: true)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .current()
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
            // `nil`: more than `limit` bytes, which the caller refuses.
            if bytes.count > limit { return nil }
        }
    }

    /// Every environment variable of the process.
    static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let pair = String(cString: entry)
            if let equals = pair.firstIndex(of: "=") {
                result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }

    /// The process's values of the environment variables `names`, leaving out those not set.
    static func environment(_ names: [String]) -> NamedValues {
        var result: NamedValues = [:]
        for name in names {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }

    /// The home folder of the account the process runs as, from the password database.
    static func accountHomeDirectory() -> String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    // MARK: Terminals

    /// The size of the terminal on standard output, if it is one.
    static func terminalSize() -> (columns: Int, lines: Int)? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    // MARK: Processes, threads and time

    /// Runs `command` with `/bin/sh -c`, its standard input fed `input`, and waits for it.
    ///
    /// - Returns: `false` when it could not be started. A command that stops reading early
    ///   ends the feeding quietly.
    static func runShell(_ command: String, environment: [String: String], input: [UInt8]) -> Bool {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], STDIN_FILENO)
        posix_spawn_file_actions_addclose(&actions, ends[1])
        var child: pid_t = 0
        let started = withCStrings(["/bin/sh", "-c", command]) { arguments in
            withCStrings(environment.map { "\($0.key)=\($0.value)" }) { variables in
                posix_spawn(&child, "/bin/sh", &actions, nil, arguments, variables)
            }
        }
        close(ends[0])
        if started == 0 {
            // The pager may be quit before it read everything: EPIPE, quietly.
            try? input.withUnsafeBufferPointer { bytes throws(Failure) in try writeAll(bytes, to: ends[1]) }
        }
        close(ends[1])
        guard started == 0 else { return false }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        return true
    }

    private static func withCStrings<T>(_ strings: [String],
                                        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> T) -> T {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
