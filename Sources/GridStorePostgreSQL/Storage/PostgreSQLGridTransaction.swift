import GridLayout
import GridStore

/// The grid rows of one PostgreSQL transaction: the SQL of ``GridStorageTransaction``.
///
/// Rows travel in batches: a change's sizes, chunks or honeycomb placements are bound as a
/// few arrays and written by one `INSERT … SELECT … FROM unnest(…)` each. Writes whose rows
/// are not needed are queued and go to the server with the next read or with `COMMIT`, in
/// one round trip, so a change of a cached grid costs two: `BEGIN`, the grid row's lock and its
/// header (with its placement chunks' lengths), then its writes with `COMMIT`.
final class PostgreSQLGridTransaction: GridStorageTransaction {
    /// Another transaction inserted a grid of the same name first; the change is run again.
    struct ConcurrentCreation: Error {}

    /// The most rows, and characters, a read takes from the server: one past the most a grid
    /// within ``GridLimits`` has, so a tampered table (its keys or `CHECK`s dropped) is found
    /// inconsistent by what comes back, and never fills memory.
    enum Bounds {
        static let sections = GridLimits.maximumSections + 1
        static let items = GridLimits.maximumItems + 1
        static let sizeChunks = GridLimits.maximumItems / SizeChunks.size + GridLimits.maximumSections + 1
        static let placementChunks = GridLimits.maximumItems / PlacementChunks.size + GridLimits.maximumSections + 1
        static let keyLength = GridLimits.maximumKeyLength + 1
    }

    let connection: PostgreSQLConnection
    /// Whether reading a grid's row locks it until the transaction ends (in a write).
    let locksGrids: Bool

    init(_ connection: PostgreSQLConnection, locksGrids: Bool) {
        self.connection = connection
        self.locksGrids = locksGrids
    }

    // MARK: Reading

    /// The lengths of the placement chunks of the grid a write's ``header(named:)`` read, read
    /// in the same round trip, for the ``placementChunkSizes(gridID:)`` a change asks for next.
    /// Any write of the transaction drops it.
    private var prefetchedChunkSizes: (gridID: Int64, sizes: ChunkSizeList)?

    /// The grid row's update a change queued, which the change's history entry, queued next,
    /// takes into its own statement: one statement fewer per change.
    private var pendingGridUpdate: (gridID: Int64, statement: PostgreSQLConnection.QueuedStatement)?

    func header(named name: String) throws -> StoredGridRow? {
        // In a change, the row is locked first and read by a second statement of the same round
        // trip: one that waited for the lock sees every table as the lock's holder left it (a
        // statement that waited reads its other tables from before the wait). That statement also
        // reads the chunks' lengths, as text: `section:first_item:bytes,…`. The honeycomb's
        // lengths come as their eight bytes in hex, exact whatever `extra_float_digits` says.
        let header = """
            SELECT grids.id, revision, columns, direction, default_size, layout_kind,
                   encode(float8send(element_width), 'hex'), encode(float8send(item_spacing), 'hex'), orientation, center_item, ring_order, scaling, history_keep,
                   EXISTS (SELECT 1 FROM sync_states WHERE sync_states.grid_id = grids.id)
            """ + (locksGrids ? """

            , (SELECT string_agg(section || ':' || first_item || ':' || bytes, ',')
                 FROM (SELECT section, first_item, octet_length(cells) AS bytes FROM placement_chunks
                       WHERE grid_id = grids.id LIMIT \(Bounds.placementChunks)) AS chunk)
            """ : "") + """

            FROM grids LEFT JOIN honeycombs ON honeycombs.grid_id = grids.id
            WHERE name = $1
            """
        prefetchedChunkSizes = nil
        let rows: PostgreSQLResult
        if locksGrids {
            let results = try connection.execute(batch: [("SELECT id FROM grids WHERE name = $1 FOR UPDATE", [name]),
                                                          (header, [name])])
            // A grid another change created after the lock found none is not locked: not there yet.
            guard results[0].count == 1 else { return nil }
            rows = results[1]
        } else {
            rows = try connection.execute(header, [name])
        }
        guard rows.count == 1 else { return nil }
        if locksGrids {
            prefetchedChunkSizes = (rows.int(0, 0), ChunkSizeList(rows.isNull(0, 14) ? "" : rows.string(0, 14)))
        }
        return StoredGridRow(
            id: rows.int(0, 0), name: name, revision: rows.int(0, 1), columns: rows.int(0, 2),
            direction: rows.string(0, 3), defaultSize: rows.string(0, 4), kind: rows.string(0, 5),
            honeycomb: rows.isNull(0, 6) ? nil
                : StoredHoneycombRow(elementWidth: rows.float8Bits(0, 6), itemSpacing: rows.float8Bits(0, 7),
                                     orientation: rows.string(0, 8), centerItem: rows.string(0, 9),
                                     ringOrder: rows.string(0, 10), scaling: rows.string(0, 11)),
            historyKeep: rows.int(0, 12), syncs: rows.string(0, 13) == "t")
    }

    func sectionItemCounts(gridID: Int64) throws -> [(section: Int, count: Int)] {
        let rows = try connection.execute("SELECT section, item_count FROM sections WHERE grid_id = $1 ORDER BY section LIMIT \(Bounds.sections)",
                                          [String(gridID)])
        return (0..<rows.count).map { (section: Int(rows.int($0, 0)), count: Int(rows.int($0, 1))) }
    }

    func forEachExplicitSize(gridID: Int64, _ body: (Int, Int, TileSize?) throws -> Void) throws {
        let rows = try connection.execute("""
            SELECT section, first_item, left(sizes, \(SizeChunks.size + 1)) FROM size_chunks WHERE grid_id = $1
            LIMIT \(Bounds.sizeChunks)
            """, [String(gridID)])
        for row in 0..<rows.count {
            let section = Int(rows.int(row, 0))
            try rows.withUTF8(row, 2) { letters in
                try SizeChunks.forEachSize(in: letters, section: section, firstItem: Int(rows.int(row, 1)), body)
            }
        }
    }

    func storedItem(gridID: Int64, at place: StoredItemPlace) throws -> StoredItemRow? {
        let (section, item): (Int, Int)
        switch place {
        case .index(let atSection, let atItem): (section, item) = (atSection, atItem)
        case .key(let key):
            let rows = try connection.execute("SELECT section, item FROM item_keys WHERE grid_id = $1 AND key = $2 LIMIT 2",
                                              [String(gridID), key])
            guard rows.count == 1 else { return nil }
            (section, item) = (Int(rows.int(0, 0)), Int(rows.int(0, 1)))
        }
        let stored = try storedItem(gridID: gridID, section: section, item: item)
        return StoredItemRow(section: section, item: item, itemCount: stored.itemCount, size: stored.size, key: stored.key)
    }

    private func storedItem(gridID: Int64, section: Int, item: Int) throws -> (itemCount: Int?, size: StoredSize, key: String?) {
        let first = SizeChunks.firstItem(ofChunkHolding: item)
        let rows = try connection.execute("""
            SELECT item_count,
                   (SELECT left(sizes, \(SizeChunks.size + 1)) FROM size_chunks
                     WHERE grid_id = $1 AND section = $2 AND first_item = $4 LIMIT 1),
                   (SELECT left(key, \(Bounds.keyLength)) FROM item_keys WHERE grid_id = $1 AND section = $2 AND item = $3 LIMIT 1)
            FROM sections WHERE grid_id = $1 AND section = $2
            """, [String(gridID), String(section), String(item), String(first)])
        guard rows.count == 1 else { return (nil, .none, nil) }
        let size = try rows.isNull(0, 1) ? .none
            : rows.withUTF8(0, 1) { try SizeChunks.storedSize(ofItem: item, section: section, in: $0) }
        return (Int(rows.int(0, 0)), size, rows.isNull(0, 2) ? nil : rows.string(0, 2))
    }

    func forEachItemKey(gridID: Int64, _ body: (Int, Int, String) throws -> Void) throws {
        let rows = try connection.execute("""
            SELECT section, item, left(key, \(Bounds.keyLength)) FROM item_keys WHERE grid_id = $1 LIMIT \(Bounds.items)
            """, [String(gridID)])
        for row in 0..<rows.count {
            try body(Int(rows.int(row, 0)), Int(rows.int(row, 1)), rows.string(row, 2))
        }
    }

    func listGrids() throws -> [StoredGridSummaryRow] {
        let rows = try connection.execute("""
            SELECT name, columns, direction, revision,
                   to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                   (SELECT count(*) FROM sections WHERE grid_id = grids.id),
                   (SELECT coalesce(sum(item_count), 0) FROM sections WHERE grid_id = grids.id), layout_kind
            FROM grids ORDER BY name COLLATE "C"
            """)
        return (0..<rows.count).map { row in
            StoredGridSummaryRow(name: rows.string(row, 0), columns: rows.int(row, 1), direction: rows.string(row, 2),
                                 revision: rows.int(row, 3), updatedAt: rows.string(row, 4), sectionCount: rows.int(row, 5),
                                 itemCount: rows.int(row, 6), kind: rows.string(row, 7))
        }
    }

    func placementChunkSizes(gridID: Int64) throws -> [(section: Int, firstItem: Int, byteCount: Int)] {
        defer { prefetchedChunkSizes = nil }
        if let prefetched = prefetchedChunkSizes, prefetched.gridID == gridID, let sizes = prefetched.sizes.entries {
            return sizes
        }
        let rows = try connection.execute(
            "SELECT section, first_item, octet_length(cells) FROM placement_chunks WHERE grid_id = $1 LIMIT \(Bounds.placementChunks)",
            [String(gridID)])
        return (0..<rows.count).map { (section: Int(rows.int($0, 0)), firstItem: Int(rows.int($0, 1)), byteCount: Int(rows.int($0, 2))) }
    }

    func placementChunks(gridID: Int64) throws -> [(section: Int, firstItem: Int, cells: [UInt8])] {
        let rows = try connection.execute("""
            SELECT section, first_item, left(cells, \(PlacementChunks.maximumTextLength + 1)) FROM placement_chunks
            WHERE grid_id = $1 LIMIT \(Bounds.placementChunks)
            """, [String(gridID)])
        return (0..<rows.count).map { row in
            (section: Int(rows.int(row, 0)), firstItem: Int(rows.int(row, 1)), cells: rows.withUTF8(row, 2) { Array($0) })
        }
    }

    func historyEntries(gridID: Int64, limit: Int, deltas: Bool) throws -> [StoredHistoryEntry] {
        let rows = try connection.execute("""
            SELECT revision, to_char(made_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), kind, operation, actor,
                   targets, \(deltas ? "delta, registers" : "'', CASE WHEN registers IS NULL THEN NULL ELSE '' END") FROM history
            WHERE grid_id = $1 ORDER BY revision DESC LIMIT $2
            """, [String(gridID), String(limit)])
        return (0..<rows.count).map { row in
            StoredHistoryEntry(revision: rows.int(row, 0), madeAt: rows.string(row, 1), kind: rows.string(row, 2),
                               operation: rows.string(row, 3), actor: rows.string(row, 4), targets: rows.string(row, 5),
                               delta: rows.string(row, 6), registers: rows.isNull(row, 7) ? nil : rows.string(row, 7))
        }
    }

    func historyDelta(gridID: Int64, revision: Int) throws -> String? {
        let rows = try connection.execute("SELECT delta FROM history WHERE grid_id = $1 AND revision = $2",
                                          [String(gridID), String(revision)])
        return rows.count == 1 ? rows.string(0, 0) : nil
    }

    func historyRegisters(gridID: Int64, revision: Int) throws -> String? {
        let rows = try connection.execute("SELECT left(registers, $3) FROM history WHERE grid_id = $1 AND revision = $2",
                                          [String(gridID), String(revision), String(StoredHistoryEntry.maximumRegistersBytes + 1)])
        return rows.count == 1 && !rows.isNull(0, 0) ? rows.string(0, 0) : nil
    }

    // MARK: Writing

    func appendHistory(_ entry: StoredHistoryEntry, gridID: Int64, keep: Int) throws {
        // One statement: the entries that fall out of the kept ones go as the new one comes in,
        // and the grid row's update that ``write(_:gridID:)`` queued, while it is still queued.
        //
        // The kept entries run without gaps up to the grid's revision, so the one entry at
        // `revision - keep` is all that falls out, found by its key. A delete of every entry at or
        // below it would walk the index from the grid's oldest entry, over those deleted since the
        // last vacuum: a twentieth of the server's time per change. Only when the entry below that
        // one is there too (a `history_keep` lowered by hand) does the delete reach down to all.
        // Older entries cut off by a gap (rows deleted by hand) stay, and undo reports the gap,
        // until `setHistoryKeep` trims them; SQLite, whose deletes leave nothing to walk, trims
        // them with the next change.
        var parameters: [PostgreSQLParameter] = [String(gridID), String(entry.revision), entry.madeAt, entry.kind, entry.operation,
                                                 entry.actor, entry.targets, entry.delta,
                                                 String(entry.revision - Int64(keep))].map(PostgreSQLParameter.text)
        parameters.append(.text(entry.registers))
        var updatesGrid = ""
        if let pending = pendingGridUpdate, pending.gridID == gridID, let settings = connection.withdraw(pending.statement) {
            parameters += settings.prefix(5)
            updatesGrid = """
                updated AS (UPDATE grids SET columns = $11, direction = $12, default_size = $13, revision = $14,
                                             layout_kind = $15, updated_at = now() WHERE id = $1),

                """
        }
        pendingGridUpdate = nil
        connection.enqueue("""
            WITH \(updatesGrid)dropped AS (
                DELETE FROM history WHERE grid_id = $1 AND revision <= $9
                    AND revision > CASE WHEN EXISTS (SELECT FROM history WHERE grid_id = $1 AND revision = $9 - 1)
                                        THEN -9223372036854775808 ELSE $9 - 1 END)
            INSERT INTO history (grid_id, revision, made_at, kind, operation, actor, targets, delta, registers)
                VALUES ($1, $2, coalesce(nullif($3, '')::timestamptz, now()), $4, $5, $6, $7, $8, $10)
            ON CONFLICT (grid_id, revision) DO UPDATE SET made_at = excluded.made_at, kind = excluded.kind,
                operation = excluded.operation, actor = excluded.actor, targets = excluded.targets, delta = excluded.delta,
                registers = excluded.registers
            """, parameters: parameters)
    }

    func setUpdatedAt(_ time: String, gridID: Int64) throws {
        connection.enqueue("UPDATE grids SET updated_at = $1::timestamptz WHERE id = $2", [time, String(gridID)])
    }

    func setHistoryKeep(_ keep: Int, gridID: Int64, revision: Int) throws {
        connection.enqueue("UPDATE grids SET history_keep = $1 WHERE id = $2", [String(keep), String(gridID)])
        connection.enqueue("DELETE FROM history WHERE grid_id = $1 AND revision <= $2",
                               [String(gridID), String(revision - keep)])
    }

    func replacePlacements(with changes: GridChangeSet, gridID: Int64) throws {
        prefetchedChunkSizes = nil
        connection.enqueue("DELETE FROM placement_chunks WHERE grid_id = $1", [String(gridID)])
        try writeChunks(changes, gridID: String(gridID))
    }

    // MARK: Sync

    /// The SQL of the database's storage identity: the cluster's system identifier, where the
    /// role may read it, the database's oid, and the timeline the server writes on, where the
    /// role may read it. A restored dump is another database, in the same cluster or another; a
    /// standby promoted to a primary, or a backup recovered to a point in time, starts a
    /// timeline of its own, so it is another database beside the primary that goes on. A
    /// standby, which makes no change, is taken for the database it replays (the identity its
    /// primary recorded).
    ///
    /// The server checks that the role may call every function a statement names as it starts
    /// the statement, whether or not it calls it, so the text names only those the session's
    /// role may call: asked once a connection (one round trip), then kept on it.
    static func identity(on connection: PostgreSQLConnection) throws -> String {
        if let known = connection.storageIdentitySQL { return known }
        let may = try connection.execute("""
            SELECT has_function_privilege('pg_control_system()'::regprocedure, 'execute'),
                   has_function_privilege('pg_current_wal_lsn()'::regprocedure, 'execute')
                   AND has_function_privilege('pg_walfile_name(pg_lsn)'::regprocedure, 'execute')
            """)
        let system = may.string(0, 0) == "t" ? "(SELECT system_identifier::text FROM pg_control_system())" : "''"
        let timeline = may.string(0, 1) == "t" ? " || ':' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8)" : ""
        let sql = """
            CASE WHEN pg_is_in_recovery() THEN coalesce((SELECT storage_identity FROM replica WHERE only_row = 1), '')
            ELSE \(system) || ':' || (SELECT oid::text FROM pg_database WHERE datname = current_database())\(timeline) END
            """
        connection.storageIdentitySQL = sql
        return sql
    }

    func replicaRow() throws -> StoredReplicaRow? {
        let rows = try connection.execute("SELECT id, storage_identity, left(name, $1) FROM replica WHERE only_row = 1",
                                          [String(GridLimits.maximumReplicaNameLength + 1)])
        return rows.count == 1 ? StoredReplicaRow(id: rows.string(0, 0), storageIdentity: rows.string(0, 1),
                                                  name: rows.isNull(0, 2) ? nil : rows.string(0, 2)) : nil
    }

    /// The server's clock: every device syncing with the server is judged by this one clock.
    func clockMilliseconds() throws -> Int64 {
        try connection.execute("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint").int(0, 0)
    }

    func storageIdentity() throws -> String {
        try connection.execute("SELECT " + Self.identity(on: connection)).string(0, 0)
    }

    func replicaContext() throws -> StoredReplicaContext {
        let rows = try connection.execute("""
            SELECT replica.id, replica.storage_identity, left(replica.name, $1), \(try Self.identity(on: connection)),
                   (extract(epoch FROM clock_timestamp()) * 1000)::bigint
            FROM (SELECT 1) AS one LEFT JOIN replica ON replica.only_row = 1
            """, [String(GridLimits.maximumReplicaNameLength + 1)])
        let row = rows.isNull(0, 0) ? nil : StoredReplicaRow(id: rows.string(0, 0), storageIdentity: rows.string(0, 1),
                                                            name: rows.isNull(0, 2) ? nil : rows.string(0, 2))
        return StoredReplicaContext(row: row, storageIdentity: rows.string(0, 3), clock: rows.int(0, 4))
    }

    func syncSummary(named name: String) throws -> StoredSyncSummary? {
        let rows = try connection.execute("""
            SELECT replica.id, replica.storage_identity, \(try Self.identity(on: connection)), grids.revision, sync_states.revision,
                   sync_states.clock, sync_states.versions, sync_states.conflicts, sync_states.replica, sync_states.database_replica,
                   sync_states.version, sync_drops.name, left(sync_drops.versions, $2), sync_drops.dropped_at,
                   (extract(epoch FROM clock_timestamp()) * 1000)::bigint
            FROM replica LEFT JOIN grids ON grids.name = $1 LEFT JOIN sync_states ON sync_states.grid_id = grids.id
                 LEFT JOIN sync_drops ON sync_drops.name = $1
            WHERE replica.only_row = 1
            """, [name, String(StoredSyncDrop.maximumVersionsBytes + 1)])
        guard rows.count == 1 else { return nil }
        return StoredSyncSummary(
            replica: StoredReplicaRow(id: rows.string(0, 0), storageIdentity: rows.string(0, 1)), storageIdentity: rows.string(0, 2),
            revision: rows.isNull(0, 3) ? nil : rows.int(0, 3),
            state: rows.isNull(0, 4) ? nil : StoredSyncState(replica: rows.string(0, 8), databaseReplica: rows.string(0, 9),
                                                             revision: rows.int(0, 4), clock: rows.int(0, 5), versions: rows.string(0, 6),
                                                             conflicts: rows.int(0, 7), version: rows.int(0, 10)),
            drop: rows.isNull(0, 11) ? nil : StoredSyncDrop(name: rows.string(0, 11), versions: rows.string(0, 12), droppedAt: rows.int(0, 13)),
            clock: rows.int(0, 14))
    }

    func syncDrops(limit: Int) throws -> [StoredSyncDrop] {
        let rows = try connection.execute("SELECT name, left(versions, $1), dropped_at FROM sync_drops ORDER BY name LIMIT $2",
                                          [String(StoredSyncDrop.maximumVersionsBytes + 1), String(limit)])
        return (0..<rows.count).map { StoredSyncDrop(name: rows.string($0, 0), versions: rows.string($0, 1), droppedAt: rows.int($0, 2)) }
    }

    func syncDrop(named name: String) throws -> StoredSyncDrop? {
        let rows = try connection.execute("SELECT name, left(versions, $2), dropped_at FROM sync_drops WHERE name = $1",
                                          [name, String(StoredSyncDrop.maximumVersionsBytes + 1)])
        guard rows.count == 1 else { return nil }
        return StoredSyncDrop(name: rows.string(0, 0), versions: rows.string(0, 1), droppedAt: rows.int(0, 2))
    }

    func writeSyncDrop(_ drop: StoredSyncDrop) throws {
        connection.enqueue("""
            INSERT INTO sync_drops (name, versions, dropped_at) VALUES ($1, $2, $3)
            ON CONFLICT (name) DO UPDATE SET versions = excluded.versions, dropped_at = excluded.dropped_at
            """, [drop.name, drop.versions, String(drop.droppedAt)])
    }

    func deleteSyncDrop(named name: String) throws {
        connection.enqueue("DELETE FROM sync_drops WHERE name = $1", [name])
    }

    func deleteSyncDrops(keeping names: [String]) throws {
        var kept = PostgreSQLArray(of: .text)
        for name in names { kept.append(text: name.utf8) }
        connection.enqueue("DELETE FROM sync_drops WHERE NOT (name = ANY($1::text[]))", parameters: [kept.parameter])
    }

    func setReplicaRow(_ row: StoredReplicaRow) throws {
        connection.enqueue("""
            INSERT INTO replica (only_row, id, storage_identity) VALUES (1, $1, $2)
            ON CONFLICT (only_row) DO UPDATE SET id = excluded.id, storage_identity = excluded.storage_identity
            """, [row.id, row.storageIdentity])
    }

    func setReplicaName(_ name: String?) throws {
        connection.enqueue("UPDATE replica SET name = $1 WHERE only_row = 1", [name])
    }

    func syncState(gridID: Int64) throws -> StoredSyncState? {
        let rows = try connection.execute(
            "SELECT revision, clock, versions, conflicts, replica, database_replica, version, sent, left(peers, $2) FROM sync_states "
                + "WHERE grid_id = $1",
            [String(gridID), String(StoredSyncState.maximumPeersBytes + 1)])
        guard rows.count == 1 else { return nil }
        return StoredSyncState(replica: rows.string(0, 4), databaseReplica: rows.string(0, 5), revision: rows.int(0, 0),
                               clock: rows.int(0, 1), versions: rows.string(0, 2), conflicts: rows.int(0, 3), version: rows.int(0, 6),
                               sent: rows.isNull(0, 7) ? nil : rows.int(0, 7), peers: rows.isNull(0, 8) ? nil : rows.string(0, 8))
    }

    /// The replicas' query, alone or in a batch.
    private static let replicasQuery = "SELECT number, left(id, 40) FROM sync_replicas WHERE grid_id = $1 ORDER BY number LIMIT $2"

    private static func replicas(in rows: PostgreSQLResult) -> [StoredSyncReplica] {
        (0..<rows.count).map { StoredSyncReplica(number: rows.int($0, 0), id: rows.string($0, 1)) }
    }

    func syncReplicas(gridID: Int64, limit: Int) throws -> [StoredSyncReplica] {
        Self.replicas(in: try connection.execute(Self.replicasQuery, [String(gridID), String(limit)]))
    }

    func syncRegisters(gridID: Int64, changedAfter version: Int64, limit: Int) throws -> StoredSyncRegisters {
        let results = try connection.execute(batch: [
            (Self.replicasQuery, [String(gridID), String(limit)]),
            ("(SELECT kind, left(entity, 40), left(field, 40), left(register, $4), version FROM sync_registers "
                + "WHERE grid_id = $1 AND version > $2) UNION ALL (SELECT kind, left(entity, 40), left(field, 40), left(register, $4), "
                + "version FROM sync_registers WHERE grid_id = $1 AND kind = 'replica' AND version <= $2) LIMIT $3",
             [String(gridID), String(version), String(limit), String(StoredSyncRegisters.maximumRegisterBytes + 1)]),
        ])
        let replicas = results[0], registers = results[1]
        return StoredSyncRegisters(
            replicas: Self.replicas(in: replicas),
            registers: (0..<registers.count).map { row in
                StoredSyncRegister(kind: registers.string(row, 0), entity: registers.string(row, 1), field: registers.string(row, 2),
                                   register: registers.string(row, 3), version: registers.int(row, 4))
            })
    }

    func syncRegisters(gridID: Int64, kind: String, entity: String) throws -> [StoredSyncRegister] {
        let rows = try connection.execute("""
            SELECT left(field, 40), left(register, $4), version FROM sync_registers WHERE grid_id = $1 AND kind = $2 AND entity = $3 LIMIT 5
            """, [String(gridID), kind, entity, String(StoredSyncRegisters.maximumRegisterBytes + 1)])
        return (0..<rows.count).map {
            StoredSyncRegister(kind: kind, entity: entity, field: rows.string($0, 0), register: rows.string($0, 1), version: rows.int($0, 2))
        }
    }

    /// The size registers of items and name registers of replicas, alone or in a batch.
    private static let sizesAndNamesQuery = """
        (SELECT left(kind, 10), left(entity, 40), left(field, 40), left(register, $4), version FROM sync_registers
         WHERE grid_id = $1 AND kind = 'item' AND field = 's' AND entity = ANY($2::text[]))
        UNION ALL
        (SELECT left(kind, 10), left(entity, 40), left(field, 40), left(register, $4), version FROM sync_registers
         WHERE grid_id = $1 AND kind = 'replica' AND field = 'name' AND entity = ANY($3::text[]))
        LIMIT $5
        """

    private static func sizesAndNamesParameters(gridID: Int64, items: [String], replicas: [String]) -> [String?] {
        // Each list of ids as one array literal: one statement, whatever their number. Ids are hexadecimal digits.
        func list(_ ids: [String]) -> String { StoredSyncRegisters.idList(ids, open: "{", close: "}", quote: nil) }
        return [String(gridID), list(items), list(replicas), String(StoredSyncRegisters.maximumRegisterBytes + 1),
                String(items.count + replicas.count)]
    }

    private static func registers(in rows: PostgreSQLResult) -> [StoredSyncRegister] {
        (0..<rows.count).map {
            StoredSyncRegister(kind: rows.string($0, 0), entity: rows.string($0, 1), field: rows.string($0, 2), register: rows.string($0, 3),
                               version: rows.int($0, 4))
        }
    }

    func syncRegisters(gridID: Int64, sizesOf items: [String], namesOf replicas: [String]) throws -> [StoredSyncRegister] {
        guard !items.isEmpty || !replicas.isEmpty else { return [] }
        return Self.registers(in: try connection.execute(Self.sizesAndNamesQuery,
                                                         Self.sizesAndNamesParameters(gridID: gridID, items: items, replicas: replicas)))
    }

    func syncMergeRows(gridID: Int64, sizesOf items: [String], namesOf replicas: [String], replicaLimit: Int,
                       chunkLimit: Int) throws -> StoredSyncMergeRows {
        let results = try connection.execute(batch: [
            (Self.logQuery, [String(gridID), String(StoredSyncWrite.keptVersions)]),
            (Self.replicasQuery, [String(gridID), String(replicaLimit)]),
            (Self.itemIDsQuery, [String(gridID), String(StoredSyncItemIDs.maximumTextLength + 1), String(chunkLimit)]),
            (Self.sizesAndNamesQuery, Self.sizesAndNamesParameters(gridID: gridID, items: items, replicas: replicas)),
        ])
        return StoredSyncMergeRows(log: Self.log(in: results[0]), replicas: Self.replicas(in: results[1]), itemIDs: Self.itemIDs(in: results[2]),
                                   registers: Self.registers(in: results[3]))
    }

    func syncItemIDs(gridID: Int64, section: Int, firstItem: Int) throws -> String? {
        let rows = try connection.execute("SELECT left(ids, $4) FROM sync_item_ids WHERE grid_id = $1 AND section = $2 AND first_item = $3",
                                          [String(gridID), String(section), String(firstItem), String(StoredSyncItemIDs.maximumTextLength + 1)])
        return rows.count == 1 ? rows.string(0, 0) : nil
    }

    private static let itemIDsQuery =
        "SELECT section, first_item, left(ids, $2) FROM sync_item_ids WHERE grid_id = $1 ORDER BY section, first_item LIMIT $3"

    private static func itemIDs(in rows: PostgreSQLResult) -> [StoredSyncItemIDs] {
        (0..<rows.count).map { StoredSyncItemIDs(section: Int(rows.int($0, 0)), firstItem: Int(rows.int($0, 1)), ids: rows.string($0, 2)) }
    }

    func syncItemIDs(gridID: Int64, limit: Int) throws -> [StoredSyncItemIDs] {
        Self.itemIDs(in: try connection.execute(Self.itemIDsQuery,
                                                [String(gridID), String(StoredSyncItemIDs.maximumTextLength + 1), String(limit)]))
    }

    private static let logQuery = "SELECT version, versions FROM sync_versions WHERE grid_id = $1 ORDER BY version DESC LIMIT $2"

    private static func log(in rows: PostgreSQLResult) -> [StoredSyncVersion] {
        (0..<rows.count).map { StoredSyncVersion(version: rows.int($0, 0), versions: rows.string($0, 1)) }
    }

    func syncVersionLog(gridID: Int64) throws -> [StoredSyncVersion] {
        Self.log(in: try connection.execute(Self.logQuery, [String(gridID), String(StoredSyncWrite.keptVersions)]))
    }

    func writeSyncState(_ write: StoredSyncWrite, gridID: Int64) throws {
        let id = String(gridID)
        if write.replacing {
            for table in ["sync_registers", "sync_replicas", "sync_versions"] {
                connection.enqueue("DELETE FROM \(table) WHERE grid_id = $1", [id])
            }
        }
        if let chunks = write.itemIDs {
            connection.enqueue("DELETE FROM sync_item_ids WHERE grid_id = $1", [id])
            var sections = PostgreSQLArray(of: .bigint), firstItems = PostgreSQLArray(of: .bigint), texts = PostgreSQLArray(of: .text)
            for chunk in chunks {
                sections.append(chunk.section)
                firstItems.append(chunk.firstItem)
                texts.append(text: chunk.ids.utf8)
            }
            if !chunks.isEmpty {
                connection.enqueue("""
                    INSERT INTO sync_item_ids (grid_id, section, first_item, ids)
                    SELECT $1, s, f, i FROM unnest($2::bigint[], $3::bigint[], $4::text[]) AS t (s, f, i)
                    """, parameters: [.text(id), sections.parameter, firstItems.parameter, texts.parameter])
            }
        }
        let state = write.state
        connection.enqueue("""
            INSERT INTO sync_states (grid_id, replica, database_replica, revision, clock, versions, conflicts, version, sent, peers)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
            ON CONFLICT (grid_id) DO UPDATE SET replica = excluded.replica, database_replica = excluded.database_replica,
                revision = excluded.revision, clock = excluded.clock, versions = excluded.versions, conflicts = excluded.conflicts,
                version = excluded.version, sent = excluded.sent, peers = coalesce(excluded.peers, sync_states.peers)
            """, [id, state.replica, state.databaseReplica, String(state.revision), String(state.clock), state.versions,
                  String(state.conflicts), String(state.version), state.sent.map(String.init), write.peers])
        if !write.replicas.isEmpty {
            var numbers = PostgreSQLArray(of: .bigint), ids = PostgreSQLArray(of: .text)
            for replica in write.replicas {
                numbers.append(Int(replica.number))
                ids.append(text: replica.id.utf8)
            }
            connection.enqueue("INSERT INTO sync_replicas (grid_id, number, id) SELECT $1, n, r FROM unnest($2::bigint[], $3::text[]) AS t (n, r)",
                               parameters: [.text(id), numbers.parameter, ids.parameter])
        }
        if !write.registers.isEmpty {
            var kinds = PostgreSQLArray(of: .text), entities = PostgreSQLArray(of: .text), fields = PostgreSQLArray(of: .text)
            var texts = PostgreSQLArray(of: .text), versions = PostgreSQLArray(of: .bigint)
            for register in write.registers {
                kinds.append(text: register.kind.utf8)
                entities.append(text: register.entity.utf8)
                fields.append(text: register.field.utf8)
                texts.append(text: register.register.utf8)
                versions.append(Int(register.version))
            }
            connection.enqueue("""
                INSERT INTO sync_registers (grid_id, kind, entity, field, register, version)
                SELECT $1, k, e, f, r, v FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[]) AS t (k, e, f, r, v)
                ON CONFLICT (grid_id, kind, entity, field) DO UPDATE SET register = excluded.register, version = excluded.version
                """, parameters: [.text(id), kinds.parameter, entities.parameter, fields.parameter, texts.parameter, versions.parameter])
        }
        if !write.removed.isEmpty {
            var kinds = PostgreSQLArray(of: .text), entities = PostgreSQLArray(of: .text), fields = PostgreSQLArray(of: .text)
            for key in write.removed {
                kinds.append(text: key.kind.utf8)
                entities.append(text: key.entity.utf8)
                fields.append(text: key.field.utf8)
            }
            connection.enqueue("""
                DELETE FROM sync_registers USING unnest($2::text[], $3::text[], $4::text[]) AS t (k, e, f)
                WHERE grid_id = $1 AND kind = k AND entity = e AND field = f
                """, parameters: [.text(id), kinds.parameter, entities.parameter, fields.parameter])
        }
        if write.replacingLog { connection.enqueue("DELETE FROM sync_versions WHERE grid_id = $1", [id]) }
        if let log = write.log {
            connection.enqueue("""
                INSERT INTO sync_versions (grid_id, version, versions) VALUES ($1, $2, $3)
                ON CONFLICT (grid_id, version) DO UPDATE SET versions = excluded.versions
                """, [id, String(log.version), log.versions])
            connection.enqueue("DELETE FROM sync_versions WHERE grid_id = $1 AND version <= $2",
                               [id, String(log.version - StoredSyncWrite.keptVersions)])
        }
    }

    func deleteGrid(named name: String) throws -> Bool {
        prefetchedChunkSizes = nil
        let found = try connection.execute("SELECT id FROM grids WHERE name = $1 FOR UPDATE", [name])
        guard found.count == 1 else { return false }
        let id = [found.string(0, 0)]
        // Deleted table by table rather than by cascade, so a sharded deployment can drop the foreign keys.
        for table in ["sync_item_ids", "sync_registers", "sync_replicas", "sync_versions", "sync_states", "history", "honeycomb_placements", "honeycombs", "placement_chunks", "item_keys", "size_chunks", "sections"] {
            connection.enqueue("DELETE FROM \(table) WHERE grid_id = $1", id)
        }
        connection.enqueue("DELETE FROM grids WHERE id = $1", id)
        notifyObservers()
        return true
    }

    /// Tells every listening observer, at commit, that a grid changed, when there is one (see
    /// ``PostgreSQLChangeSignal``): a change nobody observes does not notify, which would
    /// serialize its commit with every other notifying one in the cluster.
    private func notifyObservers() {
        for statement in PostgreSQLChangeSignal.notifyWhenListened { connection.enqueue(statement) }
    }

    func insertGrid(named name: String, _ changes: GridChangeSet) throws -> Int64 {
        prefetchedChunkSizes = nil
        let settings = changes.settings
        let inserted = try connection.execute("""
            INSERT INTO grids (name, columns, direction, default_size, revision, layout_kind)
            VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (name) DO NOTHING
            RETURNING id
            """, [name, String(settings.columns), settings.direction.rawValue, settings.defaultSize.rawValue,
                  String(settings.revision), settings.kind.rawValue])
        guard inserted.count == 1 else { throw ConcurrentCreation() }
        let id = inserted.int(0, 0)
        try writeRows(changes, gridID: String(id))
        notifyObservers()
        return id
    }

    func write(_ changes: GridChangeSet, gridID: Int64) throws {
        prefetchedChunkSizes = nil
        let settings = changes.settings
        let update = connection.enqueue("""
            UPDATE grids SET columns = $1, direction = $2, default_size = $3, revision = $4, layout_kind = $5,
                             updated_at = now()
            WHERE id = $6
            """, [String(settings.columns), settings.direction.rawValue, settings.defaultSize.rawValue,
                  String(settings.revision), settings.kind.rawValue, String(gridID)])
        pendingGridUpdate = (gridID, update)
        try writeRows(changes, gridID: String(gridID))
        notifyObservers()
    }

    /// Writes everything but the grid row, step by step (see ``GridChangeSet/rowSteps``).
    private func writeRows(_ changes: GridChangeSet, gridID: String) throws {
        for step in changes.rowSteps {
            switch step {
            case .removeAllChunks:
                connection.enqueue("DELETE FROM placement_chunks WHERE grid_id = $1", [gridID])
            case .removeSections(let first):
                for table in ["placement_chunks", "item_keys", "size_chunks", "sections"] {
                    connection.enqueue("DELETE FROM \(table) WHERE grid_id = $1 AND section >= $2", [gridID, String(first)])
                }
            case .itemCounts:
                var sections = PostgreSQLArray(of: .bigint), counts = PostgreSQLArray(of: .bigint)
                for (section, count) in changes.itemCounts {
                    sections.append(section)
                    counts.append(count)
                }
                connection.enqueue("""
                    INSERT INTO sections (grid_id, section, item_count)
                    SELECT $1, s, c FROM unnest($2::bigint[], $3::bigint[]) AS t (s, c)
                    ON CONFLICT (grid_id, section) DO UPDATE SET item_count = excluded.item_count
                    """, parameters: [.text(gridID), sections.parameter, counts.parameter])
            case .sizes: try writeSizes(changes, gridID: gridID)
            case .keys: try writeKeys(changes, gridID: gridID)
            case .chunks: try writeChunks(changes, gridID: gridID)
            case .honeycomb: try writeHoneycomb(changes, gridID: gridID)
            }
        }
    }

    /// Rewrites the size chunks (see ``SizeChunks``) the change touches: a chunk left without an
    /// explicit size is deleted, the others inserted or replaced, one statement each.
    private func writeSizes(_ changes: GridChangeSet, gridID: String) throws {
        let (rewrites, truncations) = changes.sizeChunkEdits()
        for (section, first) in truncations {
            connection.enqueue("DELETE FROM size_chunks WHERE grid_id = $1 AND section = $2 AND first_item >= $3",
                               [gridID, String(section), String(first)])
        }
        var sections = PostgreSQLArray(of: .bigint), firstItems = PostgreSQLArray(of: .bigint), texts = PostgreSQLArray(of: .text)
        var emptySections = PostgreSQLArray(of: .bigint), emptyFirstItems = PostgreSQLArray(of: .bigint)
        var written = 0, emptied = 0
        for (section, first) in rewrites {
            changes.withSizeText(section: section, firstItem: first) { letters in
                if letters.isEmpty {
                    emptySections.append(section)
                    emptyFirstItems.append(first)
                    emptied += 1
                } else {
                    sections.append(section)
                    firstItems.append(first)
                    texts.append(text: letters)
                    written += 1
                }
            }
        }
        if emptied > 0 {
            connection.enqueue("""
                DELETE FROM size_chunks USING unnest($2::bigint[], $3::bigint[]) AS t (s, f)
                WHERE grid_id = $1 AND section = t.s AND first_item = t.f
                """, parameters: [.text(gridID), emptySections.parameter, emptyFirstItems.parameter])
        }
        if written > 0 {
            connection.enqueue("""
                INSERT INTO size_chunks (grid_id, section, first_item, sizes)
                SELECT $1, s, f, z FROM unnest($2::bigint[], $3::bigint[], $4::text[]) AS t (s, f, z)
                ON CONFLICT (grid_id, section, first_item) DO UPDATE SET sizes = excluded.sizes
                """, parameters: [.text(gridID), sections.parameter, firstItems.parameter, texts.parameter])
        }
    }

    private func writeKeys(_ changes: GridChangeSet, gridID: String) throws {
        for (section, item) in changes.keyTruncations {
            connection.enqueue("DELETE FROM item_keys WHERE grid_id = $1 AND section = $2 AND item >= $3",
                                   [gridID, String(section), String(item)])
        }
        guard !changes.keyInserts.isEmpty else { return }
        var sections = PostgreSQLArray(of: .bigint), items = PostgreSQLArray(of: .bigint), keys = PostgreSQLArray(of: .text)
        for row in changes.keyInserts {
            sections.append(row.section)
            items.append(row.item)
            keys.append(text: row.key.utf8)
        }
        connection.enqueue("""
            INSERT INTO item_keys (grid_id, section, item, key)
            SELECT $1, s, i, k FROM unnest($2::bigint[], $3::bigint[], $4::text[]) AS t (s, i, k)
            """, parameters: [.text(gridID), sections.parameter, items.parameter, keys.parameter])
    }

    private func writeChunks(_ changes: GridChangeSet, gridID: String) throws {
        for (section, firstItem) in changes.chunkTruncations {
            connection.enqueue("DELETE FROM placement_chunks WHERE grid_id = $1 AND section = $2 AND first_item >= $3",
                                   [gridID, String(section), String(firstItem)])
        }
        guard !changes.chunkUpserts.isEmpty else { return }
        var sections = PostgreSQLArray(of: .bigint), firstItems = PostgreSQLArray(of: .bigint), cells = PostgreSQLArray(of: .text)
        for chunk in changes.chunkUpserts {
            sections.append(chunk.section)
            firstItems.append(chunk.firstItem)
            cells.append(text: changes.text(of: chunk))
        }
        connection.enqueue("""
            INSERT INTO placement_chunks (grid_id, section, first_item, cells)
            SELECT $1, s, f, c FROM unnest($2::bigint[], $3::bigint[], $4::text[]) AS t (s, f, c)
            ON CONFLICT (grid_id, section, first_item) DO UPDATE SET cells = excluded.cells
            """, parameters: [.text(gridID), sections.parameter, firstItems.parameter, cells.parameter])
    }

    private func writeHoneycomb(_ changes: GridChangeSet, gridID: String) throws {
        switch changes.honeycomb {
        case .set(let honeycomb):
            connection.enqueue("""
                INSERT INTO honeycombs (grid_id, element_width, item_spacing, orientation, center_item, ring_order, scaling)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                ON CONFLICT (grid_id) DO UPDATE SET element_width = excluded.element_width,
                    item_spacing = excluded.item_spacing, orientation = excluded.orientation, center_item = excluded.center_item,
                    ring_order = excluded.ring_order, scaling = excluded.scaling
                """, [gridID, honeycomb.elementWidth.description, honeycomb.itemSpacing.description,
                      honeycomb.orientation.rawValue, honeycomb.centerItem.rawValue, honeycomb.ringOrder.rawValue,
                      honeycomb.scalingCurve.rawValue])
        case .remove:
            connection.enqueue("DELETE FROM honeycombs WHERE grid_id = $1", [gridID])
            connection.enqueue("DELETE FROM honeycomb_placements WHERE grid_id = $1", [gridID])
        case nil:
            break
        }
        if !changes.honeycombUpserts.isEmpty {
            var columns = (0..<8).map { PostgreSQLArray(of: $0 < 4 ? .bigint : .float8) }
            for row in changes.honeycombUpserts {
                columns[0].append(row.item)
                columns[1].append(row.cell.ring)
                columns[2].append(row.cell.q)
                columns[3].append(row.cell.r)
                columns[4].append(row.frame.minX)
                columns[5].append(row.frame.minY)
                columns[6].append(row.frame.size.width)
                columns[7].append(row.frame.size.height)
            }
            connection.enqueue("""
                INSERT INTO honeycomb_placements (grid_id, item, ring, q, r, x, y, width, height)
                SELECT $1, i, g, q, r, x, y, w, h
                FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[],
                            $6::float8[], $7::float8[], $8::float8[], $9::float8[]) AS t (i, g, q, r, x, y, w, h)
                ON CONFLICT (grid_id, item) DO UPDATE SET ring = excluded.ring, q = excluded.q, r = excluded.r,
                    x = excluded.x, y = excluded.y, width = excluded.width, height = excluded.height
                """, parameters: [.text(gridID)] + columns.map(\.parameter))
        }
        if let first = changes.honeycombTruncation {
            connection.enqueue("DELETE FROM honeycomb_placements WHERE grid_id = $1 AND item >= $2", [gridID, String(first)])
        }
    }
}
