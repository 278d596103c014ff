/// The lengths of a grid's placement chunks as a change's header query returns them:
/// `section:first_item:bytes` for each chunk, separated by commas (empty when there are none).
///
/// A server's answer is input: text that is not exactly that form gives no entries, and the
/// change reads the chunks' lengths with a query of their own instead.
struct ChunkSizeList {
    /// The chunks, or `nil` when the text was not in the expected form.
    let entries: [(section: Int, firstItem: Int, byteCount: Int)]?

    init(_ text: String) {
        var entries: [(section: Int, firstItem: Int, byteCount: Int)] = []
        for chunk in text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) where !text.isEmpty {
            let fields = chunk.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            guard fields.count == 3, let section = Self.number(fields[0]), let firstItem = Self.number(fields[1]),
                  let byteCount = Self.number(fields[2]) else {
                self.entries = nil
                return
            }
            entries.append((section, firstItem, byteCount))
        }
        self.entries = entries
    }

    /// A non-negative decimal number of at most 18 digits.
    private static func number(_ digits: Substring.UTF8View.SubSequence) -> Int? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }
}
