import Foundation
import GridLayout
import Testing
import TestSupport
@testable import GridStore
@testable import GridStorePostgreSQL
@testable import GridStoreSQLite

/// The migration that turns each synced grid's sync state from one JSON text into rows (SQLite
/// version 9, PostgreSQL version 10), from databases built by hand as the version before left them.
@Suite("Sync state migrated to rows")
struct SyncRowsMigrationTests {
    let directory = TemporaryDirectory()

    /// What a synced grid's sync looks like from outside, and its registers.
    struct SyncView: Equatable {
        var content: GridContent
        var cursor: SyncCursor
        /// Each conflict without the names its replicas go by: the old format held none.
        var conflicts: [String]
        var replica: ReplicaID?
        var state: ReplicatedGrid

        init(_ database: GridDatabase, _ name: String) throws {
            let grid = try Grid(named: name, in: database, creatingWith: nil)
            content = try grid.storedSnapshot().content
            cursor = try grid.syncCursor()
            conflicts = try grid.syncConflicts().map { conflict in
                "\(conflict.field) \(conflict.item.map { "\($0)" } ?? "-") \(conflict.key ?? "-"): \(conflict.kept) by \(conflict.keptBy), "
                    + "\(conflict.overwritten) by \(conflict.overwrittenBy)"
            }
            replica = try grid.syncReplicaID()
            state = try database.storageRead { try SyncSide.prepare(name, in: $0, minting: false).state }
            state.names = [:]
        }
    }

    /// `phone` (on `backend`) and a tablet file, synced with conflicts on both grids, a deleted
    /// tile, a section removed and a keyed tile moved: what the old format held.
    func syncedPair(_ backend: Backend) throws -> (phone: String, tablet: GridDatabase) {
        let location = try backend.database(in: directory, name: "phone.sqlite")
        let phone = try GridDatabase(location: location), tablet = try GridDatabase(path: directory.file("tablet.sqlite"))
        let home = try Grid(named: "home", in: phone, creatingWith: GridOptions(sectionItemCounts: [6, 3]))
        try home.update { try $0.insertItem(at: GridIndexPath(item: 0), size: .big, key: "mail \"inbox\"") }
        try Grid(named: "notes", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: tablet)
        // Concurrent changes of the same tiles: conflicts on both grids.
        try home.setSize(.middle, at: GridIndexPath(item: 2))
        try Grid(named: "home", in: tablet).setSize(.big, at: GridIndexPath(item: 2))
        try Grid(named: "notes", in: phone).setSize(.big, at: GridIndexPath(item: 4))
        try Grid(named: "notes", in: tablet).setSize(.middle, at: GridIndexPath(item: 4))
        // A deleted tile and a removed section, kept as tombstones; a keyed tile moved.
        try Grid(named: "home", in: tablet).update {
            try $0.deleteItem(at: GridIndexPath(item: 3))
            try $0.moveItem(from: GridIndexPath(item: 0), to: GridIndexPath(item: 4))
            try $0.removeSection(at: 1)
        }
        _ = try phone.sync(with: tablet)
        return (location, tablet)
    }

    /// The format 1 text the version before stored for the grid `name`: its registers whole, as a bundle.
    func oldStateText(_ view: SyncView, name: String) throws -> String {
        let replica = try #require(view.replica)
        return String(decoding: SyncBundle(grid: name, replica: replica, cursor: VersionVector(), delta: view.state).encodedAsJSON(),
                      as: UTF8.self)
    }

    @Test("an SQLite file at version 8 keeps every synced grid's replica, cursor, conflicts and registers, and syncs on as before")
    func sqlite() throws {
        let (phonePath, tablet) = try syncedPair(.sqlite)
        let phone = try GridDatabase(path: phonePath)
        let names = ["home", "notes"]
        let before = try names.map { try SyncView(phone, $0) }
        #expect(before.allSatisfy { !$0.conflicts.isEmpty } && before[0].state.items.values.contains { !$0.alive.value(or: true) })
        // Version 8, as gridstore left it: the same rows, the sync state as one text.
        let old = directory.file("old.sqlite")
        _ = try GridDatabase(path: old, migrations: MigrationSet(MigrationSet.gridStore.migrations.filter { $0.version <= 8 }))
        let connection = try SQLiteConnection(path: old)
        try connection.execute("ATTACH DATABASE ? AS current", [phonePath])
        try connection.executeScript("""
            INSERT INTO grids (id, name, columns, direction, default_size, revision, created_at, updated_at, layout_kind, history_keep)
                SELECT id, name, columns, direction, default_size, revision, created_at, updated_at, layout_kind, history_keep
                FROM current.grids;
            INSERT INTO sections SELECT * FROM current.sections;
            INSERT INTO size_chunks SELECT * FROM current.size_chunks;
            INSERT INTO item_keys SELECT * FROM current.item_keys;
            INSERT INTO placement_chunks SELECT * FROM current.placement_chunks;
            INSERT INTO history SELECT grid_id, revision, made_at, kind, operation, actor, targets, delta FROM current.history;
            UPDATE replica SET id = (SELECT id FROM current.replica), file_identity = '';
            """)
        for (name, view) in zip(names, before) {
            try connection.execute("""
                INSERT INTO sync_states (grid_id, replica, database_replica, revision, clock, versions, conflicts, state)
                SELECT grid_id, replica, database_replica, revision, clock, versions, conflicts, ?
                FROM current.sync_states WHERE grid_id = (SELECT id FROM current.grids WHERE name = ?)
                """, [try oldStateText(view, name: name), name])
        }
        // States that are not ones gridstore wrote are kept, and found damaged.
        for (id, name, state) in [(97, "damaged", #"{"replicas":"not a list""#),
                                  (98, "damaged entity", #"{"replicas":["0123456789abcdef0123456789abcdef"],"options":{},"sections":{},"items":{"0000000000000001":"abc"}}"#),
                                  (99, "damaged replica", #"{"replicas":[null],"options":{},"sections":{},"items":{}}"#)] {
            try connection.execute("""
                INSERT INTO grids (id, name, columns, direction, default_size, revision, layout_kind) VALUES (?, ?, 4, 'vertical', 'small', 0, 'tiles')
                """, [id, name])
            try connection.execute("""
                INSERT INTO sync_states (grid_id, replica, database_replica, revision, clock, versions, conflicts, state)
                SELECT ?, replica, database_replica, 0, clock, versions, 0, ? FROM sync_states LIMIT 1
                """, [id, state])
        }
        try connection.execute("DETACH DATABASE current")

        let migrated = try GridDatabase(path: old)
        #expect(migrated.migrationsAppliedOnOpen.map(\.version) == [9, 10, 11, 12, 13, 14, 15])
        try expectKept(before, names: names, in: migrated, tablet: tablet)
        let checks = try Grid.checkSyncStates(in: migrated)
        #expect(checks.map(\.grid) == ["damaged", "damaged entity", "damaged replica", "home", "notes"] && checks[3...].allSatisfy(\.problems.isEmpty))
        #expect(checks[..<3].allSatisfy { $0.problems.first?.contains("its sync state cannot be read") == true }, "\(checks)")
    }

    @Test("a PostgreSQL database at version 9 keeps every synced grid's replica, cursor, conflicts and registers, and syncs on as before",
          .enabled(if: PostgreSQLTestServer.shouldTest))
    func postgreSQL() throws {
        let (uri, tablet) = try syncedPair(.postgreSQL)
        let names = ["home", "notes"]
        let before = try names.map { try SyncView(GridDatabase(location: uri), $0) }
        do {
            let phone = try GridDatabase(location: uri)
            try Grid(named: "odd", in: phone).toggle(at: GridIndexPath(item: 0))
            _ = try phone.sync(with: tablet, grids: ["odd"])
        }
        // Version 9, as gridstore left it: the sync state as one text, the rows gone.
        let connection = try PostgreSQLConnection(PostgreSQLLocation(uri)!)
        try connection.executeScript("""
            DROP TABLE sync_registers, sync_replicas, sync_versions, sync_item_ids, sync_drops;
            ALTER TABLE replica DROP COLUMN name;
            ALTER TABLE history DROP COLUMN registers;
            ALTER TABLE sync_states DROP COLUMN version, DROP COLUMN sent, DROP COLUMN peers, ADD COLUMN state text;
            DELETE FROM schema_migrations WHERE version >= 10;
            """)
        for (name, view) in zip(names, before) {
            try connection.execute("UPDATE sync_states SET state = $1 WHERE grid_id = (SELECT id FROM grids WHERE name = $2)",
                                   [try oldStateText(view, name: name), name])
        }
        try connection.execute("UPDATE sync_states SET state = $1 WHERE grid_id = (SELECT id FROM grids WHERE name = 'odd')",
                               [#"{"replicas":[null],"options":{},"sections":{"0000000000000001":{}},"items":{"0000000000000002":"abc"}}"#])
        try connection.executeScript("ALTER TABLE sync_states ALTER COLUMN state SET NOT NULL")
        let migrated = try GridDatabase(location: uri)
        #expect(migrated.migrationsAppliedOnOpen.map(\.version) == [10, 11, 12, 13, 14, 15, 16])
        try expectKept(before, names: names, in: migrated, tablet: tablet)
        let odd = try Grid.checkSyncStates(in: migrated, names: ["odd"])
        #expect(odd.first?.problems.first?.contains("its sync state cannot be read") == true, "\(odd)")
    }

    /// Each grid reads as it did before the migration, a sync with the tablet moves nothing, and
    /// a change made after it reaches the tablet.
    func expectKept(_ before: [SyncView], names: [String], in migrated: GridDatabase, tablet: GridDatabase) throws {
        for (name, view) in zip(names, before) {
            let after = try SyncView(migrated, name)
            #expect(after == view, "grid \(name)")
        }
        let quiet = try migrated.sync(with: tablet, grids: names)
        #expect(quiet.allSatisfy { $0.sent == 0 && $0.received == 0 } && quiet.map(\.conflicts) == before.map(\.conflicts.count), "\(quiet)")
        try Grid(named: "home", in: migrated).setSize(.big, at: GridIndexPath(item: 0))
        let moved = try migrated.sync(with: tablet, grids: ["home"])
        #expect(moved.first?.sent == 1 && moved.first?.received == 0, "\(moved)")
        #expect(try Grid(named: "home", in: tablet).storedSnapshot().content == Grid(named: "home", in: migrated).storedSnapshot().content)
    }
}
