import Foundation

/// Where another thread or process waits, read from `/proc`: a test waits for the event (a
/// thread asleep in SQLite's busy handler while another connection holds the lock it wants)
/// instead of guessing how long it takes to get there.
public enum KernelWait {
    /// The calling thread's folder in `/proc` (`/proc/<pid>/task/<tid>`); `nil` without `/proc`.
    public static func currentThread() -> String? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self") else { return nil }
        return "/proc/" + target
    }

    /// A process's folder in `/proc`, for its main thread.
    public static func process(_ id: Int32) -> String { "/proc/\(id)" }

    /// Waits until the thread or process at `path` sleeps in a timed wait (its `wchan` is the
    /// kernel's nanosleep, as `usleep` and SQLite's busy handler leave it), at most
    /// `timeoutSeconds`.
    ///
    /// - Returns: Whether it did.
    public static func waitUntilSleeping(_ path: String, timeoutSeconds: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            if let wchan = try? String(contentsOfFile: path + "/wchan", encoding: .utf8), wchan.contains("nanosleep") { return true }
            usleep(1_000)
        }
        return false
    }
}
