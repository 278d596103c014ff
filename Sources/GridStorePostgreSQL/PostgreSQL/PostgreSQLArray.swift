/// A one-dimensional PostgreSQL array in its binary form, so a batch of rows travels as a few
/// bound parameters of one statement (`unnest($1::bigint[], $2::text[])`) instead of one round
/// trip per row, and the server copies each element rather than parsing the array's text.
///
/// ```swift
/// var items = PostgreSQLArray(of: .bigint)
/// items.append(3)
/// items.append(7)
/// connection.enqueue("… unnest($1::bigint[]) …", parameters: [items.parameter])
/// ```
///
/// The statement's cast must name the same type (`bigint[]`, `float8[]`, `text[]`): the server
/// refuses an array of another element type.
package struct PostgreSQLArray {
    /// The type of the elements, with its object id in `pg_type`.
    package enum Element: UInt32 {
        case bigint = 20
        case text = 25
        case float8 = 701
    }

    package let element: Element
    private var count: UInt32 = 0
    private var elements: [UInt8] = []

    package init(of element: Element) {
        self.element = element
    }

    /// Appends an integer (of a `bigint[]`).
    package mutating func append(_ value: Int) {
        precondition(element == .bigint, "an integer in an array of \(element)")
        appendLength(8)
        appendBigEndian(UInt64(bitPattern: Int64(value)))
    }

    /// Appends a floating-point number exactly (of a `float8[]`).
    package mutating func append(_ value: Double) {
        precondition(element == .float8, "a number in an array of \(element)")
        appendLength(8)
        appendBigEndian(value.bitPattern)
    }

    /// Appends a text element (of a `text[]`): its UTF-8 bytes as they are.
    package mutating func append<Text: Collection<UInt8>>(text utf8: Text) {
        precondition(element == .text, "a text in an array of \(element)")
        appendLength(utf8.count)
        elements.append(contentsOf: utf8)
    }

    /// The array as a statement's parameter.
    package var parameter: PostgreSQLParameter {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20 + elements.count)
        // Dimensions (none for an empty array), no nulls, the element type, then each dimension's length and lower bound.
        for word in [count == 0 ? 0 : 1, 0, element.rawValue] { bytes += Self.bigEndian(word) }
        if count > 0 { bytes += Self.bigEndian(count) + Self.bigEndian(UInt32(1)) }
        return .binary(bytes + elements)
    }

    private mutating func appendLength(_ length: Int) {
        count += 1
        elements += Self.bigEndian(UInt32(length))
    }

    private mutating func appendBigEndian(_ value: UInt64) {
        withUnsafeBytes(of: value.bigEndian) { elements.append(contentsOf: $0) }
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }
}

/// A statement's parameter as sent.
package enum PostgreSQLParameter: Sendable, Equatable, ExpressibleByStringLiteral {
    /// A value in PostgreSQL's text form; `nil` for `NULL`.
    case text(String?)
    /// A value in PostgreSQL's binary form (an array's, from ``PostgreSQLArray``).
    case binary([UInt8])

    package init(stringLiteral value: String) {
        self = .text(value)
    }
}
