import Foundation

/// A stand-in for a PostgreSQL server that is shutting down as a client connects: on a Unix
/// socket of its own, it answers each startup with "authenticated", then the warning a real
/// server sends when it is stopped at once (a NoticeResponse), then a FATAL error, and hangs up.
///
/// libpq prints such a notice on standard error unless the client installed a receiver before
/// the server spoke, so a command connecting here must fail in one line and print no warning.
final class StartupNoticeServer: @unchecked Sendable {
    // @unchecked: `listener` is set once in init; the accepting thread only reads it.
    /// The folder holding the socket: a libpq `host`.
    let directory: String
    /// The port in the socket's name (`.s.PGSQL.<port>`).
    let port: Int
    private let listener: Int32

    /// Listens on `directory/.s.PGSQL.<port>` and answers every connection until the process ends.
    init(directory: String, port: Int) throws {
        self.directory = directory
        self.port = port
        let path = directory + "/.s.PGSQL.\(port)"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard listener >= 0, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw StartupNoticeServerError(description: "cannot make a socket at \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 && listen(listener, 16) == 0
            }
        }
        guard bound else { throw StartupNoticeServerError(description: "cannot listen at \(path)") }
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }
                Self.answer(client)
                close(client)
            }
        }
    }

    deinit {
        // A thread blocked in accept wakes only on shutdown, not on close.
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Reads the startup message, then sends AuthenticationOk, the warning and a FATAL error.
    private static func answer(_ client: Int32) {
        var length = [UInt8](repeating: 0, count: 4)
        guard read(client, &length, 4) == 4 else { return }
        var remaining = Int(length[0]) << 24 | Int(length[1]) << 16 | Int(length[2]) << 8 | Int(length[3]) - 4
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while remaining > 0 {
            let got = read(client, &buffer, min(buffer.count, remaining))
            if got <= 0 { return }
            remaining -= got
        }
        var reply: [UInt8] = [UInt8(ascii: "R"), 0, 0, 0, 8, 0, 0, 0, 0]
        reply += message("N", severity: "WARNING", code: "57P01",
                         text: "terminating connection due to immediate shutdown command")
        reply += message("E", severity: "FATAL", code: "57P01", text: "terminating connection due to administrator command")
        _ = reply.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
    }

    /// A NoticeResponse or ErrorResponse of `type` with its severity, SQLSTATE and message.
    private static func message(_ type: Character, severity: String, code: String, text: String) -> [UInt8] {
        var fields: [UInt8] = []
        for (field, value) in [("S", severity), ("V", severity), ("C", code), ("M", text)] {
            fields += Array(field.utf8) + Array(value.utf8) + [0]
        }
        fields.append(0)
        let length = UInt32(fields.count + 4)
        return [type.asciiValue!] + withUnsafeBytes(of: length.bigEndian) { Array($0) } + fields
    }
}

/// Why a ``StartupNoticeServer`` could not start.
struct StartupNoticeServerError: Error, CustomStringConvertible {
    let description: String
}
