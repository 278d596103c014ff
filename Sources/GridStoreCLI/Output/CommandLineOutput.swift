/// Small helpers for tabular and one-line output.
enum CommandLineOutput {
    /// Rows as aligned columns separated by two spaces.
    static func table(_ rows: [[String]], rightAligned: Set<Int> = []) -> String {
        guard let first = rows.first else { return "" }
        let widths = first.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if column == row.count - 1 && !rightAligned.contains(column) { return cell }
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// A user's text with control characters escaped, so it cannot break a line or a table.
    static func printable(_ text: String) -> String {
        GridStoreCommandLine.singleLine(text)
    }
}
