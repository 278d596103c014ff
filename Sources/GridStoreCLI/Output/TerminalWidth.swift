#if canImport(Glibc)
import Glibc
#endif

/// How wide text output may be: `$COLUMNS` when it is a positive number, else the width of
/// the terminal standard output is, else 80.
enum TerminalWidth {
    /// The fallback when neither `$COLUMNS` nor a terminal says: the classic terminal's width.
    static let fallback = 80

    /// The narrowest width honoured: below it, drawings would say nothing.
    static let minimum = 20

    static func current(environment: [String: String]) -> Int {
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 {
            return max(minimum, columns)
        }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return max(minimum, Int(size.ws_col))
        }
        return fallback
    }

    /// The number of lines of the terminal on standard output, if it is one.
    static func terminalLines() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }
}
