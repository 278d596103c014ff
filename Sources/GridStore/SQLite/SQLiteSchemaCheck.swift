/// Refuses a database file that holds schema objects gridstore's migrations did not create.
///
/// A database file is input: someone may plant a trigger that rewrites sizes or deletes grids
/// inside gridstore's own transactions, or one that never ends. gridstore compares the file's
/// `sqlite_schema` with the objects its applied migrations create before it runs anything
/// else, and refuses the file, untouched, naming what it found.
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

    /// Throws unless the file holds exactly the objects that `applied` create, and the built-in ones.
    ///
    /// - Throws: ``DatabaseFileError/unexpectedSchema(path:found:missing:)``.
    static func verify(_ connection: SQLiteConnection, applied: [Migration]) throws {
        let expected = applied.reduce(into: Set<Object>()) { $0.formUnion(objects(createdBy: $1.sql)) }
        let found = try connection.fetchAll("SELECT type, name FROM sqlite_schema") {
            Object(type: $0.string(at: 0), name: $0.string(at: 1))
        }
        let unexpected = found.filter { !expected.contains($0) && !isBuiltIn($0) }.sorted()
        let missing = expected.subtracting(found).sorted()
        guard unexpected.isEmpty && missing.isEmpty else {
            throw DatabaseFileError.unexpectedSchema(path: connection.path, found: unexpected.map { "\($0.type) \($0.name)" },
                                                     missing: missing.map { "\($0.type) \($0.name)" })
        }
    }

    /// The objects a migration's SQL creates: every `CREATE [UNIQUE] TABLE|INDEX|VIEW|TRIGGER
    /// [IF NOT EXISTS] name` outside comments.
    static func objects(createdBy sql: String) -> Set<Object> {
        var words: [Substring] = []
        for line in sql.split(whereSeparator: \.isNewline) {
            let code = line.commentStart.map { line[..<$0] } ?? line[...]
            words += code.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" || $0 == ";" })
        }
        var objects = Set<Object>()
        var index = 0
        while index < words.count {
            defer { index += 1 }
            guard words[index].uppercased() == "CREATE" else { continue }
            var next = index + 1
            if next < words.count, words[next].uppercased() == "UNIQUE" { next += 1 }
            guard next < words.count else { continue }
            let type = words[next].lowercased()
            guard ["table", "index", "view", "trigger"].contains(type) else { continue }
            next += 1
            if next + 2 < words.count, words[next].uppercased() == "IF", words[next + 1].uppercased() == "NOT" { next += 3 }
            guard next < words.count else { continue }
            objects.insert(Object(type: type, name: String(words[next]).trimmingCharacters(in: "\"`[]")))
        }
        return objects
    }
}

private extension Substring {
    /// Where a `--` comment starts in the line, if it has one.
    var commentStart: Index? {
        var previous: Character?
        for index in indices {
            if self[index] == "-" && previous == "-" { return self.index(before: index) }
            previous = self[index]
        }
        return nil
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        return String(drop(while: { characters.contains($0) }).reversed().drop(while: { characters.contains($0) }).reversed())
    }
}
