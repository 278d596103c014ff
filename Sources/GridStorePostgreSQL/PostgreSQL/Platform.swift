#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("unsupported platform")
#endif

/// The C library, behind one door: every libc call of the PostgreSQL backend goes through here.
enum Platform {
    /// The environment variable `name`, or `nil` when it is not set.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Waits until `socket` is readable (or writable), at most `milliseconds`, retrying when a
    /// signal interrupts the wait.
    ///
    /// - Returns: Whether the socket became ready (or failed, which the caller then reads from it).
    static func wait(for socket: Int32, writable: Bool, milliseconds: Int) -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(writable ? POLLOUT : POLLIN), revents: 0)
        let deadline = GridStore.Platform.monotonicMilliseconds() + milliseconds
        while true {
            let result = poll(&descriptor, 1, Int32(max(0, deadline - GridStore.Platform.monotonicMilliseconds())))
            if result >= 0 { return result > 0 }
            if errno != EINTR { return true }
        }
    }

    /// Waits until `socket` is readable or writable (as asked), at most until `deadline` on
    /// ``GridStore.Platform.monotonicMilliseconds()``, retrying when a signal interrupts the wait.
    ///
    /// - Returns: Whether it is readable and whether it is writable (both `false` when the
    ///   deadline passed), or `nil` when the wait itself failed.
    static func wait(for socket: Int32, readable: Bool, writable: Bool, until deadline: Int) -> (readable: Bool, writable: Bool)? {
        var events: Int16 = 0
        if readable { events |= Int16(POLLIN) }
        if writable { events |= Int16(POLLOUT) }
        var descriptor = pollfd(fd: socket, events: events, revents: 0)
        while true {
            let result = poll(&descriptor, 1, Int32(clamping: max(0, deadline - GridStore.Platform.monotonicMilliseconds())))
            if result == 0 { return (false, false) }
            if result > 0 {
                // An error or hang-up is reported as ready: the read or write that follows says what happened.
                let failed = descriptor.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
                return (descriptor.revents & Int16(POLLIN) != 0 || failed, descriptor.revents & Int16(POLLOUT) != 0 || failed)
            }
            if errno != EINTR { return nil }
        }
    }

    /// Shuts a socket down both ways, so the peer sees the connection closed at once.
    static func shutDown(socket: Int32) {
        _ = shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Loads the first of `names` that the dynamic linker finds.
    static func openLibrary(_ names: [String]) -> UnsafeMutableRawPointer? {
        names.lazy.compactMap { dlopen($0, RTLD_NOW | RTLD_LOCAL) }.first
    }

    /// The address of `name` in `library`.
    static func symbol(_ name: String, in library: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        dlsym(library, name)
    }

    /// Hands `strings` to C as a NUL-terminated array for the length of `body`.
    static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
        var pointers: [UnsafePointer<CChar>?] = strings.map { UnsafePointer(strdup($0)) } + [nil]
        defer { pointers.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        return pointers.withUnsafeMutableBufferPointer { body(UnsafePointer($0.baseAddress!)) }
    }

    /// Hands `parameters` to libpq for the length of `body`: their values (a null pointer for
    /// `NULL`), their lengths and their formats (0 text, 1 binary), or null pointers for none.
    static func withParameters<T>(_ parameters: [PostgreSQLParameter],
                                  _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T) -> T {
        guard !parameters.isEmpty else { return body(nil, nil, nil) }
        var lengths: [Int32] = [], formats: [Int32] = []
        let pointers: [UnsafePointer<CChar>?] = parameters.map { parameter in
            switch parameter {
            case .text(let value):
                lengths.append(0)
                formats.append(0)
                return value.map { UnsafePointer(strdup($0)) } ?? nil
            case .binary(let bytes):
                lengths.append(Int32(bytes.count))
                formats.append(1)
                let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
                UnsafeMutableRawBufferPointer(start: copy, count: bytes.count).copyBytes(from: bytes)
                return UnsafePointer(copy)
            }
        }
        defer {
            for (pointer, parameter) in zip(pointers, parameters) {
                if case .binary = parameter { pointer?.deallocate() } else { free(UnsafeMutablePointer(mutating: pointer)) }
            }
        }
        return pointers.withUnsafeBufferPointer { values in
            lengths.withUnsafeBufferPointer { lengths in
                formats.withUnsafeBufferPointer { formats in body(values.baseAddress, lengths.baseAddress, formats.baseAddress) }
            }
        }
    }
}
