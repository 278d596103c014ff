#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the stop-signal handler removes and says, prepared before it is armed: a signal handler
/// may only call functions safe in one (`unlink`, `write`, `_exit`), and allocates nothing.
nonisolated(unsafe) private var interruptPaths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
nonisolated(unsafe) private var interruptPathCount = 0
nonisolated(unsafe) private var interruptMessage: UnsafeMutablePointer<CChar>?
nonisolated(unsafe) private var interruptMessageLength = 0
/// The handlers the signals had before ``InterruptCleanup/arm(removing:message:)``, put back by ``InterruptCleanup/disarm()``.
nonisolated(unsafe) private var previousHandlers: [(signal: Int32, handler: sighandler_t?)] = []

/// A long command stopped by Ctrl-C (SIGINT), SIGTERM or SIGHUP: it says so in one line, removes
/// the database files it made (with SQLite's `-wal`, `-shm` and `-journal` beside them), and
/// exits with 128 plus the signal's number. Work already committed stays; a transaction cut
/// short is rolled back by the database, as after a crash.
enum InterruptCleanup {
    /// Arms the handler: on a stop signal, removes the files at `paths` (files this command made),
    /// writes `message` and a line break on standard error (on a terminal, over a progress line),
    /// and exits. A signal the process was started ignoring (`nohup`, a background job) stays ignored.
    static func arm(removing paths: [String], message: String) {
        disarm()
        let files = databaseFiles(paths)
        let list = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: max(files.count, 1))
        for (index, file) in files.enumerated() { list[index] = strdup(file) }
        let line = (Platform.isTerminal(.standardError) ? "\r\u{1B}[K" : "") + "gridstore: " + message + "\n"
        interruptPaths = list
        interruptPathCount = files.count
        interruptMessage = strdup(line)
        interruptMessageLength = line.utf8.count
        for stop in [SIGINT, SIGTERM, SIGHUP] {
            let previous = signal(stop) { received in
                for index in 0..<interruptPathCount { if let path = interruptPaths?[index] { unlink(path) } }
                if let interruptMessage { _ = write(STDERR_FILENO, interruptMessage, interruptMessageLength) }
                _exit(128 + received)
            }
            previousHandlers.append((stop, previous))
            if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { signal(stop, SIG_IGN) }
        }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for stop in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&unblocked, stop) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }

    /// Removes the database files at `paths`, with SQLite's files beside them: files a command made
    /// before it failed.
    static func remove(_ paths: [String]) {
        for file in databaseFiles(paths) { unlink(file) }
    }

    /// Each database file at `paths`, and SQLite's files beside it.
    private static func databaseFiles(_ paths: [String]) -> [String] {
        paths.flatMap { [$0, $0 + "-wal", $0 + "-shm", $0 + "-journal"] }
    }

    /// Puts the handlers from before back and frees what the handler held.
    static func disarm() {
        for (stop, handler) in previousHandlers { signal(stop, handler) }
        previousHandlers = []
        guard let list = interruptPaths else { return }
        for index in 0..<interruptPathCount { free(list[index]) }
        list.deallocate()
        free(interruptMessage)
        interruptPaths = nil
        interruptPathCount = 0
        interruptMessage = nil
        interruptMessageLength = 0
    }
}
