/// How many terminal columns text takes: East Asian wide and full-width characters and most
/// emoji take two, combining marks and zero-width characters none, everything else one.
///
/// A close reading of Unicode's East Asian Width property for the ranges that occur in names
/// and keys, not the whole table: enough that a drawing never runs past the terminal's edge.
///
/// ```swift
/// DisplayWidth.columns(of: "grid")   // 4
/// DisplayWidth.columns(of: "表示")    // 4
/// ```
enum DisplayWidth {
    /// The columns `text` takes on a terminal.
    ///
    /// - Complexity: O(*n*), where *n* is the number of Unicode scalars in `text`.
    static func columns(of text: some StringProtocol) -> Int {
        var total = 0
        for scalar in text.unicodeScalars { total += columns(of: scalar) }
        return total
    }

    /// The columns one scalar takes: 0, 1 or 2.
    static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return 1 }
        if isZeroWidth(value) { return 0 }
        return isWide(value) ? 2 : 1
    }

    /// The longest prefix of `text` that fits `width` columns.
    static func prefix(_ text: String, fitting width: Int) -> String {
        var result = ""
        var used = 0
        for scalar in text.unicodeScalars {
            let next = columns(of: scalar)
            guard used + next <= width else { break }
            used += next
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// `text` as it is when it fits `width` columns, else its longest prefix that leaves room
    /// for `…`, with `…`.
    static func truncated(_ text: String, fitting width: Int) -> String {
        columns(of: text) <= width ? text : prefix(text, fitting: max(0, width - 1)) + "…"
    }

    private static func isZeroWidth(_ value: UInt32) -> Bool {
        (0x300...0x36F).contains(value) || (0x200B...0x200F).contains(value) || (0xFE00...0xFE0F).contains(value)
            || (0x1AB0...0x1AFF).contains(value) || (0x1DC0...0x1DFF).contains(value) || (0x20D0...0x20FF).contains(value)
            || (0xE0100...0xE01EF).contains(value) || value == 0x2060 || value == 0xFEFF
    }

    private static func isWide(_ value: UInt32) -> Bool {
        (0x1100...0x115F).contains(value) || (0x2E80...0x303E).contains(value) || (0x3041...0x33FF).contains(value)
            || (0x3400...0x4DBF).contains(value) || (0x4E00...0x9FFF).contains(value) || (0xA000...0xA4CF).contains(value)
            || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value) || (0xFE30...0xFE4F).contains(value)
            || (0xFF00...0xFF60).contains(value) || (0xFFE0...0xFFE6).contains(value) || (0x1F000...0x1F02F).contains(value)
            || (0x1F0A0...0x1F0FF).contains(value) || (0x1F18E...0x1F1FF).contains(value) || (0x1F200...0x1F2FF).contains(value)
            || (0x1F300...0x1F64F).contains(value) || (0x1F680...0x1F6FF).contains(value) || (0x1F7E0...0x1F7FF).contains(value)
            || (0x1F900...0x1F9FF).contains(value) || (0x1FA70...0x1FAFF).contains(value) || (0x2600...0x27BF).contains(value)
            || (0x2B00...0x2BFF).contains(value) || (0x20000...0x3FFFD).contains(value)
    }
}
