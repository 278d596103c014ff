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

    /// Sleeps for `milliseconds`.
    static func sleep(milliseconds: Int) {
        var request = timespec(tv_sec: milliseconds / 1_000, tv_nsec: (milliseconds % 1_000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// A monotonic clock, in milliseconds.
    static func monotonicMilliseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec * 1_000 + time.tv_nsec / 1_000_000
    }

    /// Waits until `socket` is readable (or writable), at most `milliseconds`, retrying when a
    /// signal interrupts the wait.
    ///
    /// - Returns: Whether the socket became ready (or failed, which the caller then reads from it).
    static func wait(for socket: Int32, writable: Bool, milliseconds: Int) -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(writable ? POLLOUT : POLLIN), revents: 0)
        let deadline = monotonicMilliseconds() + milliseconds
        while true {
            let result = poll(&descriptor, 1, Int32(max(0, deadline - monotonicMilliseconds())))
            if result >= 0 { return result > 0 }
            if errno != EINTR { return true }
        }
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

    /// Hands `strings` to C as an array with a null pointer for each `nil`, for the length of `body`.
    static func withOptionalCStrings<T>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
        guard !strings.isEmpty else { return body(nil) }
        let pointers: [UnsafePointer<CChar>?] = strings.map { $0.map { UnsafePointer(strdup($0)) } ?? nil }
        defer { pointers.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
