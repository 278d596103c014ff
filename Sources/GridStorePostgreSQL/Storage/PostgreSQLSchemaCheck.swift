import GridStore

/// Refuses a PostgreSQL database where objects gridstore did not create are attached to its
/// tables: a trigger, a rule or a row-level security policy on one of them, a table that
/// inherits from one (its triggers would fire on gridstore's deletes), or another table's
/// foreign key to one of them (whose `ON DELETE` action would run inside `drop`); and, when
/// migrations are about to run, an event trigger (which would fire on their DDL).
///
/// Every column (its type, default or generated expression), constraint and index of
/// gridstore's tables is also compared, as the server prints its definition, with what
/// gridstore's migrations create (``knownDefinitions``): a `CHECK`, a `DEFAULT`, an expression
/// or partial index, a generated column, or a column of a domain that they did not create is
/// refused by name, since each may call a function, and a function marked `IMMUTABLE` may
/// still write.
///
/// Any of these would run inside gridstore's own transactions, with its privileges, doing
/// what gridstore did not write. An app's tables, views and functions beside gridstore's are
/// its own business; nothing may hang off gridstore's. The check reads the catalog once per
/// open, in one round trip, with the search path gridstore's statements use.
enum PostgreSQLSchemaCheck {
    /// The tables and views gridstore's migrations create.
    static let gridStoreRelations = [
        "grids", "sections", "item_sizes", "size_chunks", "placement_chunks", "placements", "honeycombs", "honeycomb_placements",
        "item_keys", "history", "schema_migrations", "replica", "sync_states", "sync_replicas", "sync_registers", "sync_versions",
        "sync_item_ids", "sync_drops",
    ]

    /// Throws unless nothing gridstore did not create is attached to its tables (and, when
    /// `migrating`, no event trigger is enabled).
    ///
    /// - Throws: ``PostgreSQLDatabaseError/attachedObjects(location:objects:)`` naming each one.
    static func verify(_ connection: PostgreSQLConnection, migrating: Bool = false) throws {
        var names = PostgreSQLArray(of: .text)
        for name in gridStoreRelations { names.append(text: name.utf8) }
        let rows = try connection.execute(ownRelations + attachedObjects + "UNION ALL\n" + definitions + "ORDER BY 1",
                                          parameters: [names.parameter, .text(migrating ? "true" : "false")])
        var refused: [String] = []
        for row in 0..<rows.count {
            if rows.isNull(row, 1) || !knownDefinitions.contains(normalized(rows.string(row, 1))) {
                refused.append(rows.string(row, 0))
            }
        }
        guard refused.isEmpty else {
            throw PostgreSQLDatabaseError.attachedObjects(location: connection.server, objects: refused)
        }
    }

    /// The normalized definition of every column, constraint and index of gridstore's tables
    /// now: what ``verify(_:migrating:)`` compares with ``knownDefinitions``.
    static func definitions(_ connection: PostgreSQLConnection) throws -> Set<String> {
        var names = PostgreSQLArray(of: .text)
        for name in gridStoreRelations { names.append(text: name.utf8) }
        let rows = try connection.execute(ownRelations + definitions, parameters: [names.parameter])
        return Set((0..<rows.count).map { normalized(rows.string($0, 1)) })
    }

    /// `own`: the tables and views of gridstore's that exist, by `search_path` (`$1`: their names).
    private static let ownRelations = """
            WITH own AS (
                SELECT to_regclass(name)::oid AS oid FROM unnest($1::text[]) AS name WHERE to_regclass(name) IS NOT NULL
            )
        """

    /// Rows naming what is attached to gridstore's tables (`$2`: whether migrations are to run),
    /// each with `NULL` for a definition: every one is refused.
    private static let attachedObjects = """
            SELECT 'trigger ' || t.tgname || ' on ' || c.relname, NULL::text FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
                WHERE NOT t.tgisinternal AND t.tgrelid IN (SELECT oid FROM own)
            UNION ALL
            SELECT 'rule ' || r.rulename || ' on ' || c.relname, NULL FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class
                WHERE r.rulename <> '_RETURN' AND r.ev_class IN (SELECT oid FROM own)
            UNION ALL
            SELECT 'policy ' || p.polname || ' on ' || c.relname, NULL FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid
                WHERE p.polrelid IN (SELECT oid FROM own)
            UNION ALL
            SELECT 'table ' || c.relname || ' inheriting from ' || parent.relname, NULL
                FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class parent ON parent.oid = i.inhparent
                WHERE i.inhparent IN (SELECT oid FROM own)
            UNION ALL
            SELECT 'event trigger ' || evtname, NULL FROM pg_event_trigger WHERE $2 AND evtenabled <> 'D'
            UNION ALL
            SELECT 'foreign key ' || k.conname || ' of table ' || c.relname || ' to ' || target.relname, NULL
                FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class target ON target.oid = k.confrelid
                WHERE k.contype = 'f' AND k.confrelid IN (SELECT oid FROM own) AND k.conrelid NOT IN (SELECT oid FROM own)
        """

    /// Rows naming each column, constraint and index of gridstore's tables, with its definition.
    private static let definitions = """
            SELECT 'column ' || c.relname || '.' || a.attname || ' (' || format_type(a.atttypid, a.atttypmod)
                   || CASE WHEN a.attgenerated <> '' THEN ', generated' WHEN d.adbin IS NOT NULL THEN ', with a default'
                           ELSE '' END || ')',
                   'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
                   || CASE WHEN a.attgenerated <> '' THEN ' generated ' || pg_get_expr(d.adbin, d.adrelid)
                           WHEN d.adbin IS NOT NULL THEN ' default ' || pg_get_expr(d.adbin, d.adrelid) ELSE '' END
                   || CASE WHEN a.attidentity <> '' THEN ' identity' ELSE '' END
                FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
                WHERE a.attrelid IN (SELECT oid FROM own) AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
            UNION ALL
            SELECT 'constraint ' || k.conname || ' on ' || c.relname, 'constraint ' || c.relname || ' ' || pg_get_constraintdef(k.oid)
                FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
                WHERE k.conrelid IN (SELECT oid FROM own) AND k.contype <> 'n'
            UNION ALL
            SELECT 'index ' || x.relname || ' on ' || c.relname,
                   'index ' || c.relname || ' ' || CASE WHEN i.indisunique THEN 'UNIQUE ' ELSE '' END
                       || substring(pg_get_indexdef(i.indexrelid) from 'USING .*$')
                FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_class x ON x.oid = i.indexrelid
                WHERE i.indrelid IN (SELECT oid FROM own)
        """

    /// `definition` with each run of white space as one space, as ``knownDefinitions`` holds it.
    static func normalized(_ definition: String) -> String {
        definition.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
    }

    /// Every column, constraint and index that gridstore's migrations (and its migration
    /// ledger) create on its tables, at any version, as PostgreSQL prints them: `column
    /// <table>.<column> <type>[ default <expression>| generated <expression>][ identity]`,
    /// `constraint <table> <definition>`, `index <table> [UNIQUE ]USING <method> (<columns>)`.
    /// A test migrates a new database and finds exactly the latest of these.
    static let knownDefinitions: Set<String> = [
        "column grids.columns integer",
        "column grids.created_at timestamp with time zone default now()",
        "column grids.default_size text default 'small'::text",
        "column grids.direction text default 'vertical'::text",
        "column grids.history_keep integer default 1000",
        "column grids.id bigint identity",
        "column grids.layout_kind text default 'tiles'::text",
        "column grids.layout_type text generated CASE columns WHEN 4 THEN 'less'::text WHEN 6 THEN 'more'::text ELSE 'custom'::text END",
        "column grids.name text",
        "column grids.revision bigint default 0",
        "column grids.updated_at timestamp with time zone default now()",
        "column history.actor text",
        "column history.delta text",
        "column history.grid_id bigint",
        "column history.kind text",
        "column history.made_at timestamp with time zone default now()",
        "column history.operation text",
        "column history.registers text",
        "column history.revision bigint",
        "column history.targets text default ''::text",
        "column honeycomb_placements.grid_id bigint",
        "column honeycomb_placements.height double precision",
        "column honeycomb_placements.item integer",
        "column honeycomb_placements.q integer",
        "column honeycomb_placements.r integer",
        "column honeycomb_placements.ring integer",
        "column honeycomb_placements.width double precision",
        "column honeycomb_placements.x double precision",
        "column honeycomb_placements.y double precision",
        "column honeycombs.center_item text default 'first'::text",
        "column honeycombs.element_width double precision",
        "column honeycombs.grid_id bigint",
        "column honeycombs.item_spacing double precision",
        "column honeycombs.orientation text default 'pointy-top'::text",
        "column honeycombs.ring_order text default 'standard'::text",
        "column honeycombs.scaling text default 'linear'::text",
        "column item_keys.grid_id bigint",
        "column item_keys.item integer",
        "column item_keys.key text",
        "column item_keys.section integer",
        "column item_sizes.grid_id bigint",
        "column item_sizes.item integer",
        "column item_sizes.section integer",
        "column item_sizes.size text",
        "column placement_chunks.cells text",
        "column placement_chunks.first_item integer",
        "column placement_chunks.grid_id bigint",
        "column placement_chunks.section integer",
        "column replica.id text",
        "column replica.name text",
        "column replica.only_row integer",
        "column replica.storage_identity text default ''::text",
        "column schema_migrations.applied_at timestamp with time zone default now()",
        "column schema_migrations.checksum text",
        "column schema_migrations.name text",
        "column schema_migrations.version integer",
        "column sections.grid_id bigint",
        "column sections.item_count integer",
        "column sections.section integer",
        "column size_chunks.first_item integer",
        "column size_chunks.grid_id bigint",
        "column size_chunks.section integer",
        "column size_chunks.sizes text",
        "column sync_states.clock bigint",
        "column sync_states.database_replica text",
        "column sync_states.conflicts bigint",
        "column sync_states.grid_id bigint",
        "column sync_states.replica text",
        "column sync_states.revision bigint",
        "column sync_states.state text",
        "column sync_states.version bigint",
        "column sync_states.sent bigint",
        "column sync_states.peers text",
        "column sync_states.versions text",
        "column sync_registers.entity text",
        "column sync_registers.field text",
        "column sync_registers.grid_id bigint",
        "column sync_registers.kind text",
        "column sync_registers.register text",
        "column sync_registers.version bigint",
        "column sync_replicas.grid_id bigint",
        "column sync_replicas.id text",
        "column sync_replicas.number integer",
        "column sync_drops.dropped_at bigint",
        "column sync_drops.name text",
        "column sync_drops.versions text",
        "column sync_item_ids.first_item integer",
        "column sync_item_ids.grid_id bigint",
        "column sync_item_ids.ids text",
        "column sync_item_ids.section integer",
        "column sync_versions.grid_id bigint",
        "column sync_versions.version bigint",
        "column sync_versions.versions text",
        "constraint grids CHECK (((char_length(name) >= 1) AND (char_length(name) <= 255)))",
        "constraint grids CHECK (((columns >= 1) AND (columns <= 64)))",
        "constraint grids CHECK (((history_keep >= 0) AND (history_keep <= 1000000)))",
        "constraint grids CHECK ((default_size = ANY (ARRAY['small'::text, 'middle'::text, 'big'::text])))",
        "constraint grids CHECK ((direction = ANY (ARRAY['vertical'::text, 'horizontal'::text])))",
        "constraint grids CHECK ((layout_kind = ANY (ARRAY['tiles'::text, 'honeycomb'::text])))",
        "constraint grids CHECK ((revision < '9223372036854775807'::bigint))",
        "constraint grids CHECK ((revision >= 0))",
        "constraint grids PRIMARY KEY (id)",
        "constraint grids UNIQUE (name)",
        "constraint history CHECK ((kind = ANY (ARRAY['change'::text, 'undo'::text, 'redo'::text, 'revert'::text])))",
        "constraint history CHECK ((kind = ANY (ARRAY['change'::text, 'undo'::text, 'redo'::text, 'revert'::text, 'merge'::text])))",
        "constraint history CHECK ((revision > 0))",
        "constraint history FOREIGN KEY (grid_id) REFERENCES grids(id) ON DELETE CASCADE",
        "constraint history PRIMARY KEY (grid_id, revision)",
        "constraint honeycomb_placements CHECK ((item >= 0))",
        "constraint honeycomb_placements CHECK ((ring >= 0))",
        "constraint honeycomb_placements FOREIGN KEY (grid_id) REFERENCES grids(id) ON DELETE CASCADE",
        "constraint honeycomb_placements PRIMARY KEY (grid_id, item)",
        "constraint honeycombs CHECK ((center_item = ANY (ARRAY['first'::text, 'last'::text])))",
        "constraint honeycombs CHECK ((element_width > (0)::double precision))",
        "constraint honeycombs CHECK ((item_spacing >= (0)::double precision))",
        "constraint honeycombs CHECK ((orientation = ANY (ARRAY['pointy-top'::text, 'flat-top'::text])))",
        "constraint honeycombs CHECK ((ring_order = ANY (ARRAY['standard'::text, 'original'::text])))",
        "constraint honeycombs CHECK ((scaling = ANY (ARRAY['linear'::text, 'smooth'::text, 'original'::text])))",
        "constraint honeycombs FOREIGN KEY (grid_id) REFERENCES grids(id) ON DELETE CASCADE",
        "constraint honeycombs PRIMARY KEY (grid_id)",
        "constraint item_keys CHECK (((char_length(key) >= 1) AND (char_length(key) <= 255)))",
        "constraint item_keys CHECK ((item >= 0))",
        "constraint item_keys CHECK ((section >= 0))",
        "constraint item_keys FOREIGN KEY (grid_id, section) REFERENCES sections(grid_id, section) ON DELETE CASCADE",
        "constraint item_keys PRIMARY KEY (grid_id, section, item)",
        "constraint item_keys UNIQUE (grid_id, key)",
        "constraint item_sizes CHECK ((item >= 0))",
        "constraint item_sizes CHECK ((section >= 0))",
        "constraint item_sizes CHECK ((size = ANY (ARRAY['small'::text, 'middle'::text, 'big'::text])))",
        "constraint item_sizes FOREIGN KEY (grid_id, section) REFERENCES sections(grid_id, section) ON DELETE CASCADE",
        "constraint item_sizes PRIMARY KEY (grid_id, section, item)",
        "constraint placement_chunks CHECK ((first_item >= 0))",
        "constraint placement_chunks FOREIGN KEY (grid_id, section) REFERENCES sections(grid_id, section) ON DELETE CASCADE",
        "constraint placement_chunks PRIMARY KEY (grid_id, section, first_item)",
        "constraint replica CHECK ((id ~ '^[0-9a-f]{32}$'::text))",
        "constraint replica CHECK ((only_row = 1))",
        "constraint replica CHECK (((name IS NULL) OR ((char_length(name) >= 1) AND (char_length(name) <= 64))))",
        "constraint replica PRIMARY KEY (only_row)",
        "constraint schema_migrations PRIMARY KEY (version)",
        "constraint sections CHECK ((item_count <= 1000000))",
        "constraint sections CHECK ((item_count >= 0))",
        "constraint sections CHECK ((section >= 0))",
        "constraint sections FOREIGN KEY (grid_id) REFERENCES grids(id) ON DELETE CASCADE",
        "constraint sections PRIMARY KEY (grid_id, section)",
        "constraint size_chunks CHECK ((((length(sizes) >= 1) AND (length(sizes) <= 256)) AND (sizes ~ '^[.smb]*[smb]$'::text)))",
        "constraint size_chunks CHECK (((first_item >= 0) AND ((first_item % 256) = 0)))",
        "constraint size_chunks CHECK ((section >= 0))",
        "constraint size_chunks FOREIGN KEY (grid_id, section) REFERENCES sections(grid_id, section) ON DELETE CASCADE",
        "constraint size_chunks PRIMARY KEY (grid_id, section, first_item)",
        "constraint sync_states CHECK ((clock >= 0))",
        "constraint sync_states CHECK ((conflicts >= 0))",
        "constraint sync_states CHECK ((replica ~ '^[0-9a-f]{32}$'::text))",
        "constraint sync_states CHECK ((revision >= 0))",
        "constraint sync_states FOREIGN KEY (grid_id) REFERENCES grids(id) ON DELETE CASCADE",
        "constraint sync_states PRIMARY KEY (grid_id)",
        "constraint sync_states CHECK ((version >= 0))",
        "constraint sync_states CHECK ((sent >= 0))",
        "constraint sync_states CHECK (((peers IS NULL) OR (length(peers) <= 4672)))",
        "constraint sync_registers CHECK ((kind = ANY (ARRAY['grid'::text, 'section'::text, 'item'::text])))",
        "constraint sync_registers CHECK ((kind = ANY (ARRAY['grid'::text, 'section'::text, 'item'::text, 'replica'::text])))",
        "constraint sync_registers CHECK ((version > 0))",
        "constraint sync_registers FOREIGN KEY (grid_id) REFERENCES grids(id) ON DELETE CASCADE",
        "constraint sync_registers PRIMARY KEY (grid_id, kind, entity, field)",
        "constraint sync_replicas CHECK ((number >= 0))",
        "constraint sync_replicas FOREIGN KEY (grid_id) REFERENCES grids(id) ON DELETE CASCADE",
        "constraint sync_replicas PRIMARY KEY (grid_id, number)",
        "constraint sync_drops CHECK (((char_length(name) >= 1) AND (char_length(name) <= 255)))",
        "constraint sync_drops CHECK (((char_length(versions) >= 1) AND (char_length(versions) <= 530000)))",
        "constraint sync_drops CHECK ((dropped_at >= 0))",
        "constraint sync_drops PRIMARY KEY (name)",
        "constraint sync_item_ids CHECK ((section >= 0))",
        "constraint sync_item_ids CHECK (((first_item >= 0) AND ((first_item % 256) = 0)))",
        "constraint sync_item_ids FOREIGN KEY (grid_id) REFERENCES grids(id) ON DELETE CASCADE",
        "constraint sync_item_ids PRIMARY KEY (grid_id, section, first_item)",
        "constraint sync_versions CHECK ((version > 0))",
        "constraint sync_versions FOREIGN KEY (grid_id) REFERENCES grids(id) ON DELETE CASCADE",
        "constraint sync_versions PRIMARY KEY (grid_id, version)",
        "index grids UNIQUE USING btree (id)",
        "index grids UNIQUE USING btree (name)",
        "index history UNIQUE USING btree (grid_id, revision)",
        "index honeycomb_placements UNIQUE USING btree (grid_id, item)",
        "index honeycombs UNIQUE USING btree (grid_id)",
        "index item_keys UNIQUE USING btree (grid_id, key)",
        "index item_keys UNIQUE USING btree (grid_id, section, item)",
        "index item_sizes UNIQUE USING btree (grid_id, section, item)",
        "index placement_chunks UNIQUE USING btree (grid_id, section, first_item)",
        "index replica UNIQUE USING btree (only_row)",
        "index schema_migrations UNIQUE USING btree (version)",
        "index sections UNIQUE USING btree (grid_id, section)",
        "index size_chunks UNIQUE USING btree (grid_id, section, first_item)",
        "index sync_states UNIQUE USING btree (grid_id)",
        "index sync_registers UNIQUE USING btree (grid_id, kind, entity, field)",
        "index sync_registers USING btree (grid_id, version)",
        "index sync_replicas UNIQUE USING btree (grid_id, number)",
        "index sync_versions UNIQUE USING btree (grid_id, version)",
        "index sync_drops UNIQUE USING btree (name)",
        "index sync_item_ids UNIQUE USING btree (grid_id, section, first_item)",
    ]
}
