/// Lays out two-column help rows.
enum HelpFormatter {
    /// Rows of `  <left>   <right>`, with the right column aligned, wrapped to fit 80
    /// columns, and long left cells on a line of their own.
    static func rows(_ rows: [(String, String)]) -> String {
        let column = 26
        let indent = String(repeating: " ", count: column)
        var text = ""
        for (left, right) in rows {
            let cell = "  " + left
            let lines = wrap(right, width: 80 - column)
            if cell.count < column - 1 {
                text += cell + String(repeating: " ", count: column - cell.count) + lines[0] + "\n"
            } else {
                text += cell + "\n" + indent + lines[0] + "\n"
            }
            for line in lines.dropFirst() { text += indent + line + "\n" }
        }
        return text
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
