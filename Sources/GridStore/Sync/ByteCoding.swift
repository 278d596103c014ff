/// Appends the pieces of a binary format: unsigned LEB128 integers (7 bits a byte, the low
/// bits first, the high bit set on every byte but the last), raw bytes and length-prefixed text.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func raw(_ values: some Sequence<UInt8>) { bytes.append(contentsOf: values) }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// `value` in 1 to 10 bytes.
    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// A count or an index.
    mutating func varint(_ value: Int) {
        precondition(value >= 0, "a varint is not negative")
        varint(UInt64(value))
    }

    /// `value`'s 8 bytes, the most significant first.
    mutating func fixed64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// The UTF-8 length, then the bytes.
    mutating func text(_ value: some StringProtocol) {
        varint(value.utf8.count)
        bytes.append(contentsOf: value.utf8)
    }
}

/// Reads what ``ByteWriter`` wrote, refusing anything it does not write: a varint longer than
/// 10 bytes or past 64 bits, one written in more bytes than it needs, and reads past the end.
/// Every failure names the byte it happened at.
struct ByteReader {
    /// A read that failed: what was expected, and where.
    struct Failure: Error, CustomStringConvertible {
        let message: String
        let offset: Int
        var description: String { "\(message) at byte \(offset)" }
    }

    private let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], from offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The bytes not read yet.
    var remaining: Int { bytes.count - offset }

    var isAtEnd: Bool { offset == bytes.count }

    func failure(_ message: String) -> Failure { Failure(message: message, offset: offset) }

    mutating func byte() throws(Failure) -> UInt8 {
        guard offset < bytes.count else { throw failure("the bundle ends early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func raw(_ count: Int) throws(Failure) -> ArraySlice<UInt8> {
        guard count <= remaining else { throw failure("the bundle ends early") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func varint() throws(Failure) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        for index in 0..<10 {
            let byte = try byte()
            let bits = UInt64(byte & 0x7f)
            if index == 9, byte > 1 { throw Failure(message: "a number past 64 bits", offset: start) }
            value |= bits << UInt64(7 * index)
            if byte & 0x80 == 0 {
                if byte == 0, index > 0 { throw Failure(message: "a number written in more bytes than it needs", offset: start) }
                return value
            }
        }
        throw Failure(message: "a number past 64 bits", offset: start)
    }

    /// A varint that is at most `maximum`.
    mutating func integer(atMost maximum: Int, _ what: String) throws(Failure) -> Int {
        let start = offset
        let value = try varint()
        guard maximum >= 0, value <= UInt64(maximum) else {
            throw Failure(message: maximum < 0 ? "\(what) refers to an empty table" : "\(what) is \(value), past \(maximum)", offset: start)
        }
        return Int(value)
    }

    /// A count of entries that each take at least `bytesEach` bytes: never more than the bytes
    /// left could hold, so nothing is allocated for entries a bundle does not have.
    mutating func count(_ what: String, bytesEach: Int = 1) throws(Failure) -> Int {
        let start = offset
        let value = try varint()
        guard value <= UInt64(remaining / bytesEach) else {
            throw Failure(message: "\(what) counts \(value), more than the bundle's \(remaining) bytes left hold", offset: start)
        }
        return Int(value)
    }

    mutating func fixed64() throws(Failure) -> UInt64 {
        try raw(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Length-prefixed UTF-8 of at most `maximumBytes` bytes.
    mutating func text(atMost maximumBytes: Int, _ what: String) throws(Failure) -> String {
        let length = try integer(atMost: maximumBytes, "the length of \(what)")
        let start = offset
        let slice = try raw(length)
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw Failure(message: "\(what) is not UTF-8", offset: start)
        }
        return text
    }
}
