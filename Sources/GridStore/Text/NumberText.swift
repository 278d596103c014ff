import GridLayout

/// Numbers and rectangles as gridstore's JSON, SVG and text outputs print them.
package enum NumberText {
    /// `value` rounded to at most `decimals` decimals, without trailing zeros: `60`, `57.11`.
    package static func number(_ value: Double, decimals: Int = 2) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }

    /// `value` as the shortest text that reads back as exactly `value`: `60`, `60.00004`,
    /// `1e-05`. For stored values, which a document must carry bit for bit.
    package static func exact(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return value.description
    }

    /// `x,y,w,h`.
    package static func rect(_ rect: LayoutRect) -> String {
        [rect.minX, rect.minY, rect.size.width, rect.size.height].map { number($0) }.joined(separator: ",")
    }

    /// `count` with thousands separated by commas: `1,000,000`.
    package static func count(_ count: Int) -> String {
        let digits = Array(String(count.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return (count < 0 ? "-" : "") + text
    }
}
