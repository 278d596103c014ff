/// Refuses a database file that holds schema objects gridstore's migrations did not create.
///
/// A database file is input: someone may plant a trigger that rewrites sizes or deletes grids
/// inside gridstore's own transactions, or one that never ends. gridstore compares the file's
/// `sqlite_schema` with the objects its applied migrations create before it runs anything
/// else, and refuses the file, untouched, naming what it found.
///
/// A file that holds an app's own tables too (an app's database gridstore was embedded in, or
/// a gridstore file whose ledger records an app's migrations) may hold objects gridstore did
/// not create, as long as none is attached to gridstore's tables: a trigger or index on one
/// of them is refused all the same, since it would run inside gridstore's transactions.
enum SQLiteSchemaCheck {
    /// A schema object: its type (`table`, `index`, `view`, `trigger`) and name.
    struct Object: Hashable, Comparable {
        var type: String
        var name: String

        static func < (lhs: Object, rhs: Object) -> Bool { (lhs.type, lhs.name) < (rhs.type, rhs.name) }
    }

    /// Objects SQLite or gridstore itself adds, which no migration names.
    static func isBuiltIn(_ object: Object) -> Bool {
        object.name == MigrationRunner.ledgerTable
            || (object.type == "index" && object.name.hasPrefix("sqlite_autoindex_"))
            || (object.type == "table" && ["sqlite_sequence", "sqlite_stat1", "sqlite_stat4"].contains(object.name))
    }

    /// Throws unless the file holds the objects that `applied` create, and the built-in ones;
    /// with `sharedWithApp`, others too, as long as none is attached to a table `applied` creates.
    ///
    /// - Throws: ``DatabaseFileError/unexpectedSchema(path:found:missing:)``.
    static func verify(_ connection: SQLiteConnection, applied: [Migration], sharedWithApp: Bool = false) throws {
        let expected = objects(after: applied)
        // Tables and views: a trigger on a view of gridstore's is gridstore's business too.
        let gridStoreTables = Set(expected.filter { $0.type == "table" || $0.type == "view" }.map(\.name))
        let found = try connection.fetchAll("SELECT type, name, tbl_name FROM sqlite_schema") {
            (object: Object(type: $0.string(at: 0), name: $0.string(at: 1)), table: $0.string(at: 2))
        }
        let unexpected = found.filter { entry in
            guard !expected.contains(entry.object), !isBuiltIn(entry.object) else { return false }
            // An app's own object, which touches none of gridstore's tables.
            return !(sharedWithApp && !gridStoreTables.contains(entry.table))
        }.map(\.object).sorted()
        let missing = expected.subtracting(found.map(\.object)).sorted()
        guard unexpected.isEmpty && missing.isEmpty else {
            throw DatabaseFileError.unexpectedSchema(path: connection.path, found: unexpected.map { "\($0.type) \($0.name)" },
                                                     missing: missing.map { "\($0.type) \($0.name)" })
        }
    }

    /// The objects that exist after `migrations` ran, in order: each creates what its
    /// `CREATE` statements name and removes what its `DROP` statements name.
    static func objects(after migrations: [Migration]) -> Set<Object> {
        migrations.reduce(into: Set<Object>()) { objects, migration in apply(migration.sql, to: &objects) }
    }

    /// The objects a migration's SQL creates: every `CREATE [UNIQUE] TABLE|INDEX|VIEW|TRIGGER
    /// [IF NOT EXISTS] name` outside `--` comments, less those it drops again.
    static func objects(createdBy sql: String) -> Set<Object> {
        var objects = Set<Object>()
        apply(sql, to: &objects)
        return objects
    }

    /// Adds to `objects` what `sql` creates and removes what it drops (`DROP TABLE|INDEX|VIEW|TRIGGER
    /// [IF EXISTS] name`), statement by statement, outside `--` comments.
    ///
    /// - Complexity: O(*n*) in the SQL's bytes; it runs at every open, so it reads bytes, not characters.
    static func apply(_ sql: String, to objects: inout Set<Object>) {
        var sql = sql
        sql.withUTF8 { bytes in
            let words = Self.words(of: bytes)
            func isWord(_ index: Int, _ lowercase: StaticString) -> Bool { Self.isWord(bytes, words[index], lowercase) }
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
                let object = Object(type: type, name: String(decoding: name, as: UTF8.self))
                if creates { objects.insert(object) } else { objects.remove(object) }
            }
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
