import MigrationText
import GridStore

/// Refuses a database file whose schema is not exactly what gridstore's migrations made.
///
/// A database file is input: someone may plant a trigger that rewrites sizes or deletes grids
/// inside gridstore's own transactions, redefine the `placements` view so that `sqlite3`
/// readers see forged placements, or drop a `CHECK` through `writable_schema`. gridstore
/// compares every object in the file's `sqlite_schema`, its SQL included, with what its
/// applied migrations create before it runs anything else, and refuses the file, untouched,
/// naming what differs.
///
/// A file that holds an app's own tables too (an app's database gridstore was embedded in, or
/// a gridstore file whose ledger records an app's migrations) may hold objects gridstore did
/// not create, as long as none is attached to gridstore's tables and views (a trigger or index
/// on one of them would run inside gridstore's transactions) and no app table has a foreign key
/// to one of gridstore's tables (its `ON DELETE` action would run inside gridstore's `drop`).
/// gridstore's connections also run no trigger at all (`SQLITE_DBCONFIG_ENABLE_TRIGGER` off)
/// and read no view, so an app's triggers fire only on the app's own connections.
enum SQLiteSchemaCheck {
    /// Objects SQLite or gridstore itself adds, which no migration names.
    static func isBuiltIn(_ object: SchemaObject) -> Bool {
        guard object.type == "table" || object.type == "index" else { return false }
        return (object.type == "table" && object.name == MigrationRunner.ledgerTable)
            || (object.type == "index" && object.name.hasPrefix("sqlite_autoindex_") && object.sql == nil
                && object.table == MigrationRunner.ledgerTable)
            || (object.type == "table" && ["sqlite_sequence", "sqlite_stat1", "sqlite_stat4"].contains(object.name))
    }

    /// Throws unless the file holds exactly the objects that `applied` create, with the same
    /// SQL, and the built-in ones; with `sharedWithApp`, an app's objects too, as long as none
    /// is attached to an object `applied` creates or refers to one of its tables.
    ///
    /// - Throws: ``DatabaseFileError/unexpectedSchema(path:found:missing:)``,
    ///   ``DatabaseFileError/alteredSchema(path:altered:)`` or
    ///   ``DatabaseFileError/foreignKeysToGridStore(path:tables:)``.
    static func verify(_ connection: SQLiteConnection, applied: [Migration], sharedWithApp: Bool = false) throws {
        // Arrays rather than sets: a dozen objects, and a Set of a type of gridstore's own costs every
        // process a search of the runtime's conformance records when it is first made.
        let expected = try objects(after: applied)
        // Tables and views: a trigger on a view of gridstore's is gridstore's business too.
        // SQLite's names are case-insensitive: a trigger written `ON GRIDS` is on `grids`.
        let gridStoreTables = expected.filter { $0.type == "table" || $0.type == "view" }.map { $0.name.lowercased() }
        let found = try connection.fetchAll("SELECT type, name, tbl_name, sql FROM sqlite_schema") {
            SchemaObject(type: $0.string(at: 0), name: $0.string(at: 1), table: $0.string(at: 2), sql: $0.isNull(at: 3) ? nil : $0.string(at: 3))
        }
        var unexpected: [String] = [], altered: [String] = [], appTables: [String] = []
        for object in found {
            if let own = expected.first(where: { $0.type == object.type && $0.name == object.name }) {
                if own.sql != object.sql || own.table != object.table { altered.append("\(object.type) \(object.name)") }
            } else if isBuiltIn(object) {
                continue
            } else if sharedWithApp && !gridStoreTables.contains(object.table.lowercased()) {
                // An app's own object, which touches none of gridstore's tables.
                if object.type == "table" { appTables.append(object.name) }
            } else {
                unexpected.append("\(object.type) \(object.name)")
            }
        }
        let missing = expected.filter { object in !found.contains { $0.type == object.type && $0.name == object.name } }
        guard unexpected.isEmpty && missing.isEmpty else {
            throw DatabaseFileError.unexpectedSchema(path: connection.path, found: unexpected.sorted(),
                                                     missing: missing.map { "\($0.type) \($0.name)" })
        }
        guard altered.isEmpty else { throw DatabaseFileError.alteredSchema(path: connection.path, altered: altered.sorted()) }
        var referencing: [String] = []
        for table in appTables {
            let targets = try connection.fetchAll("SELECT \"table\" FROM pragma_foreign_key_list(?)", [table]) { $0.string(at: 0) }
            if let target = targets.first(where: { gridStoreTables.contains($0.lowercased()) }) {
                referencing.append("\(table) (to \(target))")
            }
        }
        guard referencing.isEmpty else {
            throw DatabaseFileError.foreignKeysToGridStore(path: connection.path, tables: referencing.sorted())
        }
    }

    /// The objects that exist after `migrations` ran, in order: recorded at build time for
    /// gridstore's own migrations, else found by applying them to an empty in-memory database.
    static func objects(after migrations: [Migration]) throws -> [SchemaObject] {
        guard let last = migrations.last else { return [] }
        if migrations.allSatisfy(\.hasRecordedSchema), let recorded = last.schemaAfter { return recorded }
        let scratch = try SQLiteConnection(path: ":memory:")
        for migration in migrations {
            do {
                try scratch.executeScript(migration.sql)
            } catch let error as SQLiteError {
                throw MigrationError.failed(fileName: migration.fileName, reason: error.message)
            }
        }
        return try scratch.fetchAll("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name") {
            SchemaObject(type: $0.string(at: 0), name: $0.string(at: 1), table: $0.string(at: 2), sql: $0.isNull(at: 3) ? nil : $0.string(at: 3))
        }
    }
}
