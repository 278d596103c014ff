/// The identity of one database that takes part in sync: 128 random bits, minted when the
/// database is created, written as 32 lowercase hexadecimal digits.
///
/// Every change a database makes is stamped with its replica id, so two databases never make
/// changes that look alike; a copy of a database file must take an id of its own before it
/// changes anything (see docs/sync.md).
public struct ReplicaID: Hashable, Comparable, Sendable, CustomStringConvertible {
    let high: UInt64
    let low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// A new id from the system's random number generator.
    public static func random() -> ReplicaID {
        var generator = EntityIDGenerator()
        return random(using: &generator)
    }

    /// A new id from `generator` (a seeded one makes tests repeatable).
    static func random(using generator: inout some RandomNumberGenerator) -> ReplicaID {
        ReplicaID(high: generator.next(), low: generator.next())
    }

    /// The id written as `text`: exactly 32 lowercase hexadecimal digits; `nil` for anything else.
    public init?(_ text: String) {
        var text = text
        guard let (high, low) = text.withUTF8({ digits -> (UInt64, UInt64)? in
            guard digits.count == 32, let high = Self.parseHex(UnsafeBufferPointer(rebasing: digits[0..<16])),
                  let low = Self.parseHex(UnsafeBufferPointer(rebasing: digits[16..<32])) else { return nil }
            return (high, low)
        }) else { return nil }
        self.init(high: high, low: low)
    }

    /// The 32 lowercase hexadecimal digits.
    public var description: String { Self.hex(high) + Self.hex(low) }

    public static func < (lhs: ReplicaID, rhs: ReplicaID) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }

    /// 16 lowercase hexadecimal digits of `value`, zeros in front.
    static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for position in 0..<16 {
                let digit = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * position)) & 0xF
                buffer[position] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
            }
            return 16
        }
    }

    /// The value of up to 16 lowercase hexadecimal digits; `nil` when one is not such a digit.
    static func parseHex(_ digits: some Collection<UInt8>) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(digit - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return value
    }
}

extension ReplicaID {
    /// How gridstore shows the replica to a person: `Anna's iPad (replica 1f…)` with the name its
    /// database goes by, else `replica 1f…`.
    func label(named name: String?) -> String { name.map { "\($0) (replica \(self))" } ?? "replica \(self)" }
}
