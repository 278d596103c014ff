/// One `CREATE` or `DROP` of a schema object (a table, index, view or trigger) in a migration's SQL.
///
/// gridstore's SQLite schema check expects a file to hold exactly the objects its applied
/// migrations leave. The `MigrationEmbedder` plugin reads the edits of the migrations it
/// compiles in at build time, so that no open reads their SQL for them.
package struct SchemaEdit: Hashable, Sendable {
    /// Whether the statement creates the object (`CREATE`) or removes it (`DROP`).
    package var creates: Bool
    /// The object's type: `table`, `index`, `view` or `trigger`.
    package var type: String
    /// The object's name, without quotes.
    package var name: String

    /// Creates an edit.
    package init(creates: Bool, type: String, name: String) {
        self.creates = creates
        self.type = type
        self.name = name
    }

    /// The edits of `sql`, in order: every `CREATE [UNIQUE] TABLE|INDEX|VIEW|TRIGGER [IF NOT EXISTS]
    /// name` and `DROP TABLE|INDEX|VIEW|TRIGGER [IF EXISTS] name` outside `--` comments.
    ///
    /// - Complexity: O(*n*) in the SQL's bytes.
    package static func edits(of sql: String) -> [SchemaEdit] {
        var sql = sql
        return sql.withUTF8 { bytes in
            let words = Self.words(of: bytes)
            func isWord(_ index: Int, _ lowercase: StaticString) -> Bool { Self.isWord(bytes, words[index], lowercase) }
            var edits: [SchemaEdit] = []
            for index in words.indices {
                let creates = isWord(index, "create")
                guard creates || isWord(index, "drop") else { continue }
                var next = index + 1
                if creates, next < words.count, isWord(next, "unique") { next += 1 }
                guard next < words.count, let type = Self.kinds.first(where: { isWord(next, $0) }).map({ "\($0)" }) else { continue }
                next += 1
                if creates, next + 2 < words.count, isWord(next, "if"), isWord(next + 1, "not") { next += 3 }
                if !creates, next + 1 < words.count, isWord(next, "if"), isWord(next + 1, "exists") { next += 2 }
                guard next < words.count else { continue }
                let name = bytes[words[next]].filter { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "`") }
                edits.append(SchemaEdit(creates: creates, type: type, name: String(decoding: name, as: UTF8.self)))
            }
            return edits
        }
    }

    /// Where the words of SQL text are, split at white space and punctuation, without `--` comments.
    private static func words(of bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var words: [Range<Int>] = []
        var start = -1
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "-"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "-") {
                if start >= 0 { words.append(start..<index) }
                start = -1
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            }
            let separates = byte == 32 || (9...13).contains(byte) || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ";")
                || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ")")
            if separates {
                if start >= 0 { words.append(start..<index) }
                start = -1
            } else if start < 0 {
                start = index
            }
            index += 1
        }
        if start >= 0 { words.append(start..<bytes.count) }
        return words
    }

    /// The kinds of object a CREATE statement makes.
    private static let kinds: [StaticString] = ["table", "index", "view", "trigger"]

    /// Whether the word at `range` of `bytes` is `lowercase`, ignoring ASCII case.
    private static func isWord(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ lowercase: StaticString) -> Bool {
        guard range.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        for offset in 0..<range.count where bytes[range.lowerBound + offset] | 0x20 != expected[offset] {
            return false
        }
        return true
    }
}
