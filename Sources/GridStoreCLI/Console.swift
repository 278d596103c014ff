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

    /// Writes what was collected to the process's standard output and standard error.
    func flush() {
        Self.writeAll(standardOutputBytes, to: STDOUT_FILENO)
        var error = standardError
        error.withUTF8 { Self.writeAll($0, to: STDERR_FILENO) }
        standardOutputBytes = []
        standardError = ""
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBufferPointer { writeAll($0, to: descriptor) }
    }

    private static func writeAll(_ buffer: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
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
