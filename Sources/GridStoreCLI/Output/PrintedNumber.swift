import GridLayout

/// Numbers and rectangles as the command line draws and prints them.
enum PrintedNumber {
    /// `value` rounded to at most `decimals` decimals, without trailing zeros: `60`, `57.11`.
    static func text(_ value: Double, decimals: Int = 2) -> String {
        let scale = (0..<decimals).reduce(1.0) { scale, _ in scale * 10 }
        let rounded = (value * scale).rounded() / scale
        guard rounded != rounded.rounded() || abs(rounded) >= 1e15 else { return String(Int(rounded)) }
        return String(rounded)
    }

    /// `x,y,w,h`.
    static func rect(_ rect: LayoutRect) -> String {
        [rect.minX, rect.minY, rect.size.width, rect.size.height].map { text($0) }.joined(separator: ",")
    }

    /// `count` with its thousands set apart by commas: `1,000,000`.
    static func count(_ count: Int) -> String {
        var groups: [String] = []
        var rest = count.magnitude
        repeat {
            let group = String(rest % 1_000)
            rest /= 1_000
            groups.insert(rest > 0 ? String(repeating: "0", count: 3 - group.count) + group : group, at: 0)
        } while rest > 0
        return (count < 0 ? "-" : "") + groups.joined(separator: ",")
    }
}
