/// A value of an XML property list.
indirect enum PropertyListValue: Equatable {
    case string(String)
    /// `<integer>`, `<real>` and `<date>`, kept as their text.
    case scalar(kind: String, text: String)
    case boolean(Bool)
    /// `<data>`, kept as its base-64 text.
    case data(String)
    case array([PropertyListValue])
    /// The keys and values in document order.
    case dictionary([(key: String, value: PropertyListValue)])

    static func == (lhs: PropertyListValue, rhs: PropertyListValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): a == b
        case let (.scalar(k1, t1), .scalar(k2, t2)): k1 == k2 && t1 == t2
        case let (.boolean(a), .boolean(b)): a == b
        case let (.data(a), .data(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.dictionary(a), .dictionary(b)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        default: false
        }
    }
}

/// A malformed property list: what is wrong and on which line.
struct PropertyListError: Error, Equatable, CustomStringConvertible {
    var message: String
    var line: Int

    var description: String { "line \(line): \(message)" }
}

/// Reads property lists, the format Foundation's `UserDefaults` writes: XML (Apple's
/// `PropertyList-1.0.dtd`, a `<plist>` holding one value), or binary (`bplist00`, read by
/// ``BinaryPropertyListReader``), which is what an iOS app's preferences file is.
struct PropertyListReader {
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var position = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The property list's top value.
    static func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        if bytes.starts(with: BinaryPropertyListReader.magic) {
            return try BinaryPropertyListReader.read(bytes)
        }
        if bytes.starts(with: Array("bplist".utf8)) {
            throw PropertyListError(message: "this binary property list is not of version 00, the one gridstore reads", line: 1)
        }
        var reader = PropertyListReader(bytes)
        if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.position = 3 }
        try reader.skipMisc()
        let root = try reader.readStartTag()
        guard root.name == "plist", !root.selfClosing else {
            throw reader.error("the document's root element is <\(root.name)>, not <plist>")
        }
        try reader.skipMisc()
        let value = try reader.readValue(depth: 0)
        try reader.skipMisc()
        try reader.readEndTag("plist")
        try reader.skipMisc()
        guard reader.position == reader.bytes.count else { throw reader.error("unexpected content after </plist>") }
        return value
    }

    // MARK: Values

    private mutating func readValue(depth: Int) throws(PropertyListError) -> PropertyListValue {
        guard depth < Self.maximumDepth else { throw error("values are nested more than \(Self.maximumDepth) deep") }
        let tag = try readStartTag()
        switch tag.name {
        case "true", "false":
            if !tag.selfClosing { try skipMisc(); try readEndTag(tag.name) }
            return .boolean(tag.name == "true")
        case "string":
            return .string(tag.selfClosing ? "" : try readText(until: "string"))
        case "integer", "real", "date":
            return .scalar(kind: tag.name, text: tag.selfClosing ? "" : try readText(until: tag.name))
        case "data":
            return .data(tag.selfClosing ? "" : try readText(until: "data"))
        case "array":
            var elements: [PropertyListValue] = []
            if tag.selfClosing { return .array([]) }
            while true {
                try skipMisc()
                if try atEndTag("array") { break }
                elements.append(try readValue(depth: depth + 1))
            }
            return .array(elements)
        case "dict":
            var entries: [(key: String, value: PropertyListValue)] = []
            if tag.selfClosing { return .dictionary([]) }
            while true {
                try skipMisc()
                if try atEndTag("dict") { break }
                let keyTag = try readStartTag()
                guard keyTag.name == "key" else { throw error("expected <key> in a <dict>, found <\(keyTag.name)>") }
                let key = keyTag.selfClosing ? "" : try readText(until: "key")
                try skipMisc()
                entries.append((key, try readValue(depth: depth + 1)))
            }
            return .dictionary(entries)
        default:
            throw error("<\(tag.name)> is not a property list value")
        }
    }

    // MARK: Markup

    /// Reads `<name attributes...>` or `<name .../>`.
    private mutating func readStartTag() throws(PropertyListError) -> (name: String, selfClosing: Bool) {
        guard consume("<") else { throw error("expected an element") }
        let name = readName()
        guard !name.isEmpty else { throw error("expected an element name after '<'") }
        // Attributes are allowed (plist has version="1.0") and ignored.
        while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
            if bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") {
                let quote = bytes[position]
                position += 1
                while position < bytes.count, bytes[position] != quote { position += 1 }
            }
            position += 1
        }
        guard position < bytes.count else { throw error("<\(name) is not closed with '>'") }
        let selfClosing = bytes[position - 1] == UInt8(ascii: "/")
        position += 1
        return (name, selfClosing)
    }

    private mutating func readEndTag(_ name: String) throws(PropertyListError) {
        guard try atEndTag(name) else { throw error("expected </\(name)>") }
    }

    /// Consumes `</name>` if it is next.
    private mutating func atEndTag(_ name: String) throws(PropertyListError) -> Bool {
        guard bytes[position...].starts(with: Array("</".utf8)) else { return false }
        position += 2
        let found = readName()
        skipWhitespace()
        guard found == name, consume(">") else { throw error("expected </\(name)>, found </\(found)") }
        return true
    }

    /// Reads character data up to `</name>`, resolving entities and CDATA sections.
    private mutating func readText(until name: String) throws(PropertyListError) -> String {
        var text: [UInt8] = []
        while true {
            guard position < bytes.count else { throw error("<\(name)> is not closed") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "<") {
                if bytes[position...].starts(with: Self.cdataStart) {
                    position += Self.cdataStart.count
                    guard let end = find("]]>") else { throw error("a CDATA section is not closed") }
                    text.append(contentsOf: bytes[position..<end])
                    position = end + 3
                } else if bytes[position...].starts(with: Self.commentStart) {
                    try skipComment()
                } else {
                    try readEndTag(name)
                    break
                }
            } else if byte == UInt8(ascii: "&") {
                text.append(contentsOf: try readEntity())
            } else {
                // A run of plain text is copied whole: per-byte work made a 500 MB string take minutes.
                var end = position + 1
                while end < bytes.count && bytes[end] != UInt8(ascii: "<") && bytes[end] != UInt8(ascii: "&") { end += 1 }
                text.append(contentsOf: bytes[position..<end])
                position = end
            }
        }
        guard let string = String(validating: text, as: UTF8.self) else { throw error("text is not valid UTF-8") }
        return string
    }

    private static let cdataStart = Array("<![CDATA[".utf8)
    private static let commentStart = Array("<!--".utf8)

    private mutating func readEntity() throws(PropertyListError) -> [UInt8] {
        guard let end = bytes[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw error("'&' must start an entity such as &amp;")
        }
        let name = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
        position = end + 1
        switch name {
        case "amp": return Array("&".utf8)
        case "lt": return Array("<".utf8)
        case "gt": return Array(">".utf8)
        case "quot": return Array("\"".utf8)
        case "apos": return Array("'".utf8)
        default:
            let digits = name.hasPrefix("#x") ? (name.dropFirst(2), 16) : name.hasPrefix("#") ? (name.dropFirst(), 10) : ("", 0)
            guard digits.1 != 0, let value = UInt32(digits.0, radix: digits.1), let scalar = Unicode.Scalar(value) else {
                throw error("&\(name); is not an entity property lists use")
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    /// Skips white space, comments, processing instructions and the document type declaration.
    private mutating func skipMisc() throws(PropertyListError) {
        while true {
            skipWhitespace()
            if bytes[position...].starts(with: Array("<!--".utf8)) {
                try skipComment()
            } else if bytes[position...].starts(with: Array("<?".utf8)) {
                guard let end = find("?>") else { throw error("a processing instruction is not closed") }
                position = end + 2
            } else if bytes[position...].starts(with: Array("<!DOCTYPE".utf8)) {
                guard let end = find(">") else { throw error("the document type declaration is not closed") }
                position = end + 1
            } else {
                return
            }
        }
    }

    private mutating func skipComment() throws(PropertyListError) {
        guard let end = find("-->") else { throw error("a comment is not closed") }
        position = end + 3
    }

    private mutating func readName() -> String {
        let start = position
        while position < bytes.count, !(bytes[position] == UInt8(ascii: ">") || bytes[position] == UInt8(ascii: "/")
                                         || bytes[position] <= 0x20) {
            position += 1
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    private mutating func consume(_ text: String) -> Bool {
        let expected = Array(text.utf8)
        guard bytes[position...].starts(with: expected) else { return false }
        position += expected.count
        return true
    }

    private func find(_ text: String) -> Int? {
        let needle = Array(text.utf8)
        var index = position
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private func error(_ message: String) -> PropertyListError {
        PropertyListError(message: message, line: 1 + bytes[..<min(position, bytes.count)].lazy.filter { $0 == 0x0A }.count)
    }
}
