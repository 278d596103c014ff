/// Where an item sits among the items of its section, or a section among the sections: a
/// fraction between 0 and 1 written in base 62 (`0`–`9`, `A`–`Z`, `a`–`z`) after the point,
/// without trailing zeros, so two keys compare as their texts do.
///
/// There is always a key between two others, so an item is inserted or moved by writing its
/// own key alone; items with one key (inserted at one place on two replicas) are ordered by
/// their ids, the same way on every replica.
struct OrderKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The digits' ASCII characters.
    let text: [UInt8]

    /// The longest key gridstore writes or reads; a key that would be longer makes the
    /// section's keys be written again, evenly spaced.
    static let maximumLength = 96

    private static let base = 62

    /// The key written as `text`; `nil` unless it is 1 to ``maximumLength`` base-62 digits, the last not `0`.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maximumLength, bytes.last != UInt8(ascii: "0"),
              bytes.allSatisfy({ Self.digitValue($0) != nil }) else { return nil }
        self.text = bytes
    }

    private init(digits: [Int]) {
        var digits = digits
        while digits.last == 0 { digits.removeLast() }
        text = digits.map(Self.character)
    }

    var description: String { String(decoding: text, as: UTF8.self) }

    static func < (lhs: OrderKey, rhs: OrderKey) -> Bool {
        order(lhs, rhs) < 0
    }

    /// Negative when `lhs` sorts first, zero when the keys are equal, positive otherwise: one
    /// pass over the digits, where a tuple's `<` compares them for equality first.
    static func order(_ lhs: OrderKey, _ rhs: OrderKey) -> Int {
        lhs.text.withUnsafeBufferPointer { left in
            rhs.text.withUnsafeBufferPointer { right in
                for index in 0..<min(left.count, right.count) where left[index] != right[index] {
                    return left[index] < right[index] ? -1 : 1
                }
                return left.count - right.count
            }
        }
    }

    /// The key of the item at `index` of a section whose keys are written evenly spaced
    /// (its first sync, or a section whose keys grew too long): `index + 1` in four digits.
    static func spaced(_ index: Int) -> OrderKey {
        var digits = [Int](repeating: 0, count: 4)
        var rest = index + 1
        for position in (0..<4).reversed() {
            digits[position] = rest % base
            rest /= base
        }
        precondition(rest == 0, "a section holds fewer than 62^4 items")
        return OrderKey(digits: digits)
    }

    /// A key after `lower` and before `upper`, either of which may be missing (no bound).
    /// Short where it can be: after the last key it counts on by one in the key's own length.
    ///
    /// - Precondition: `lower < upper` when both are given.
    static func between(_ lower: OrderKey?, _ upper: OrderKey?) -> OrderKey {
        let low = lower?.digits ?? []
        if let lower, upper == nil {
            // Count on by one in the last of at least four digits, carrying: appends keep
            // keys of four digits for millions of items.
            var digits = low + [Int](repeating: 0, count: max(0, 4 - low.count))
            var position = digits.count - 1
            while position >= 0 {
                if digits[position] < base - 1 {
                    digits[position] += 1
                    return OrderKey(digits: Array(digits[...position]))
                }
                position -= 1
            }
            return OrderKey(digits: lower.digits + [base / 2])
        }
        let high = upper?.digits
        if lower == nil, let high {
            // Count back by one, when that leaves a key above zero.
            var digits = high
            if let last = digits.indices.last, digits[last] > 1 || digits.dropLast().contains(where: { $0 > 0 }) {
                digits[last] -= 1
                let candidate = OrderKey(digits: digits)
                if !candidate.text.isEmpty { return candidate }
            }
        }
        precondition(upper == nil || lower == nil || lower! < upper!, "an order key between \(lower!) and \(upper!)")
        var result: [Int] = []
        var bounded = high != nil
        var position = 0
        while true {
            let below = position < low.count ? low[position] : 0
            let above = bounded ? (position < high!.count ? high![position] : 0) : base
            if above - below >= 2 {
                result.append((below + above) / 2)
                return OrderKey(digits: result)
            }
            result.append(below)
            if above - below == 1 { bounded = false }
            position += 1
        }
    }

    private var digits: [Int] { text.map { Self.digitValue($0)! } }

    private static func character(_ digit: Int) -> UInt8 {
        switch digit {
        case 0..<10: UInt8(ascii: "0") + UInt8(digit)
        case 10..<36: UInt8(ascii: "A") + UInt8(digit - 10)
        default: UInt8(ascii: "a") + UInt8(digit - 36)
        }
    }

    private static func digitValue(_ character: UInt8) -> Int? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(character - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(character - UInt8(ascii: "A")) + 10
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(character - UInt8(ascii: "a")) + 36
        default: nil
        }
    }
}
