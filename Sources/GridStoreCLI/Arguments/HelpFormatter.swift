/// Lays out two-column help rows.
enum HelpFormatter {
    /// Rows of `  <left>   <right>`, with the right column aligned, wrapped to fit `width`
    /// columns, and long left cells on a line of their own.
    static func rows(_ rows: [(String, String)], width: Int = 80) -> String {
        // The right column starts at 26, as swift-argument-parser's does, or nearer on a narrow terminal.
        let column = min(26, max(6, width / 3))
        let indent = String(repeating: " ", count: column)
        var text = ""
        for (left, right) in rows {
            let cell = "  " + left
            let lines = wrap(right, width: width - column)
            if cell.count < column - 1 {
                text += cell + String(repeating: " ", count: column - cell.count) + lines[0] + "\n"
            } else {
                text += cell + "\n" + indent + lines[0] + "\n"
            }
            for line in lines.dropFirst() { text += indent + line + "\n" }
        }
        return text
    }

    /// `label` and `parts` joined by spaces, wrapped to `width` between parts: continuation
    /// lines start under the part after the first `leading` ones (`gridstore init`), or at
    /// eight columns where that leaves too little room; a part longer than a line is cut.
    static func wrapParts(_ parts: [String], label: String, leading: Int, width: Int) -> String {
        let head = label + parts.prefix(leading).joined(separator: " ")
        let indentWidth = DisplayWidth.columns(of: head) + 1 <= width / 2 ? DisplayWidth.columns(of: head) + 1 : min(8, width / 4)
        let indent = String(repeating: " ", count: indentWidth)
        var lines: [String] = []
        var line = head
        for part in parts.dropFirst(leading) {
            if DisplayWidth.columns(of: line) + 1 + DisplayWidth.columns(of: part) <= width {
                line += " " + part
                continue
            }
            lines.append(line)
            var pieces = wrap(part, width: max(1, width - indentWidth))
            line = indent + pieces.removeFirst()
            for piece in pieces {
                lines.append(line)
                line = indent + piece
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// Splits `text` into lines of at most `width` terminal columns at spaces; a word longer
    /// than a line is cut into pieces that fit.
    static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var line = ""
        var used = 0
        for word in text.split(separator: " ") {
            var word = String(word)
            if !line.isEmpty && used + 1 + DisplayWidth.columns(of: word) > width {
                lines.append(line)
                line = ""
                used = 0
            }
            // A word longer than a whole line: cut at the line's end (a wide character that
            // does not fit a line of one column goes whole).
            while line.isEmpty && DisplayWidth.columns(of: word) > width {
                var piece = DisplayWidth.prefix(word, fitting: width)
                if piece.isEmpty { piece = String(word.unicodeScalars.first!) }
                lines.append(piece)
                word = String(word.unicodeScalars.dropFirst(piece.unicodeScalars.count))
            }
            line += line.isEmpty ? word : " " + word
            used = DisplayWidth.columns(of: line)
        }
        lines.append(line)
        return lines
    }
}
