import GridStore

/// The JSON every command prints with `--format json`: one encoder for every result, which is
/// `Encodable`.
///
/// Objects keep their keys in the order the value encodes them (a synthesized `encode(to:)`
/// encodes its stored properties in declaration order); an optional that is `nil` is written
/// as `null` (a result that leaves a key out writes its own `encode(to:)`). Strings are
/// escaped so the text is safe to show in a terminal: control characters, C1 and bidirectional
/// controls included, are written as `\u` escapes.
enum JSONOutput {
    /// Where the text breaks lines.
    enum Layout {
        /// On one line.
        case compact
        /// Each element of a list of objects that is a member of the outermost object on a
        /// line of its own, after a space: lists of grids, entries, conflicts.
        case listsOnLines
    }

    /// `value` as one line of JSON (or more, as `layout` says), ending with a newline.
    ///
    /// - Complexity: O(*n*) for the *n* values `value` encodes.
    static func text(_ value: some Encodable, layout: Layout = .compact) -> String {
        let root = JSONNode()
        do {
            try value.encode(to: JSONNodeEncoder(node: root, codingPath: []))
        } catch {
            // The results are made of strings, integers, booleans and lists: nothing throws.
            preconditionFailure("a command's result could not be encoded: \(error)")
        }
        var text = ""
        root.write(to: &text, depth: 0, layout: layout)
        return text + "\n"
    }

    /// `text` as a JSON string literal, quotes included.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where GridLimits.isControlCharacter(scalar):
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// One value of the JSON being built: unset until a container or a single value is encoded into it.
private final class JSONNode {
    enum Kind {
        case unset
        /// A number, `true`, `false`, `null` or a quoted string: ``literal``, written as it is.
        case literal
        /// An object of ``members``, in the order they were first encoded.
        case object
        /// An array of ``elements``.
        case array
    }

    private(set) var kind = Kind.unset
    private(set) var literal = ""
    private(set) var members: [(key: String, node: JSONNode)] = []
    private(set) var elements: [JSONNode] = []

    /// Makes this node `text`, whatever it was.
    func set(literal text: String) {
        reset(to: .literal)
        literal = text
    }

    /// Makes this node `kind`, empty, whatever it was: a value encoded again for its key replaces the one before.
    func reset(to kind: Kind) {
        self.kind = kind
        literal = ""
        members.removeAll()
        elements.removeAll()
    }

    /// The node of `key` in this object (this node made an object when it is not one), emptied
    /// when it was there: the value encoded for a key last is the one written.
    ///
    /// - Complexity: O(*m*) for the object's *m* members (a result's objects have few).
    func member(_ key: String) -> JSONNode {
        if kind != .object { reset(to: .object) }
        if let found = members.first(where: { $0.key == key }) {
            found.node.reset(to: .unset)
            return found.node
        }
        let node = JSONNode()
        members.append((key, node))
        return node
    }

    /// A new last element of this array (this node made an array when it is not one).
    ///
    /// - Complexity: Amortized O(1).
    func appended() -> JSONNode {
        if kind != .array { reset(to: .array) }
        let node = JSONNode()
        elements.append(node)
        return node
    }

    func write(to text: inout String, depth: Int, layout: JSONOutput.Layout) {
        switch kind {
        case .unset: text += "null"
        case .literal: text += literal
        case .object:
            text += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { text += "," }
                text += JSONOutput.quoted(member.key) + ":"
                member.node.write(to: &text, depth: depth + 1, layout: layout)
            }
            text += "}"
        case .array:
            // Lists of objects in the outermost object: one element a line.
            let separator = layout == .listsOnLines && depth == 1 && elements.allSatisfy({ $0.kind == .object }) ? ",\n " : ","
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += separator }
                element.write(to: &text, depth: depth + 1, layout: layout)
            }
            text += "]"
        }
    }
}

/// Encodes a value into a ``JSONNode``.
private struct JSONNodeEncoder: Encoder {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.kind != .object { node.reset(to: .object) }
        return KeyedEncodingContainer(JSONKeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.kind != .array { node.reset(to: .array) }
        return JSONUnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleValueContainer(node: node, codingPath: codingPath)
    }
}

/// The literal text of a value that encodes as one, or `nil` for one that encodes itself.
private func literal(_ value: some Encodable, codingPath: [any CodingKey]) throws -> String? {
    switch value {
    case let string as String: return JSONOutput.quoted(string)
    case let bool as Bool: return bool ? "true" : "false"
    case let integer as any BinaryInteger: return "\(integer)"
    case let number as Float:
        guard number.isFinite else {
            throw EncodingError.invalidValue(number, EncodingError.Context(codingPath: codingPath, debugDescription: "not a finite number"))
        }
        return number == number.rounded() && abs(number) < 1e7 ? String(Int(number)) : String(number)
    case let number as Double:
        guard number.isFinite else {
            throw EncodingError.invalidValue(number, EncodingError.Context(codingPath: codingPath, debugDescription: "not a finite number"))
        }
        return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    default: return nil
    }
}

/// Writes `value` into `node`.
private func encodeValue(_ value: some Encodable, into node: JSONNode, codingPath: [any CodingKey]) throws {
    if let text = try literal(value, codingPath: codingPath) {
        node.set(literal: text)
    } else {
        try value.encode(to: JSONNodeEncoder(node: node, codingPath: codingPath))
    }
}

private struct JSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).set(literal: "null") }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encodeValue(value, into: node.member(key.stringValue), codingPath: codingPath + [key])
    }

    /// An optional that is nil is written as null, not left out: every `encodeIfPresent` of the
    /// protocol comes here (those it leaves to its defaults would leave the key out).
    private mutating func encodeOrNull<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try encodeOrNull(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOrNull(value, forKey: key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOrNull(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOrNull(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOrNull(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOrNull(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOrNull(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOrNull(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOrNull(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOrNull(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOrNull(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOrNull(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOrNull(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOrNull(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOrNull(value, forKey: key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let member = node.member(key.stringValue)
        member.reset(to: .object)
        return KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(node: member, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let member = node.member(key.stringValue)
        member.reset(to: .array)
        return JSONUnkeyedContainer(node: member, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        JSONNodeEncoder(node: node.member("super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        JSONNodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

/// The key of an array's element, in a coding path.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct JSONUnkeyedContainer: UnkeyedEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var count: Int { node.elements.count }

    mutating func encodeNil() throws { node.appended().set(literal: "null") }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [IndexKey(count)]
        try encodeValue(value, into: node.appended(), codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = codingPath + [IndexKey(count)]
        let element = node.appended()
        element.reset(to: .object)
        return KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(node: element, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [IndexKey(count)]
        let element = node.appended()
        element.reset(to: .array)
        return JSONUnkeyedContainer(node: element, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = codingPath + [IndexKey(count)]
        return JSONNodeEncoder(node: node.appended(), codingPath: path)
    }
}

private struct JSONSingleValueContainer: SingleValueEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.set(literal: "null") }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encodeValue(value, into: node, codingPath: codingPath)
    }
}
