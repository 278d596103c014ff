import GridStore

/// Refuses a PostgreSQL database where objects gridstore did not create are attached to its
/// tables: a trigger, a rule or a row-level security policy on one of them, a table that
/// inherits from one (its triggers would fire on gridstore's deletes), or another table's
/// foreign key to one of them (whose `ON DELETE` action would run inside `drop`); and, when
/// migrations are about to run, an event trigger (which would fire on their DDL).
///
/// Any of these would run inside gridstore's own transactions, with its privileges, doing
/// what gridstore did not write. An app's tables, views and functions beside gridstore's are
/// its own business; nothing may hang off gridstore's. The check reads the catalog once per
/// open, in one round trip, with the search path gridstore's statements use.
enum PostgreSQLSchemaCheck {
    /// The tables and views gridstore's migrations create.
    static let gridStoreRelations = [
        "grids", "sections", "item_sizes", "size_chunks", "placement_chunks", "placements", "honeycombs", "honeycomb_placements",
        "item_keys", "history", "schema_migrations",
    ]

    /// Throws unless nothing gridstore did not create is attached to its tables (and, when
    /// `migrating`, no event trigger is enabled).
    ///
    /// - Throws: ``DatabaseFileError/attachedObjects(location:objects:)`` naming each one.
    static func verify(_ connection: PostgreSQLConnection, migrating: Bool = false) throws {
        var names = PostgreSQLArray(of: .text)
        for name in gridStoreRelations { names.append(text: name.utf8) }
        let rows = try connection.execute("""
            WITH own AS (
                SELECT to_regclass(name)::oid AS oid FROM unnest($1::text[]) AS name WHERE to_regclass(name) IS NOT NULL
            )
            SELECT 'trigger ' || t.tgname || ' on ' || c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
                WHERE NOT t.tgisinternal AND t.tgrelid IN (SELECT oid FROM own)
            UNION ALL
            SELECT 'rule ' || r.rulename || ' on ' || c.relname FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class
                WHERE r.rulename <> '_RETURN' AND r.ev_class IN (SELECT oid FROM own)
            UNION ALL
            SELECT 'policy ' || p.polname || ' on ' || c.relname FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid
                WHERE p.polrelid IN (SELECT oid FROM own)
            UNION ALL
            SELECT 'table ' || c.relname || ' inheriting from ' || parent.relname
                FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class parent ON parent.oid = i.inhparent
                WHERE i.inhparent IN (SELECT oid FROM own)
            UNION ALL
            SELECT 'event trigger ' || evtname FROM pg_event_trigger WHERE $2 AND evtenabled <> 'D'
            UNION ALL
            SELECT 'foreign key ' || k.conname || ' of table ' || c.relname || ' to ' || target.relname
                FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class target ON target.oid = k.confrelid
                WHERE k.contype = 'f' AND k.confrelid IN (SELECT oid FROM own) AND k.conrelid NOT IN (SELECT oid FROM own)
            ORDER BY 1
            """, parameters: [names.parameter, .text(migrating ? "true" : "false")])
        guard rows.count == 0 else {
            throw DatabaseFileError.attachedObjects(location: connection.server, objects: (0..<rows.count).map { rows.string($0, 0) })
        }
    }
}
