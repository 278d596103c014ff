#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command's output goes: collected in memory, written out once at the end.
///
/// Collecting keeps a large grid's output to a single write and lets tests read
/// exactly what a command printed.
final class Console {
    /// What the command printed for standard output, as UTF-8.
    private(set) var standardOutputBytes: [UInt8] = []
    /// What the command printed for standard error.
    private(set) var standardError = ""
    /// The environment variables the command sees.
    let environment: [String: String]
    /// Whether standard output goes through the pager when it is a terminal and the output is
    /// taller than it (see ``Pager``).
    var pagesLongOutput = false

    init(environment: [String: String]) {
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
        let outputError = Self.writeAll(standardOutputBytes, to: STDOUT_FILENO)
        var error = standardError
        let errorError = error.withUTF8 { Self.writeAll($0, to: STDERR_FILENO) }
        standardOutputBytes = []
        standardError = ""
        if let code = outputError {
            return code == EPIPE ? .brokenPipe : .failed(stream: "standard output", reason: String(cString: strerror(code)))
        }
        if let code = errorError, code != EPIPE {
            return .failed(stream: "standard error", reason: String(cString: strerror(code)))
        }
        return .written
    }

    /// Writes `bytes` whole, retrying interrupted writes.
    ///
    /// - Returns: The `errno` of a failed write, or `nil`.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBufferPointer { writeAll($0, to: descriptor) }
    }

    private static func writeAll(_ buffer: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    /// Writes one line to standard error, ignoring failure: for the last word when output failed.
    static func writeErrorLine(_ line: String) {
        _ = writeAll(Array((line + "\n").utf8), to: STDERR_FILENO)
    }

    /// The process's environment variables.
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
}
