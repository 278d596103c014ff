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

    /// Splits `text` into lines of at most `width` characters at spaces (longer words stay whole).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        lines.append(line)
        return lines
    }
}
