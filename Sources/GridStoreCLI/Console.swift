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
    /// What the command printed for standard output.
    private(set) var standardOutput = ""
    /// What the command printed for standard error.
    private(set) var standardError = ""
    /// The environment variables the command sees.
    let environment: [String: String]

    init(environment: [String: String]) {
        self.environment = environment
    }

    /// Appends `text` to standard output.
    func write(_ text: String) {
        standardOutput += text
    }

    /// Appends `text` to standard error.
    func writeError(_ text: String) {
        standardError += text
    }

    /// Writes what was collected to the process's standard output and standard error.
    func flush() {
        Self.writeAll(standardOutput, to: STDOUT_FILENO)
        Self.writeAll(standardError, to: STDERR_FILENO)
        standardOutput = ""
        standardError = ""
    }

    private static func writeAll(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { buffer in
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
