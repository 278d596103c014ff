/// Builds the text form of a one-dimensional PostgreSQL array (`{1,2,3}`, `{"a","b"}`), so a
/// batch of rows travels as a few bound parameters and one statement (`unnest($1::int[], …)`)
/// instead of one round trip per row.
///
/// ```swift
/// var items = PostgreSQLArrayLiteral()
/// items.append(3)
/// items.append(7)
/// items.text   // "{3,7}"
/// ```
package struct PostgreSQLArrayLiteral {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]

    package init() {}

    /// Appends an integer element.
    package mutating func append(_ value: Int) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Appends a floating-point element, written so that it reads back exactly.
    package mutating func append(_ value: Double) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Appends a text element, quoted, with `"` and `\` escaped.
    package mutating func append<Text: Sequence<UInt8>>(text utf8: Text) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        for byte in utf8 {
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The array's text.
    package var text: String { String(decoding: bytes + [UInt8(ascii: "}")], as: UTF8.self) }
}
