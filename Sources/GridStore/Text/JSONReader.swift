/// A malformed JSON document: what is wrong and where.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// The 1-based line and column of the problem.
    public var line: Int
    /// The 1-based column (in bytes) of the problem.
    public var column: Int

    /// `line 3, column 14: …`.
    public var description: String { "line \(line), column \(column): \(message)" }

    package init(message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }
}

/// Reads a JSON document (RFC 8259) value by value, without building a tree.
///
/// Import documents can hold a million items; reading them straight into the values the
/// importer needs keeps memory proportional to the result, not to the text. Every read
/// checks the grammar, so a malformed document fails with its line and column. An object that
/// names a key twice is refused: which of the two values counts is not defined by RFC 8259,
/// and readers disagree.
///
/// ```swift
/// var reader = JSONReader(bytes)
/// try reader.beginObject()
/// while let key = try reader.nextKey() {
///     if key == "name" { name = try reader.readString() } else { try reader.skipValue() }
/// }
/// try reader.expectEnd()
/// ```
package struct JSONReader {
    /// The kinds of JSON values.
    package enum Kind: String {
        case object, array, string, number, boolean, null
    }

    /// How deeply arrays and objects may nest.
    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var position = 0
    /// The open arrays and objects, innermost last, each with whether a member was read yet.
    private var containers: [(isObject: Bool, started: Bool)] = []
    /// The keys read so far of each open object, innermost last.
    private var objectKeys: [ObjectKeys] = []

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // A byte order mark is allowed to be ignored (RFC 8259, section 8.1).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    // MARK: Structure

    /// The kind of the next value.
    package mutating func peekKind() throws(JSONError) -> Kind {
        skipWhitespace()
        guard position < bytes.count else { throw error("the document ends where a value was expected") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .boolean
        case UInt8(ascii: "n"): return .null
        default: throw error("unexpected character \(describe(bytes[position])) where a value was expected")
        }
    }

    /// Consumes `{`.
    package mutating func beginObject() throws(JSONError) {
        try expectKind(.object)
        try open()
    }

    /// Consumes the next key and its colon, or the closing `}` (returning `nil`).
    package mutating func nextKey() throws(JSONError) -> String? {
        skipWhitespace()
        guard position < bytes.count else { throw error("the document ends before an object is closed with '}'") }
        if consume(UInt8(ascii: "}")) {
            containers.removeLast()
            objectKeys.removeLast()
            return nil
        }
        if containers[containers.count - 1].started {
            guard consume(UInt8(ascii: ",")) else { throw error("expected ',' or '}' after an object member") }
            skipWhitespace()
        }
        containers[containers.count - 1].started = true
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            throw error("expected a quoted key")
        }
        let start = position
        let key = try readString()
        guard objectKeys[objectKeys.count - 1].insert(key) else {
            position = start
            throw error("the key \(JSONText.quoted(TextExcerpt.abbreviated(key))) appears twice in one object")
        }
        skipWhitespace()
        guard consume(UInt8(ascii: ":")) else { throw error("expected ':' after the key \"\(key)\"") }
        return key
    }

    /// Consumes `[`.
    package mutating func beginArray() throws(JSONError) {
        try expectKind(.array)
        try open()
    }

    /// Prepares to read the next element, or consumes the closing `]` (returning `false`).
    package mutating func nextElement() throws(JSONError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw error("the document ends before an array is closed with ']'") }
        if consume(UInt8(ascii: "]")) {
            containers.removeLast()
            return false
        }
        if containers[containers.count - 1].started {
            guard consume(UInt8(ascii: ",")) else { throw error("expected ',' or ']' after an array element") }
        }
        containers[containers.count - 1].started = true
        return true
    }

    /// Checks that nothing but white space follows the document's value.
    package mutating func expectEnd() throws(JSONError) {
        skipWhitespace()
        guard position == bytes.count else { throw error("unexpected text after the document's end") }
    }

    // MARK: Values

    /// Reads `true` or `false`.
    package mutating func readBoolean() throws(JSONError) -> Bool {
        try expectKind(.boolean)
        let value = bytes[position] == UInt8(ascii: "t")
        try skipLiteral()
        return value
    }

    /// Reads a `null` and returns `true` when one is next; else reads nothing and returns `false`.
    package mutating func isNull() throws(JSONError) -> Bool {
        guard try peekKind() == .null else { return false }
        try skipLiteral()
        return true
    }

    /// Reads a string.
    package mutating func readString() throws(JSONError) -> String {
        try expectKind(.string)
        position += 1
        // Most strings have no escapes: they become a String straight from the document's bytes.
        var end = position
        var allBits: UInt8 = 0
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
            allBits |= bytes[end]
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let start = position
            position = end + 1
            // ASCII is valid UTF-8 as it stands; anything else is validated.
            let string = bytes.withUnsafeBufferPointer { buffer in
                let text = UnsafeBufferPointer(rebasing: buffer[start..<end])
                return allBits < 0x80 ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
            }
            guard let string else { throw error("a string is not valid UTF-8") }
            return string
        }
        var result: [UInt8] = []
        var runStart = position
        while true {
            guard position < bytes.count else { throw error("a string is not closed") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                result.append(contentsOf: bytes[runStart..<position])
                position += 1
                break
            }
            if byte < 0x20 { throw error("a control character must be escaped in a string") }
            if byte == UInt8(ascii: "\\") {
                result.append(contentsOf: bytes[runStart..<position])
                try readEscape(into: &result)
                runStart = position
                continue
            }
            position += 1
        }
        guard let string = String(validating: result, as: UTF8.self) else {
            throw error("a string is not valid UTF-8")
        }
        return string
    }

    /// Reads a whole number; fractions, exponents and values beyond 64 bits are refused.
    package mutating func readInteger() throws(JSONError) -> Int {
        try expectKind(.number)
        let start = position
        let negative = consume(UInt8(ascii: "-"))
        var value = 0
        var digits = 0
        var overflow = false
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            let digit = Int(bytes[position] - UInt8(ascii: "0"))
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            overflow = overflow || o1 || o2
            value = sum
            digits += 1
            position += 1
        }
        guard digits > 0 else { throw error("a number needs digits") }
        if digits > 1 && bytes[start + (negative ? 1 : 0)] == UInt8(ascii: "0") {
            position = start
            throw error("a number cannot have leading zeros")
        }
        if position < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[position]) {
            position = start
            throw error("expected a whole number")
        }
        if overflow {
            position = start
            throw error("the number is too large")
        }
        return value
    }

    /// Reads a number, which may have a fraction and an exponent.
    package mutating func readNumber() throws(JSONError) -> Double {
        try expectKind(.number)
        let start = position
        try skipNumber()
        guard let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)), value.isFinite else {
            position = start
            throw error("the number is out of range")
        }
        return value
    }

    /// Skips one value of any kind, however nested.
    package mutating func skipValue() throws(JSONError) {
        let depth = containers.count
        repeat {
            switch try peekKind() {
            case .object:
                try beginObject()
            case .array:
                try beginArray()
            case .string:
                _ = try readString()
            case .number:
                try skipNumber()
            case .boolean, .null:
                try skipLiteral()
            }
            // Close every container that ends here, then move to the next member or element.
            while containers.count > depth {
                if containers[containers.count - 1].isObject {
                    if try nextKey() != nil { break }
                } else if try nextElement() {
                    break
                }
            }
        } while containers.count > depth
    }

    // MARK: Helpers

    private mutating func open() throws(JSONError) {
        guard containers.count < Self.maximumDepth else {
            throw error("arrays and objects are nested more than \(Self.maximumDepth) deep")
        }
        let isObject = bytes[position] == UInt8(ascii: "{")
        containers.append((isObject: isObject, started: false))
        if isObject { objectKeys.append(ObjectKeys()) }
        position += 1
    }

    private mutating func expectKind(_ kind: Kind) throws(JSONError) {
        let actual = try peekKind()
        guard actual == kind else { throw error("expected \(article(kind)) \(kind.rawValue), found \(article(actual)) \(actual.rawValue)") }
    }

    private func article(_ kind: Kind) -> String {
        kind == .object || kind == .array ? "an" : "a"
    }

    private mutating func readEscape(into result: inout [UInt8]) throws(JSONError) {
        position += 1
        guard position < bytes.count else { throw error("a string is not closed") }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""): result.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): result.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): result.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): result.append(0x08)
        case UInt8(ascii: "f"): result.append(0x0C)
        case UInt8(ascii: "n"): result.append(0x0A)
        case UInt8(ascii: "r"): result.append(0x0D)
        case UInt8(ascii: "t"): result.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHexQuad()
            if (0xD800...0xDBFF).contains(scalar) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                else { throw error("a \\u escape has a high surrogate without its low surrogate") }
                position += 2
                let low = try readHexQuad()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("a \\u escape has an invalid low surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("a \\u escape has a low surrogate without its high surrogate")
            }
            result.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
        default:
            position -= 2
            let shown = (0x21...0x7E).contains(escape) ? String(Character(Unicode.Scalar(escape))) : "(byte 0x\(String(escape, radix: 16)))"
            throw error("\\\(shown) is not a JSON escape")
        }
    }

    private mutating func readHexQuad() throws(JSONError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("a \\u escape needs four hexadecimal digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("a \\u escape needs four hexadecimal digits")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private mutating func skipNumber() throws(JSONError) {
        _ = consume(UInt8(ascii: "-"))
        let integerStart = position
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        guard position > integerStart else { throw error("a number needs digits") }
        if position - integerStart > 1 && bytes[integerStart] == UInt8(ascii: "0") { throw error("a number cannot have leading zeros") }
        if consume(UInt8(ascii: ".")) {
            let fractionStart = position
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            guard position > fractionStart else { throw error("a number needs digits after its decimal point") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            let exponentStart = position
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            guard position > exponentStart else { throw error("a number needs digits in its exponent") }
        }
    }

    private mutating func skipLiteral() throws(JSONError) {
        for literal in ["true", "false", "null"] {
            let text = Array(literal.utf8)
            if bytes[position...].starts(with: text) {
                position += text.count
                return
            }
        }
        throw error("expected true, false or null")
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    /// Where the next value starts (after white space), for errors about it found later.
    package mutating func mark() -> Int {
        skipWhitespace()
        return position
    }

    /// An error at the current position.
    package func error(_ message: String) -> JSONError {
        error(message, at: position)
    }

    /// An error at `offset`, a position from ``mark()``.
    package func error(_ message: String, at offset: Int) -> JSONError {
        let position = min(offset, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<position where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: bytes[lineStart..<position], as: UTF8.self).count + 1
        return JSONError(message: message, line: line, column: column)
    }
}

/// The keys of one JSON object read so far: a list while it is short (most objects have a
/// few keys, and a set for each would cost a million-item document a million allocations),
/// a set once it is long (so a hostile object of many keys is not checked in quadratic time).
private struct ObjectKeys {
    private var few: [String] = []
    private var many: Set<String>?

    /// Adds `key`, returning `false` when the object has it already.
    mutating func insert(_ key: String) -> Bool {
        if many != nil { return many!.insert(key).inserted }
        if few.contains(key) { return false }
        few.append(key)
        if few.count > 16 {
            many = Set(few)
            few = []
        }
        return true
    }
}
