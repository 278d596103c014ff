/// How wide text output may be: `$COLUMNS` when it is a positive number, else the width of
/// the terminal standard output is, else 80.
enum TerminalWidth {
    /// The fallback when neither `$COLUMNS` nor a terminal says: the classic terminal's width.
    static let fallback = 80

    /// The narrowest width a drawing is made for: below it, a drawing is one line saying so
    /// (``tooNarrow(_:)``), since a headline and a grid's cells would say nothing.
    static let minimum = 20

    /// The width, at least 1.
    static func current(environment: NamedValues) -> Int {
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 {
            return columns
        }
        return Platform.terminalSize().map { max(1, $0.columns) } ?? fallback
    }

    /// What a drawing says instead when the width is below ``minimum``.
    static func tooNarrow(_ width: Int) -> String {
        "(\(width) columns are too narrow to draw in; gridstore draws at \(minimum) or more)"
    }

    /// The number of lines of the terminal on standard output, if it is one.
    static func terminalLines() -> Int? {
        Platform.terminalSize()?.lines
    }
}
