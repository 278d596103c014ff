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
        return Platform.terminalSize().map { max(minimum, $0.columns) } ?? fallback
    }

    /// The number of lines of the terminal on standard output, if it is one.
    static func terminalLines() -> Int? {
        Platform.terminalSize()?.lines
    }
}
