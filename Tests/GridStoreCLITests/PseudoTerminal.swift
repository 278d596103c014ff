import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal with `gridstore` running in it, as a person's terminal would run it:
/// keys go in, the screen's bytes come out.
final class PseudoTerminal {
    let process: ChildProcess
    private let master: Int32
    private var output: [UInt8] = []

    /// Starts `gridstore` with `arguments` in a terminal of `columns` by `lines`.
    init(_ arguments: [String], columns: Int = 80, lines: Int = 24, environment: [String: String] = [:]) throws {
        var master: Int32 = -1, slave: Int32 = -1
        var size = winsize(ws_row: UInt16(lines), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw POSIXError(.EIO) }
        self.master = master
        var merged = ProcessInfo.processInfo.environment
        merged["TERM"] = "xterm-256color"
        merged["GRIDSTORE_DB"] = nil
        for (name, value) in environment { merged[name] = value }
        defer { close(slave) }   // the child has its own copies
        do {
            process = try ChildProcess(program: CommandRunner.executable.path, arguments: arguments, environment: merged, terminal: slave)
        } catch {
            close(master)
            throw error
        }
    }

    deinit {
        process.send(SIGTERM)
        close(master)
    }

    /// Sends `text` as typed (escape sequences included).
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads what arrives until `predicate` holds for everything read so far, or `seconds` pass.
    @discardableResult
    func waitFor(seconds: Double = 5, _ predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if predicate(text) { return true }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 50) > 0 {
                var buffer = [UInt8](repeating: 0, count: 65536)
                let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                if count > 0 { output += buffer[0..<count] } else if count == 0 || errno != EINTR { if !process.isRunning { break } }
            }
        }
        return predicate(text)
    }

    /// Everything the program wrote so far.
    var text: String { String(decoding: output, as: UTF8.self) }

    /// Forgets what was read, so the next wait looks only at new output.
    func clear() { output = [] }

    /// Waits for the program to end and returns its exit status.
    func exitStatus(seconds: Double = 5) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline {
            waitFor(seconds: 0.05) { _ in false }
        }
        if process.isRunning { return nil }
        // What the program wrote just before it ended may still be in the terminal: read to its end.
        waitFor(seconds: 0.2) { _ in false }
        return process.wait().status
    }
}
