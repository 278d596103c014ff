import GridLayout
import GridStore

/// The grid rows of one SQLite transaction: the SQL of ``GridStorageTransaction``.
///
/// `BEGIN IMMEDIATE` already holds the database's write lock for the whole of a write, so
/// reading a grid's row needs no lock of its own.
final class SQLiteGridTransaction: GridStorageTransaction {
    let connection: SQLiteConnection
    /// The database file's path, for its identity.
    let path: String

    /// The token of the send this transaction records (``recordSend()``), which the file takes
    /// as the transaction commits (``markSend()``); `nil` when it records none.
    private var sendMark: String?

    init(_ connection: SQLiteConnection, path: String) {
        self.connection = connection
        self.path = path
    }

    // MARK: Reading

    func header(named name: String) throws -> StoredGridRow? {
        try connection.fetchOne("""
            SELECT grids.id, revision, columns, direction, default_size, layout_kind,
                   element_width, item_spacing, orientation, center_item, ring_order, scaling, history_keep
            FROM grids LEFT JOIN honeycombs ON honeycombs.grid_id = grids.id
            WHERE name = ?
            """, [name]
        ) { row in
            StoredGridRow(
                id: Int64(row.int(at: 0)), name: name, revision: Int64(row.int(at: 1)), columns: Int64(row.int(at: 2)),
                direction: row.string(at: 3), defaultSize: row.string(at: 4), kind: row.string(at: 5),
                honeycomb: row.isNull(at: 6) ? nil
                    : StoredHoneycombRow(elementWidth: row.double(at: 6), itemSpacing: row.double(at: 7),
                                         orientation: row.string(at: 8), centerItem: row.string(at: 9),
                                         ringOrder: row.string(at: 10), scaling: row.string(at: 11)),
                historyKeep: Int64(row.int(at: 12)))
        }
    }

    func sectionItemCounts(gridID: Int64) throws -> [(section: Int, count: Int)] {
        try connection.fetchAll("SELECT section, item_count FROM sections WHERE grid_id = ? ORDER BY section", [gridID]) {
            (section: $0.int(at: 0), count: $0.int(at: 1))
        }
    }

    func forEachExplicitSize(gridID: Int64, _ body: (Int, Int, TileSize?) throws -> Void) throws {
        let chunks = try connection.cachedStatement("SELECT section, first_item, sizes FROM size_chunks WHERE grid_id = ?")
        try chunks.bind([gridID])
        defer { chunks.reset() }
        while try chunks.step() {
            let section = chunks.int(at: 0)
            let first = chunks.int(at: 1)
            try chunks.withUTF8(at: 2) { letters in
                try SizeChunks.forEachSize(in: letters, section: section, firstItem: first, body)
            }
        }
    }

    func storedItem(gridID: Int64, at place: StoredItemPlace) throws -> StoredItemRow? {
        let (section, item): (Int, Int)
        switch place {
        case .index(let atSection, let atItem): (section, item) = (atSection, atItem)
        case .key(let key):
            guard let found = try connection.fetchOne("SELECT section, item FROM item_keys WHERE grid_id = ? AND key = ?",
                                                      [gridID, key], { (section: $0.int(at: 0), item: $0.int(at: 1)) }) else {
                return nil
            }
            (section, item) = found
        }
        let stored = try storedItem(gridID: gridID, section: section, item: item)
        return StoredItemRow(section: section, item: item, itemCount: stored.itemCount, size: stored.size, key: stored.key)
    }

    private func storedItem(gridID: Int64, section: Int, item: Int) throws -> (itemCount: Int?, size: StoredSize, key: String?) {
        let count = try connection.fetchOne("SELECT item_count FROM sections WHERE grid_id = ? AND section = ?",
                                            [gridID, section]) { $0.int(at: 0) }
        let first = SizeChunks.firstItem(ofChunkHolding: item)
        let size = try connection.fetchOne("SELECT sizes FROM size_chunks WHERE grid_id = ? AND section = ? AND first_item = ?",
                                           [gridID, section, first]) { row in
            try row.withUTF8(at: 0) { try SizeChunks.storedSize(ofItem: item, section: section, in: $0) }
        } ?? .none
        let key = try connection.fetchOne("SELECT key FROM item_keys WHERE grid_id = ? AND section = ? AND item = ?",
                                          [gridID, section, item]) { $0.string(at: 0) }
        return (count, size, key)
    }

    func forEachItemKey(gridID: Int64, _ body: (Int, Int, String) throws -> Void) throws {
        let keys = try connection.cachedStatement("SELECT section, item, key FROM item_keys WHERE grid_id = ?")
        try keys.bind([gridID])
        defer { keys.reset() }
        while try keys.step() {
            try body(keys.int(at: 0), keys.int(at: 1), keys.string(at: 2))
        }
    }

    func listGrids() throws -> [StoredGridSummaryRow] {
        try connection.fetchAll("""
            SELECT name, columns, direction, revision, updated_at,
                   (SELECT count(*) FROM sections WHERE grid_id = grids.id),
                   (SELECT coalesce(sum(item_count), 0) FROM sections WHERE grid_id = grids.id), layout_kind
            FROM grids ORDER BY name
            """) { row in
            StoredGridSummaryRow(name: row.string(at: 0), columns: Int64(row.int(at: 1)), direction: row.string(at: 2),
                                 revision: Int64(row.int(at: 3)), updatedAt: row.string(at: 4), sectionCount: Int64(row.int(at: 5)),
                                 itemCount: Int64(row.int(at: 6)), kind: row.string(at: 7))
        }
    }

    func placementChunkSizes(gridID: Int64) throws -> [(section: Int, firstItem: Int, byteCount: Int)] {
        // As a blob, a value's length is read from its record header; the text is not scanned.
        try connection.fetchAll(
            "SELECT section, first_item, length(CAST(cells AS BLOB)) FROM placement_chunks WHERE grid_id = ?", [gridID]
        ) { (section: $0.int(at: 0), firstItem: $0.int(at: 1), byteCount: $0.int(at: 2)) }
    }

    func placementChunks(gridID: Int64) throws -> [(section: Int, firstItem: Int, cells: [UInt8])] {
        try connection.fetchAll("SELECT section, first_item, cells FROM placement_chunks WHERE grid_id = ?", [gridID]) { row in
            (section: row.int(at: 0), firstItem: row.int(at: 1), cells: row.withUTF8(at: 2) { Array($0) })
        }
    }

    func historyEntries(gridID: Int64, limit: Int, deltas: Bool) throws -> [StoredHistoryEntry] {
        try connection.fetchAll("""
            SELECT revision, made_at, kind, operation, actor, targets, \(deltas ? "delta, registers" : "'', CASE WHEN registers IS NULL THEN NULL ELSE '' END")
            FROM history WHERE grid_id = ? ORDER BY revision DESC LIMIT ?
            """, [gridID, limit]) { row in
            StoredHistoryEntry(revision: Int64(row.int(at: 0)), madeAt: row.string(at: 1), kind: row.string(at: 2),
                               operation: row.string(at: 3), actor: row.string(at: 4), targets: row.string(at: 5),
                               delta: row.string(at: 6), registers: row.isNull(at: 7) ? nil : row.string(at: 7))
        }
    }

    func historyDelta(gridID: Int64, revision: Int) throws -> String? {
        try connection.fetchOne("SELECT delta FROM history WHERE grid_id = ? AND revision = ?", [gridID, revision]) {
            $0.string(at: 0)
        }
    }

    func historyRegisters(gridID: Int64, revision: Int) throws -> String? {
        try connection.fetchOne("SELECT CAST(substr(CAST(registers AS BLOB), 1, ?) AS TEXT) FROM history WHERE grid_id = ? AND revision = ?",
                                [StoredHistoryEntry.maximumRegistersBytes + 1, gridID, revision]) {
            $0.isNull(at: 0) ? nil : $0.string(at: 0)
        } ?? nil
    }

    // MARK: Writing

    func appendHistory(_ entry: StoredHistoryEntry, gridID: Int64, keep: Int) throws {
        try connection.executeCached("""
            INSERT INTO history (grid_id, revision, made_at, kind, operation, actor, targets, delta, registers)
                VALUES (?, ?, coalesce(nullif(?, ''), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), ?, ?, ?, ?, ?, ?)
            ON CONFLICT (grid_id, revision) DO UPDATE SET made_at = excluded.made_at, kind = excluded.kind,
                operation = excluded.operation, actor = excluded.actor, targets = excluded.targets, delta = excluded.delta,
                registers = excluded.registers
            """, [gridID, entry.revision, entry.madeAt, entry.kind, entry.operation, entry.actor, entry.targets, entry.delta,
                  entry.registers])
        try connection.executeCached("DELETE FROM history WHERE grid_id = ? AND revision <= ?", [gridID, entry.revision - Int64(keep)])
    }

    func replicaRow() throws -> StoredReplicaRow? {
        try connection.fetchOne("SELECT id, file_identity, substr(name, 1, ?) FROM replica WHERE only_row = 1",
                                [GridLimits.maximumReplicaNameLength + 1]) {
            StoredReplicaRow(id: $0.string(at: 0), storageIdentity: $0.string(at: 1), name: $0.isNull(at: 2) ? nil : $0.string(at: 2))
        }
    }

    /// The file's device, inode and birth time (``FileIdentity/replicaText(of:)``): a copy of the
    /// file is another file; then the mark of its latest send (``SendMark``): a backup restored
    /// over it that sent since is another database.
    func storageIdentity() throws -> String {
        let file = FileIdentity.replicaText(of: path)
        guard !file.isEmpty else { return file }
        // The send this transaction records is the file's mark as far as it sees: the file takes it at the commit.
        guard let mark = sendMark ?? SendMark.token(of: path) else { return file }
        return file + "#" + mark
    }

    /// Records a new token for this send with the replica id (``SendMark``), which the file
    /// takes as the transaction commits (``markSend()``). Nothing where the database is not the
    /// one minted for the file (it takes a replica id of its own first).
    func recordSend() throws {
        guard sendMark == nil, let row = try replicaRow() else { return }
        let identity = try storageIdentity()
        guard !identity.isEmpty, row.isMinted(for: identity) else { return }
        let token = ReplicaID.random().description
        sendMark = token
        // The file's identity now, which may add a birth time to the one an earlier gridstore recorded.
        try recordFileIdentity(StoredReplicaRow.split(identity).storage + "#" + token)
    }

    /// Just before the transaction commits, after all else it wrote: the file takes the token of
    /// the send it records, written through to the disk, so that from the commit on a backup
    /// from before the send is not the database. A file that cannot take it (a file system
    /// without extended attributes, or no room left among them) loses any mark it carries, and
    /// the database records none: it is told apart as on a file system without them, never by
    /// a stale token. A crash or a failed commit after the file took the token leaves the
    /// database recording the one before: it takes itself for a copy at its next sync (replica
    /// ids of its own; nothing is lost).
    func markSend() throws {
        guard let token = sendMark else { return }
        sendMark = nil
        guard !SendMark.write(token, to: path) else { return }
        _ = SendMark.remove(from: path)
        try recordFileIdentity(FileIdentity.replicaText(of: path))
    }

    /// Writes the identity the database records with its replica id (`replica.file_identity`).
    private func recordFileIdentity(_ identity: String) throws {
        try connection.executeCached("UPDATE replica SET file_identity = ? WHERE only_row = 1", [identity])
    }

    func syncSummary(named name: String) throws -> StoredSyncSummary? {
        guard let replica = try replicaRow() else { return nil }
        let grid = try connection.fetchOne("""
            SELECT grids.revision, sync_states.revision, clock, versions, conflicts, replica, database_replica, version
            FROM grids LEFT JOIN sync_states ON sync_states.grid_id = grids.id WHERE name = ?
            """, [name]) { row in
            (revision: Int64(row.int(at: 0)),
             state: row.isNull(at: 1) ? nil : StoredSyncState(replica: row.string(at: 5), databaseReplica: row.string(at: 6),
                                                             revision: Int64(row.int(at: 1)), clock: Int64(row.int(at: 2)),
                                                             versions: row.string(at: 3), conflicts: Int64(row.int(at: 4)),
                                                             version: Int64(row.int(at: 7))))
        }
        return StoredSyncSummary(replica: replica, storageIdentity: try storageIdentity(), revision: grid?.revision, state: grid?.state,
                                 drop: try syncDrop(named: name))
    }

    func syncDrops(limit: Int) throws -> [StoredSyncDrop] {
        try connection.fetchAll("SELECT name, substr(versions, 1, ?), dropped_at FROM sync_drops ORDER BY name LIMIT ?",
                                [StoredSyncDrop.maximumVersionsBytes + 1, limit]) {
            StoredSyncDrop(name: $0.string(at: 0), versions: $0.string(at: 1), droppedAt: Int64($0.int(at: 2)))
        }
    }

    func syncDrop(named name: String) throws -> StoredSyncDrop? {
        try connection.fetchOne("SELECT name, substr(versions, 1, ?), dropped_at FROM sync_drops WHERE name = ?",
                                [StoredSyncDrop.maximumVersionsBytes + 1, name]) {
            StoredSyncDrop(name: $0.string(at: 0), versions: $0.string(at: 1), droppedAt: Int64($0.int(at: 2)))
        }
    }

    func writeSyncDrop(_ drop: StoredSyncDrop) throws {
        try connection.executeCached("""
            INSERT INTO sync_drops (name, versions, dropped_at) VALUES (?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET versions = excluded.versions, dropped_at = excluded.dropped_at
            """, [drop.name, drop.versions, drop.droppedAt])
    }

    func deleteSyncDrop(named name: String) throws {
        try connection.executeCached("DELETE FROM sync_drops WHERE name = ?", [name])
    }

    func deleteSyncDrops(keeping names: [String]) throws {
        try connection.execute("DELETE FROM sync_drops WHERE name NOT IN (SELECT value FROM json_each(?))",
                               ["[" + names.map(JSONText.quoted).joined(separator: ",") + "]"])
    }

    func setReplicaRow(_ row: StoredReplicaRow) throws {
        try connection.execute("""
            INSERT INTO replica (only_row, id, file_identity) VALUES (1, ?, ?)
            ON CONFLICT (only_row) DO UPDATE SET id = excluded.id, file_identity = excluded.file_identity
            """, [row.id, row.storageIdentity])
    }

    func setReplicaName(_ name: String?) throws {
        try connection.execute("UPDATE replica SET name = ? WHERE only_row = 1", [name])
    }

    func syncState(gridID: Int64) throws -> StoredSyncState? {
        try connection.fetchOne("""
            SELECT revision, clock, versions, conflicts, replica, database_replica, version, sent, substr(peers, 1, ?)
            FROM sync_states WHERE grid_id = ?
            """, [StoredSyncState.maximumPeersBytes + 1, gridID]) { row in
            StoredSyncState(replica: row.string(at: 4), databaseReplica: row.string(at: 5), revision: Int64(row.int(at: 0)),
                            clock: Int64(row.int(at: 1)), versions: row.string(at: 2), conflicts: Int64(row.int(at: 3)),
                            version: Int64(row.int(at: 6)), sent: row.isNull(at: 7) ? nil : Int64(row.int(at: 7)),
                            peers: row.isNull(at: 8) ? nil : row.string(at: 8))
        }
    }

    func syncReplicas(gridID: Int64, limit: Int) throws -> [StoredSyncReplica] {
        try connection.fetchAll("SELECT number, id FROM sync_replicas WHERE grid_id = ? ORDER BY number LIMIT ?", [gridID, limit]) {
            StoredSyncReplica(number: Int64($0.int(at: 0)), id: $0.string(at: 1))
        }
    }

    func syncRegisters(gridID: Int64, changedAfter version: Int64, limit: Int) throws -> StoredSyncRegisters {
        var registers: [StoredSyncRegister] = []
        let replicas = try syncRegisterRows(gridID: gridID, changedAfter: version, limit: limit) { registers.append($0.row) }
        return StoredSyncRegisters(replicas: replicas, registers: registers)
    }

    func syncRegisterRows(gridID: Int64, changedAfter version: Int64, limit: Int,
                          _ body: (StoredSyncRegisterBytes) throws -> Void) throws -> [StoredSyncReplica] {
        let replicas = try syncReplicas(gridID: gridID, limit: limit)
        // The version index looks each register it finds up in the table, about seven times
        // what reading one in the table's order costs: the grid's registers are read in the
        // table's order when more changed than a quarter of the grid's items (every one, for a
        // peer that has nothing; an item has one to four registers), counted in the index and no
        // further than that. The names are read by the primary key (`+version` keeps SQLite from
        // walking the version index through every older register to find them: 2.3 ms on a grid
        // of 10,000 items).
        var inTableOrder = version <= 0
        if !inTableOrder {
            let items = try itemCount(gridID: gridID, atMost: limit)
            let changed = try connection.fetchOne("""
                SELECT count(*) FROM (SELECT 1 FROM sync_registers WHERE grid_id = ? AND version > ? LIMIT ?)
                """, [gridID, version, items / 4 + 1]) { $0.int(at: 0) } ?? 0
            inTableOrder = changed > items / 4
        }
        // Each row's bytes are handed on as SQLite holds them: no text is copied here. A register
        // ends at a NUL, as `substr`, which the other reads of registers cut them with, ends it.
        try connection.forEachRow(inTableOrder ? """
            SELECT kind, entity, field, register, version FROM sync_registers
            WHERE grid_id = ?1 AND (+version > ?2 OR kind = 'replica')
            LIMIT ?3
            """ : """
            SELECT kind, entity, field, register, version FROM sync_registers WHERE grid_id = ?1 AND version > ?2
            UNION ALL
            SELECT kind, entity, field, register, version FROM sync_registers
            WHERE grid_id = ?1 AND kind = 'replica' AND +version <= ?2
            LIMIT ?3
            """, [gridID, version, limit]) { row in
            let version = Int64(row.int(at: 4))
            try row.withUTF8(at: 0) { kind in
                try row.withUTF8(at: 1) { entity in
                    try row.withUTF8(at: 2) { field in
                        try row.withUTF8(at: 3) { register in
                            let register = register.firstIndex(of: 0).map { UnsafeBufferPointer(rebasing: register[..<$0]) } ?? register
                            try body(StoredSyncRegisterBytes(kind: kind, entity: entity, field: field, register: register, version: version))
                        }
                    }
                }
            }
        }
        return replicas
    }

    func syncRegisters(gridID: Int64, kind: String, entity: String) throws -> [StoredSyncRegister] {
        try connection.fetchAll("""
            SELECT field, substr(register, 1, ?), version FROM sync_registers WHERE grid_id = ? AND kind = ? AND entity = ? LIMIT 5
            """, [StoredSyncRegisters.maximumRegisterBytes + 1, gridID, kind, entity]) {
            StoredSyncRegister(kind: kind, entity: entity, field: $0.string(at: 0), register: $0.string(at: 1), version: Int64($0.int(at: 2)))
        }
    }

    /// The grid's item count as its sections say, at most `limit`; a count out of bounds (a hand
    /// edit past the tables' checks) is taken as none.
    private func itemCount(gridID: Int64, atMost limit: Int) throws -> Int {
        try connection.fetchOne("SELECT total(item_count) FROM sections WHERE grid_id = ?", [gridID]) {
            let total = $0.double(at: 0)
            return total >= 1 ? Int(min(total, Double(limit))) : 0
        } ?? 0
    }

    func syncRegisters(gridID: Int64, sizesOf items: [String], namesOf replicas: [String]) throws -> [StoredSyncRegister] {
        guard !items.isEmpty || !replicas.isEmpty else { return [] }
        // Most of the grid's items, named in order (an import of sizes, a first bundle): a walk
        // of the grid's item rows in the table's order, keeping the named ones, reads a third of
        // what a lookup an id does. It compares ids as UTF-8 bytes: the order of the primary key
        // in a UTF-8 file.
        if items.count >= 1_000, zip(items, items.dropFirst()).allSatisfy({ $0.0.utf8.lexicographicallyPrecedes($0.1.utf8) }),
           try connection.fetchOne("PRAGMA encoding", [], { $0.string(at: 0) }) == "UTF-8" {
            let shown = try itemCount(gridID: gridID, atMost: Int(Int32.max))
            if items.count * 2 >= shown {
                // The rows of the items shown, four at most each: past them, deleted items' rows
                // would make the walk the longer way, and the ids left are looked up.
                let (found, rest) = try sizeRegisters(gridID: gridID, among: items, rowLimit: 4 * shown + 16)
                return try found + lookedUp(gridID: gridID, sizesOf: Array(rest), namesOf: replicas)
            }
        }
        return try lookedUp(gridID: gridID, sizesOf: items, namesOf: replicas)
    }

    /// ``syncRegisters(gridID:sizesOf:namesOf:)``, each register looked up by its key.
    private func lookedUp(gridID: Int64, sizesOf items: [String], namesOf replicas: [String]) throws -> [StoredSyncRegister] {
        guard !items.isEmpty || !replicas.isEmpty else { return [] }
        // Each list of ids as one JSON array: one statement, whatever their number. Ids are
        // hexadecimal digits, each once (the callers' are). Each id of the list looks its row up
        // by the primary key (`CROSS JOIN` keeps the list outside): a third fewer instructions
        // than `entity IN (SELECT value FROM json_each(?))`, which first builds an index of the list.
        func list(_ ids: [String]) -> String { StoredSyncRegisters.idList(ids, open: "[", close: "]", quote: "\"") }
        let limit = StoredSyncRegisters.maximumRegisterBytes + 1
        return try connection.fetchAll("""
            SELECT r.kind, r.entity, r.field, substr(r.register, 1, ?), r.version FROM json_each(?) AS j
            CROSS JOIN sync_registers AS r ON r.grid_id = ? AND r.kind = 'item' AND r.entity = j.value AND r.field = 's'
            UNION ALL
            SELECT r.kind, r.entity, r.field, substr(r.register, 1, ?), r.version FROM json_each(?) AS j
            CROSS JOIN sync_registers AS r ON r.grid_id = ? AND r.kind = 'replica' AND r.entity = j.value AND r.field = 'name'
            LIMIT ?
            """, [limit, list(items), gridID, limit, list(replicas), gridID, items.count + replicas.count]) {
            StoredSyncRegister(kind: $0.string(at: 0), entity: $0.string(at: 1), field: $0.string(at: 2), register: $0.string(at: 3),
                               version: Int64($0.int(at: 4)))
        }
    }

    /// The size registers of the items `items` (ids in ascending order of their bytes, each
    /// once) found by a walk of at most `rowLimit` of the grid's item rows in the table's order,
    /// and the ids past the walk's end when it stopped at the limit (none otherwise).
    private func sizeRegisters(gridID: Int64, among items: [String],
                               rowLimit: Int) throws -> (found: [StoredSyncRegister], rest: ArraySlice<String>) {
        var registers: [StoredSyncRegister] = []
        var next = items.startIndex
        var rows = 0
        try connection.forEachRow("""
            SELECT entity, field = 's', CASE WHEN field = 's' THEN substr(register, 1, ?) END, version FROM sync_registers
            WHERE grid_id = ? AND kind = 'item' ORDER BY entity, field LIMIT ?
            """, [StoredSyncRegisters.maximumRegisterBytes + 1, gridID, rowLimit]) { row in
            rows += 1
            guard next < items.endIndex, row.int(at: 1) == 1 else { return }
            // Rows come in the order of their entities' UTF-8 bytes, as the primary key of a UTF-8
            // file holds them (compared as bytes here too, whatever a hand edit wrote).
            let found = row.withUTF8(at: 0) { entity in
                while next < items.endIndex && items[next].utf8.lexicographicallyPrecedes(entity) { next += 1 }
                return next < items.endIndex && items[next].utf8.elementsEqual(entity)
            }
            guard found else { return }
            registers.append(StoredSyncRegister(kind: "item", entity: items[next], field: "s", register: row.string(at: 2),
                                                version: Int64(row.int(at: 3))))
            next += 1
        }
        return (registers, rows < rowLimit ? [] : items[next...])
    }

    func syncItemIDs(gridID: Int64, section: Int, firstItem: Int) throws -> String? {
        try connection.fetchOne("SELECT substr(ids, 1, ?) FROM sync_item_ids WHERE grid_id = ? AND section = ? AND first_item = ?",
                                [StoredSyncItemIDs.maximumTextLength + 1, gridID, section, firstItem]) { $0.string(at: 0) }
    }

    func syncItemIDs(gridID: Int64, limit: Int) throws -> [StoredSyncItemIDs] {
        try connection.fetchAll("""
            SELECT section, first_item, substr(ids, 1, ?) FROM sync_item_ids WHERE grid_id = ? ORDER BY section, first_item LIMIT ?
            """, [StoredSyncItemIDs.maximumTextLength + 1, gridID, limit]) {
            StoredSyncItemIDs(section: $0.int(at: 0), firstItem: $0.int(at: 1), ids: $0.string(at: 2))
        }
    }

    func syncVersionLog(gridID: Int64) throws -> [StoredSyncVersion] {
        try connection.fetchAll("SELECT version, versions FROM sync_versions WHERE grid_id = ? ORDER BY version DESC LIMIT ?",
                                [gridID, StoredSyncWrite.keptVersions]) {
            StoredSyncVersion(version: Int64($0.int(at: 0)), versions: $0.string(at: 1))
        }
    }

    func writeSyncState(_ write: StoredSyncWrite, gridID: Int64) throws {
        if write.replacing {
            for table in ["sync_registers", "sync_replicas", "sync_versions"] {
                try connection.execute("DELETE FROM \(table) WHERE grid_id = ?", [gridID])
            }
        }
        if let chunks = write.itemIDs {
            try connection.executeCached("DELETE FROM sync_item_ids WHERE grid_id = ?", [gridID])
            for chunk in chunks {
                try connection.executeCached("INSERT INTO sync_item_ids (grid_id, section, first_item, ids) VALUES (?, ?, ?, ?)",
                                             [gridID, chunk.section, chunk.firstItem, chunk.ids])
            }
        }
        let state = write.state
        // Most writes replace a state row (every change to a synced grid): an update, which
        // SQLite prepares and runs for less than an upsert; the row is inserted at a first sync.
        let values: [SQLiteValue] = [.text(state.replica), .text(state.databaseReplica), .integer(state.revision), .integer(state.clock),
                                     .text(state.versions), .integer(state.conflicts), .integer(state.version),
                                     state.sent.map { .integer($0) } ?? .null, write.peers.map { .text($0) } ?? .null, .integer(gridID)]
        // The peers only when the write gives them.
        try connection.executeCached("""
            UPDATE sync_states SET replica = ?, database_replica = ?, revision = ?, clock = ?, versions = ?, conflicts = ?,
                version = ?, sent = ?, peers = coalesce(?, peers) WHERE grid_id = ?
            """, values)
        if connection.changes == 0 {
            try connection.executeCached("""
                INSERT INTO sync_states (replica, database_replica, revision, clock, versions, conflicts, version, sent, peers, grid_id)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, values)
        }
        for replica in write.replicas {
            try connection.executeCached("INSERT INTO sync_replicas (grid_id, number, id) VALUES (?, ?, ?)",
                                         [gridID, replica.number, replica.id])
        }
        if !write.registers.isEmpty {
            // One statement for every row, the grid bound once: a sync may write thousands.
            let upsert = try connection.cachedStatement("""
                INSERT INTO sync_registers (grid_id, kind, entity, field, register, version) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (grid_id, kind, entity, field) DO UPDATE SET register = excluded.register, version = excluded.version
                """)
            defer { upsert.reset() }
            try upsert.bind(.integer(gridID), at: 1)
            // A value stays bound from one row to the next: the kind and the field, most often
            // the same for every row, are bound again only when they change.
            // (Compared as bytes: two texts Swift takes for equal may differ in their bytes.)
            var bound: (kind: String, field: String)?
            for register in write.registers {
                if !(bound.map { $0.kind.utf8.elementsEqual(register.kind.utf8) } ?? false) {
                    try upsert.bind(.text(register.kind), at: 2)
                }
                try upsert.bind(.text(register.entity), at: 3)
                if !(bound.map { $0.field.utf8.elementsEqual(register.field.utf8) } ?? false) {
                    try upsert.bind(.text(register.field), at: 4)
                }
                bound = (register.kind, register.field)
                try upsert.bind(.text(register.register), at: 5)
                try upsert.bind(.integer(register.version), at: 6)
                try upsert.run()
            }
        }
        for key in write.removed {
            try connection.executeCached("DELETE FROM sync_registers WHERE grid_id = ? AND kind = ? AND entity = ? AND field = ?",
                                         [gridID, key.kind, key.entity, key.field])
        }
        if write.replacingLog { try connection.execute("DELETE FROM sync_versions WHERE grid_id = ?", [gridID]) }
        if let log = write.log {
            try connection.executeCached("INSERT OR REPLACE INTO sync_versions (grid_id, version, versions) VALUES (?, ?, ?)",
                                         [gridID, log.version, log.versions])
            try connection.executeCached("DELETE FROM sync_versions WHERE grid_id = ? AND version <= ?",
                                         [gridID, log.version - StoredSyncWrite.keptVersions])
        }
    }

    func setUpdatedAt(_ time: String, gridID: Int64) throws {
        try connection.execute("UPDATE grids SET updated_at = ? WHERE id = ?", [time, gridID])
    }

    func setHistoryKeep(_ keep: Int, gridID: Int64, revision: Int) throws {
        try connection.execute("UPDATE grids SET history_keep = ? WHERE id = ?", [keep, gridID])
        try connection.execute("DELETE FROM history WHERE grid_id = ? AND revision <= ?", [gridID, revision - keep])
    }

    func replacePlacements(with changes: GridChangeSet, gridID: Int64) throws {
        try connection.execute("DELETE FROM placement_chunks WHERE grid_id = ?", [gridID])
        try writeChunks(changes, gridID: Int(gridID))
    }

    func deleteGrid(named name: String) throws -> Bool {
        // Its sections, sizes, placements and honeycomb rows go with it (ON DELETE CASCADE).
        try connection.executeCached("DELETE FROM grids WHERE name = ?", [name])
        return connection.changes > 0
    }

    func insertGrid(named name: String, _ changes: GridChangeSet) throws -> Int64 {
        let settings = changes.settings
        do {
            try connection.executeCached(
                "INSERT INTO grids (name, columns, direction, default_size, revision, layout_kind) VALUES (?, ?, ?, ?, ?, ?)",
                [name, settings.columns, settings.direction.rawValue, settings.defaultSize.rawValue, settings.revision,
                 settings.kind.rawValue])
        } catch let error as SQLiteError where error.isFull {
            // AUTOINCREMENT fails so when the ids are used up, whatever room the disk has.
            let last = try connection.fetchOne("""
                SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'grids'), 0), coalesce((SELECT max(id) FROM grids), 0))
                """) { $0.int(at: 0) }
            guard last == Int.max else { throw error }
            throw GridError.corrupted("the file has given out every grid id (its sqlite_sequence for grids is at \(Int.max)), "
                                      + "so no grid can be added; copy its grids into a new file with 'gridstore copy'")
        }
        let id = connection.lastInsertRowID
        try writeRows(changes, gridID: Int(id))
        return id
    }

    func write(_ changes: GridChangeSet, gridID: Int64) throws {
        let settings = changes.settings
        let updated = try connection.cachedStatement("""
            UPDATE grids SET columns = ?, direction = ?, default_size = ?, revision = ?, layout_kind = ?,
                             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
            WHERE id = ?
            """)
        try updated.bind([settings.columns, settings.direction.rawValue, settings.defaultSize.rawValue, settings.revision,
                          settings.kind.rawValue, gridID])
        try updated.run()
        try writeRows(changes, gridID: Int(gridID))
    }

    /// Writes everything but the grid row, step by step (see ``GridChangeSet/rowSteps``).
    private func writeRows(_ changes: GridChangeSet, gridID: Int) throws {
        for step in changes.rowSteps {
            switch step {
            case .removeAllChunks:
                try connection.executeCached("DELETE FROM placement_chunks WHERE grid_id = ?", [gridID])
            case .removeSections(let first):
                // Deleting sections deletes their sizes, keys and placements with them (ON DELETE CASCADE).
                try connection.executeCached("DELETE FROM sections WHERE grid_id = ? AND section >= ?", [gridID, first])
            case .itemCounts:
                for (section, count) in changes.itemCounts {
                    try connection.executeCached("""
                        INSERT INTO sections (grid_id, section, item_count) VALUES (?, ?, ?)
                        ON CONFLICT (grid_id, section) DO UPDATE SET item_count = excluded.item_count
                        """, [gridID, section, count])
                }
            case .sizes: try writeSizes(changes, gridID: gridID)
            case .keys: try writeKeys(changes, gridID: gridID)
            case .chunks: try writeChunks(changes, gridID: gridID)
            case .honeycomb: try writeHoneycomb(changes, gridID: gridID)
            }
        }
    }

    private func writeSizes(_ changes: GridChangeSet, gridID: Int) throws {
        let (rewrites, truncations) = changes.sizeChunkEdits()
        for (section, first) in truncations {
            try connection.executeCached("DELETE FROM size_chunks WHERE grid_id = ? AND section = ? AND first_item >= ?",
                                         [gridID, section, first])
        }
        guard !rewrites.isEmpty else { return }
        let upsert = try connection.cachedStatement("""
            INSERT INTO size_chunks (grid_id, section, first_item, sizes) VALUES (?, ?, ?, ?)
            ON CONFLICT (grid_id, section, first_item) DO UPDATE SET sizes = excluded.sizes
            """)
        for (section, first) in rewrites {
            try changes.withSizeText(section: section, firstItem: first) { letters in
                if letters.isEmpty {
                    try connection.executeCached("DELETE FROM size_chunks WHERE grid_id = ? AND section = ? AND first_item = ?",
                                                 [gridID, section, first])
                    return
                }
                try upsert.bind(gridID, at: 1)
                try upsert.bind(section, at: 2)
                try upsert.bind(first, at: 3)
                try upsert.bindText(letters, at: 4)
                try upsert.run()
            }
        }
    }

    private func writeKeys(_ changes: GridChangeSet, gridID: Int) throws {
        for (section, item) in changes.keyTruncations {
            try connection.executeCached("DELETE FROM item_keys WHERE grid_id = ? AND section = ? AND item >= ?",
                                         [gridID, section, item])
        }
        guard !changes.keyInserts.isEmpty else { return }
        let insert = try connection.cachedStatement("INSERT INTO item_keys (grid_id, section, item, key) VALUES (?, ?, ?, ?)")
        for row in changes.keyInserts {
            try insert.bind([gridID, row.section, row.item, row.key])
            try insert.run()
        }
    }

    private func writeChunks(_ changes: GridChangeSet, gridID: Int) throws {
        for (section, firstItem) in changes.chunkTruncations {
            try connection.executeCached("DELETE FROM placement_chunks WHERE grid_id = ? AND section = ? AND first_item >= ?",
                                   [gridID, section, firstItem])
        }
        guard !changes.chunkUpserts.isEmpty else { return }
        let upsert = try connection.cachedStatement("""
            INSERT INTO placement_chunks (grid_id, section, first_item, cells) VALUES (?, ?, ?, ?)
            ON CONFLICT (grid_id, section, first_item) DO UPDATE SET cells = excluded.cells
            """)
        for chunk in changes.chunkUpserts {
            try upsert.bind(gridID, at: 1)
            try upsert.bind(chunk.section, at: 2)
            try upsert.bind(chunk.firstItem, at: 3)
            try changes.withText(of: chunk) { text in
                try upsert.bindText(text, at: 4)
                try upsert.run()
            }
        }
    }

    private func writeHoneycomb(_ changes: GridChangeSet, gridID: Int) throws {
        switch changes.honeycomb {
        case .set(let honeycomb):
            try connection.executeCached("""
                INSERT INTO honeycombs (grid_id, element_width, item_spacing, orientation, center_item, ring_order, scaling)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (grid_id) DO UPDATE SET element_width = excluded.element_width,
                    item_spacing = excluded.item_spacing, orientation = excluded.orientation, center_item = excluded.center_item,
                    ring_order = excluded.ring_order, scaling = excluded.scaling
                """, [gridID, honeycomb.elementWidth, honeycomb.itemSpacing, honeycomb.orientation.rawValue,
                      honeycomb.centerItem.rawValue, honeycomb.ringOrder.rawValue, honeycomb.scalingCurve.rawValue])
        case .remove:
            try connection.executeCached("DELETE FROM honeycombs WHERE grid_id = ?", [gridID])
            try connection.executeCached("DELETE FROM honeycomb_placements WHERE grid_id = ?", [gridID])
        case nil:
            break
        }
        if !changes.honeycombUpserts.isEmpty {
            let upsert = try connection.cachedStatement("""
                INSERT INTO honeycomb_placements (grid_id, item, ring, q, r, x, y, width, height) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (grid_id, item) DO UPDATE SET ring = excluded.ring, q = excluded.q, r = excluded.r,
                    x = excluded.x, y = excluded.y, width = excluded.width, height = excluded.height
                """)
            for row in changes.honeycombUpserts {
                try upsert.bind([gridID, row.item, row.cell.ring, row.cell.q, row.cell.r, row.frame.minX, row.frame.minY,
                                 row.frame.size.width, row.frame.size.height])
                try upsert.run()
            }
        }
        if let first = changes.honeycombTruncation {
            try connection.executeCached("DELETE FROM honeycomb_placements WHERE grid_id = ? AND item >= ?", [gridID, first])
        }
    }
}
