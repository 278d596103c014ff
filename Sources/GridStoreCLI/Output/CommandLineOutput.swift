/// Small helpers for tabular and one-line output.
enum CommandLineOutput {
    /// Rows as aligned columns separated by two spaces; with a `width`, columns are left out in
    /// `dropping` order until the table fits, and then the first column's cells are cut with `…`.
    static func table(_ rows: [[String]], rightAligned: Set<Int> = [], width: Int? = nil, dropping: [Int] = []) -> String {
        guard let first = rows.first else { return "" }
        func widths(_ rows: [[String]]) -> [Int] {
            rows[0].indices.map { column in rows.map { DisplayWidth.columns(of: $0[column]) }.max() ?? 0 }
        }
        let all = widths(rows)
        func total(_ kept: [Int]) -> Int { kept.map { all[$0] }.reduce(0, +) + 2 * (kept.count - 1) }
        var kept = Array(first.indices)
        if let width {
            for column in dropping where total(kept) > width { kept.removeAll { $0 == column } }
        }
        var rows = rows.map { row in kept.map { row[$0] } }
        let rightAligned = Set(kept.enumerated().compactMap { rightAligned.contains($0.element) ? $0.offset : nil })
        if let width {
            let excess = total(kept) - width
            if excess > 0 {
                let room = max(2, all[kept[0]] - excess)
                rows = rows.map { row in
                    var row = row
                    row[0] = DisplayWidth.truncated(row[0], fitting: room)
                    return row
                }
            }
        }
        let widths = widths(rows)
        return rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - DisplayWidth.columns(of: cell))
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
