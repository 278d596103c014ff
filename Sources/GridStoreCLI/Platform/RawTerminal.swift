#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The last of SIGINT, SIGTERM or SIGHUP received, or 0; and whether SIGWINCH, SIGTSTP or
/// SIGCONT arrived. Set by the signal handlers, read by the editor's loop.
nonisolated(unsafe) private var receivedStopSignal: Int32 = 0
nonisolated(unsafe) private var receivedResize: Int32 = 0
nonisolated(unsafe) private var receivedSuspend: Int32 = 0
nonisolated(unsafe) private var receivedContinue: Int32 = 0

/// The terminal of a full-screen program: raw keys in, the alternate screen out, restored
/// whatever happens.
///
/// Opening it switches standard input to raw mode (no echo, no line editing, keys as they
/// come; signals still delivered), the output to the alternate screen with the cursor hidden
/// and mouse reporting on. ``restore()`` undoes all of it, and runs at most once; the editor
/// calls it on `q`, on errors and on SIGINT, SIGTERM and SIGHUP. On Ctrl-Z (SIGTSTP)
/// ``suspend()`` gives the shell its terminal back before the process stops, and takes it
/// again when `fg` continues it; after a SIGCONT from elsewhere (a SIGSTOP, say),
/// ``reenter()`` sets the terminal up again.
final class RawTerminal {
    private var saved = termios()
    private var raw = termios()
    private var isRestored = false
    private let mouse: Bool

    /// Whether standard input and standard output are both terminals.
    static var isInteractive: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    /// Switches the terminal to raw mode and the alternate screen.
    ///
    /// - Throws: ``Platform/Failure`` when the terminal's settings cannot be read or set.
    init(mouse: Bool = true) throws(Platform.Failure) {
        self.mouse = mouse
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { throw .current() }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | IGNCR)
        raw.c_oflag &= ~tcflag_t(OPOST)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { throw .current() }
        self.raw = raw
        Self.installSignalHandlers()
        enterScreen()
    }

    /// The alternate screen, a hidden cursor, and (when asked) mouse clicks and drags in SGR form.
    private func enterScreen() {
        write("\u{1B}[?1049h\u{1B}[?25l" + (mouse ? "\u{1B}[?1002h\u{1B}[?1006h" : ""))
    }

    /// The normal screen and cursor, and no mouse reports.
    private func leaveScreen() {
        write((mouse ? "\u{1B}[?1006l\u{1B}[?1002l" : "") + "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
    }

    /// Whether Ctrl-Z (SIGTSTP) asked the program to stop since the last call.
    func takeSuspend() -> Bool {
        defer { receivedSuspend = 0 }
        return receivedSuspend != 0
    }

    /// Whether the process was continued (SIGCONT) since the last call.
    func takeContinue() -> Bool {
        defer { receivedContinue = 0 }
        return receivedContinue != 0
    }

    /// Gives the terminal back as it was, stops the process as Ctrl-Z does, and when it is
    /// continued (`fg`) takes the terminal again: raw mode and the alternate screen. The
    /// caller redraws.
    func suspend() {
        guard !isRestored else { return }
        leaveScreen()
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        // Here again after SIGCONT.
        signal(SIGTSTP) { _ in receivedSuspend = 1 }
        reenter()
    }

    /// Sets the terminal up again (raw mode, the alternate screen), as after being continued:
    /// the shell may have changed its settings meanwhile. The caller redraws.
    func reenter() {
        guard !isRestored else { return }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        enterScreen()
    }

    deinit { restore() }

    /// Puts the terminal back as it was: the normal screen, the cursor, the settings.
    func restore() {
        guard !isRestored else { return }
        isRestored = true
        leaveScreen()
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
    }

    /// Writes `text` to the terminal now.
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        write(bytes: &bytes)
    }

    /// Writes `bytes` to the terminal now.
    func write(bytes: inout [UInt8]) {
        try? bytes.withUnsafeBufferPointer { buffer throws(Platform.Failure) in try Platform.writeAll(buffer, to: .standardOutput) }
    }

    /// The bytes that arrive within `milliseconds` (empty when none, or when a signal came).
    func read(waitingAtMost milliseconds: Int) -> [UInt8] {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(milliseconds)) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { systemRead(STDIN_FILENO, $0.baseAddress, $0.count) }
        // End of input (the terminal is gone): as if the user quit.
        if count == 0 { return [UInt8(ascii: "q")] }
        return count > 0 ? Array(buffer[0..<count]) : []
    }

    /// The signal that asks the program to stop (SIGINT, SIGTERM, SIGHUP), if one came.
    var stopSignal: Int32? { receivedStopSignal == 0 ? nil : receivedStopSignal }

    /// Whether the terminal was resized since the last call.
    func takeResize() -> Bool {
        defer { receivedResize = 0 }
        return receivedResize != 0
    }

    /// The terminal's size: columns and lines.
    var size: (columns: Int, lines: Int) { Platform.terminalSize() ?? (80, 24) }

    private static func installSignalHandlers() {
        for stop in [SIGINT, SIGTERM, SIGHUP] {
            signal(stop) { received in receivedStopSignal = received }
        }
        signal(SIGWINCH) { _ in receivedResize = 1 }
        signal(SIGTSTP) { _ in receivedSuspend = 1 }
        signal(SIGCONT) { _ in receivedContinue = 1 }
        // A parent may have started this process with them blocked; they must reach the handlers.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for handled in [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT] { sigaddset(&unblocked, handled) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }
}

/// `read(2)`, under a name the terminal's own `read` does not hide.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
