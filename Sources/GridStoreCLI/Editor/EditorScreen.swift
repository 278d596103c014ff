import GridLayout
import GridStore

/// One screen of the editor: lines of characters, each with an attribute, written out with
/// the fewest escape codes; and where each tile landed, so a mouse click can find it.
package struct EditorScreen {
    /// A character's look: inverse video, and the color of a tile label by its size.
    struct Attribute: Equatable {
        var inverse = false
        var size: TileSize?
    }

    let width: Int
    let height: Int
    private var characters: [[Character]]
    private var attributes: [[Attribute]]

    init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        characters = Array(repeating: Array(repeating: " ", count: self.width), count: self.height)
        attributes = Array(repeating: Array(repeating: Attribute(), count: self.width), count: self.height)
    }

    /// Writes `text` at `line` from `column` (both from 0), cut at the screen's edge.
    mutating func put(_ text: String, line: Int, column: Int, attribute: Attribute = Attribute()) {
        guard line >= 0, line < height else { return }
        var position = column
        for character in text {
            guard position < width else { break }
            if position >= 0 {
                characters[line][position] = character
                attributes[line][position] = attribute
            }
            position += 1
        }
    }

    /// Gives the characters from `column` on `line`, `count` of them, `attribute`'s inverse video.
    mutating func invert(line: Int, columns: Range<Int>) {
        guard line >= 0, line < height else { return }
        for column in columns where column >= 0 && column < width { attributes[line][column].inverse = true }
    }

    /// Fills a whole line with inverse video (a status bar).
    mutating func bar(_ text: String, line: Int) {
        put(String(text.prefix(width)) + String(repeating: " ", count: max(0, width - text.count)), line: line, column: 0,
            attribute: Attribute(inverse: true))
    }

    /// The screen as bytes: from the top left, every line, with colors only when `useColor`.
    package func encoded(useColor: Bool) -> [UInt8] {
        var text = "\u{1B}[H"
        for line in 0..<height {
            var current = Attribute()
            for column in 0..<width {
                var attribute = attributes[line][column]
                if !useColor { attribute.size = nil }
                if attribute != current {
                    text += "\u{1B}[0" + (attribute.inverse ? ";7" : "") + (attribute.size.map { ";" + Self.color($0) } ?? "") + "m"
                    current = attribute
                }
                text.append(characters[line][column])
            }
            if current != Attribute() { text += "\u{1B}[0m" }
            if line < height - 1 { text += "\r\n" }
        }
        return Array(text.utf8)
    }

    /// The same colors as the text and SVG drawings: blue, green, yellow.
    private static func color(_ size: TileSize) -> String {
        switch size {
        case .small: "34"
        case .middle: "32"
        case .big: "33"
        }
    }

    /// The screen's text without escapes, one line each: what tests compare.
    package var plainLines: [String] { characters.map { String($0) } }
}
