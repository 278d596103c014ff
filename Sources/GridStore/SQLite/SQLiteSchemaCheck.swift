import MigrationText

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
        // Arrays rather than sets: a dozen objects, and a Set of a type of gridstore's own costs every
        // process a search of the runtime's conformance records when it is first made.
        let expected = objects(after: applied)
        // Tables and views: a trigger on a view of gridstore's is gridstore's business too.
        let gridStoreTables = expected.filter { $0.type == "table" || $0.type == "view" }.map(\.name)
        let found = try connection.fetchAll("SELECT type, name, tbl_name FROM sqlite_schema") {
            (object: Object(type: $0.string(at: 0), name: $0.string(at: 1)), table: $0.string(at: 2))
        }
        let unexpected = found.filter { entry in
            guard !expected.contains(entry.object), !isBuiltIn(entry.object) else { return false }
            // An app's own object, which touches none of gridstore's tables.
            return !(sharedWithApp && !gridStoreTables.contains(entry.table))
        }.map(\.object).sorted()
        let missing = expected.filter { object in !found.contains { $0.object == object } }
        guard unexpected.isEmpty && missing.isEmpty else {
            throw DatabaseFileError.unexpectedSchema(path: connection.path, found: unexpected.map { "\($0.type) \($0.name)" },
                                                     missing: missing.map { "\($0.type) \($0.name)" })
        }
    }

    /// The objects that exist after `migrations` ran, in order, sorted: each creates what its
    /// `CREATE` statements name and removes what its `DROP` statements name.
    static func objects(after migrations: [Migration]) -> [Object] {
        var objects: [Object] = []
        for migration in migrations { apply(migration.schemaEdits, to: &objects) }
        return objects.sorted()
    }

    /// The objects a migration's SQL creates: every `CREATE [UNIQUE] TABLE|INDEX|VIEW|TRIGGER
    /// [IF NOT EXISTS] name` outside `--` comments, less those it drops again.
    static func objects(createdBy sql: String) -> Set<Object> {
        var objects: [Object] = []
        apply(SchemaEdit.edits(of: sql), to: &objects)
        return Set(objects)
    }

    /// Adds to `objects` what `edits` create and removes what they drop, in order.
    private static func apply(_ edits: [SchemaEdit], to objects: inout [Object]) {
        for edit in edits {
            let object = Object(type: edit.type, name: edit.name)
            objects.removeAll { $0 == object }
            if edit.creates { objects.append(object) }
        }
    }
}
