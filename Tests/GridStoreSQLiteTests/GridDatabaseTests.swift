import Foundation
import GridLayout
import Testing
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit

@Suite("GridDatabase")
struct GridDatabaseTests {
    @Test("after checkpoint, a copy of the file alone holds every committed change; inside a transaction it is refused")
    func checkpointedCopy() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("kept.sqlite")
        let database = try GridDatabase(path: path)
        let grid = try Grid(named: "g", in: database)
        try grid.toggle(at: GridIndexPath(item: 2))
        #expect(try database.checkpoint())
        #expect((try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) == 0)
        let copy = directory.file("copy.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let copied = try Grid(named: "g", in: GridDatabase(path: copy), creatingWith: nil).snapshot()
        #expect(try copied.size(at: GridIndexPath(item: 2)) == .middle)
        #expect(throws: GridError.reentrantCall) { try database.write { _ in try database.checkpoint() } }
    }

    @Test("the earlier SQLiteGridSizeRepository(suiteName:path:) still opens a file's grid, deprecated")
    @available(*, deprecated)
    func earlierRepositoryForm() throws {
        let directory = TemporaryDirectory()
        let sizes = try SQLiteGridSizeRepository(suiteName: "home", path: directory.file("sizes.sqlite"))
        try sizes.set(.big, at: GridIndexPath(item: 2))
        #expect(try Grid(named: "home", in: GridDatabase(path: directory.file("sizes.sqlite")), creatingWith: nil)
                    .snapshot().size(at: GridIndexPath(item: 2)) == .big)
    }

    @Test("a new database is migrated, stamped and configured")
    func newDatabase() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("nested/folders/grids.sqlite")
        let database = try GridDatabase(path: path)
        #expect(database.migrationsAppliedOnOpen == MigrationSet.gridStore.migrations)
        try database.readSQLite { connection in
            #expect(try text(connection, "PRAGMA journal_mode") == "wal")
            #expect(try scalar(connection, "PRAGMA application_id") == Int(GridDatabase.applicationID))
            #expect(try scalar(connection, "PRAGMA foreign_keys") == 1)
            #expect(try scalar(connection, "PRAGMA synchronous") == 2)  // FULL
            #expect(try scalar(connection, "PRAGMA busy_timeout") == Int(GridDatabase.busyTimeoutMilliseconds))
            #expect(try text(connection, "PRAGMA integrity_check") == "ok")
            let versions = try connection.fetchAll("SELECT version, name FROM schema_migrations ORDER BY version") {
                "\($0.int(at: 0)) \($0.string(at: 1))"
            }
            #expect(versions == MigrationSet.gridStore.migrations.map { "\($0.version) \($0.name)" })
        }
        #expect(FileSystem.permissions(at: path) == 0o600)
        #expect(FileSystem.permissions(at: directory.file("nested")) == 0o700)
        // Nothing is left behind from building the file under a temporary name.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.file("nested/folders"))
            .filter { $0.hasPrefix(".gridstore-new-") }
        #expect(leftovers.isEmpty)
    }

    @Test("files a process killed while creating a database left behind are removed; a live one's are kept")
    func staleTemporaries() throws {
        let directory = TemporaryDirectory()
        let dead = ".gridstore-new-2147483600-7"
        let live = ".gridstore-new-\(getpid())-7"
        for name in [dead, dead + "-wal", live, "unrelated.sqlite"] {
            _ = FileManager.default.createFile(atPath: directory.file(name), contents: Data("x".utf8))
        }
        _ = try GridDatabase(path: directory.file("grids.sqlite"))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix("grids.sqlite") }
        #expect(names.sorted() == [live, "unrelated.sqlite"].sorted())
    }

    @Test("opening an up-to-date database applies nothing")
    func reopen() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("grids.sqlite")
        _ = try GridDatabase(path: path)
        let reopened = try GridDatabase(path: path)
        #expect(reopened.migrationsAppliedOnOpen.isEmpty)
        #expect(try reopened.migrationStatus().isUpToDate)
    }

    @Test("the schema reads as designed")
    func schema() throws {
        let directory = TemporaryDirectory()
        let database = try GridDatabase(path: directory.file("grids.sqlite"))
        let objects = try database.readSQLite { connection in
            try connection.fetchAll(
                "SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name"
            ) { "\($0.string(at: 0)) \($0.string(at: 1))" }
        }
        #expect(objects == [
            "index sync_registers_by_version", "table grids", "table history", "table honeycomb_placements", "table honeycombs", "table item_keys", "table placement_chunks",
            "table replica", "table schema_migrations", "table sections", "table size_chunks", "table sync_drops", "table sync_item_ids", "table sync_registers",
            "table sync_replicas", "table sync_states", "table sync_versions", "view item_sizes",
            "view placements",
        ])
        try database.writeSQLite { connection in
            // Enumerations are CHECKed and deleting a grid cascades.
            try connection.execute("INSERT INTO grids (name, columns) VALUES ('g', 6)")
            #expect(try text(connection, "SELECT layout_type FROM grids") == "more")
            try connection.execute("INSERT INTO sections VALUES (1, 0, 2)")
            // Sizes are stored a letter per item in chunks of 256, and read as rows through a view.
            try connection.execute("INSERT INTO size_chunks VALUES (1, 0, 0, 'b.m')")
        }
        #expect(try database.readThroughViews { try text($0, "SELECT group_concat(item || ' ' || size, ', ') FROM item_sizes") }
                == "0 big, 2 middle")
        try database.writeSQLite { connection in
            for refused in ["(1, 0, 256, 'h')", "(1, 0, 256, 'b.')", "(1, 0, 256, '')", "(1, 0, 128, 'b')", "(1, 0, -256, 'b')",
                            "(1, 0, 256, printf('%257s', 'b'))", "(1, 5, 0, 'b')"] {
                #expect(throws: SQLiteError.self, "\(refused)") { try connection.execute("INSERT INTO size_chunks VALUES \(refused)") }
            }
            #expect(throws: SQLiteError.self) { try connection.execute("INSERT INTO item_sizes VALUES (1, 0, 1, 'big')") }
            #expect(throws: SQLiteError.self) { try connection.execute("UPDATE grids SET direction = 'diagonal'") }
            // A key names one item of its grid, and belongs to an existing section.
            try connection.execute("INSERT INTO item_keys VALUES (1, 0, 0, 'mail')")
            #expect(throws: SQLiteError.self) { try connection.execute("INSERT INTO item_keys VALUES (1, 0, 1, 'mail')") }
            #expect(throws: SQLiteError.self) { try connection.execute("INSERT INTO item_keys VALUES (1, 0, 1, '')") }
            #expect(throws: SQLiteError.self) { try connection.execute("INSERT INTO item_keys VALUES (1, 5, 1, 'news')") }
            try connection.execute("DELETE FROM grids")
            #expect(try scalar(connection, "SELECT count(*) FROM size_chunks") == 0)
            #expect(try scalar(connection, "SELECT count(*) FROM item_keys") == 0)
            #expect(try scalar(connection, "SELECT count(*) FROM sections") == 0)
        }
    }

    @Test("a foreign SQLite database is refused and left untouched")
    func foreignDatabase() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("other.sqlite")
        do {
            let other = try SQLiteConnection(path: path)
            try other.execute("CREATE TABLE notes (text TEXT)")
            try other.execute("INSERT INTO notes VALUES ('keep me')")
        }
        let before = try #require(fileBytes(path))
        #expect(throws: DatabaseFileError.foreignDatabase(path: path, applicationID: 0)) { try GridDatabase(path: path) }
        #expect(fileBytes(path) == before)

        // Another application's stamped file is refused too.
        do {
            let other = try SQLiteConnection(path: path)
            try other.execute("PRAGMA application_id = 1234")
        }
        let stamped = try #require(fileBytes(path))
        #expect(throws: DatabaseFileError.foreignDatabase(path: path, applicationID: 1234)) { try GridDatabase(path: path) }
        #expect(fileBytes(path) == stamped)
    }

    @Test("a file that is not SQLite is refused and left untouched")
    func notADatabase() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("notes.txt")
        let contents = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        #expect(FileManager.default.createFile(atPath: path, contents: contents))
        #expect(throws: DatabaseFileError.notADatabase(path: path)) { try GridDatabase(path: path) }
        #expect(fileBytes(path) == contents)
    }

    @Test("an empty file is refused and left empty")
    func emptyFile() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(throws: DatabaseFileError.emptyFile(path: path)) { try GridDatabase(path: path) }
        #expect(fileBytes(path) == Data())
    }

    @Test("a directory is refused")
    func directoryPath() throws {
        let directory = TemporaryDirectory()
        #expect(throws: DatabaseFileError.isDirectory(path: directory.path)) { try GridDatabase(path: directory.path) }
    }

    @Test("a database of a newer gridstore is refused without writing")
    func newerSchema() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("newer.sqlite")
        let newer = try MigrationSet(
            MigrationSet.gridStore.migrations + [Migration(fileName: "9999_future.sql", sql: "CREATE TABLE future (x);")])
        _ = try GridDatabase(path: path, migrations: newer)
        let before = try #require(fileBytes(path))
        let error = try #require(throws: MigrationError.self) { try GridDatabase(path: path) }
        #expect(error == .newerDatabase(unknownVersions: [9999], latestKnownVersion: MigrationSet.gridStore.latestVersion))
        #expect(fileBytes(path) == before)
    }

    @Test("threads opening one new file at once all succeed, migrating it once")
    func concurrentCreation() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("race.sqlite")
        let applied = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { try GridDatabase(path: path).migrationsAppliedOnOpen.count }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(applied.filter { $0 > 0 } == [MigrationSet.gridStore.migrations.count])
        let database = try GridDatabase(path: path)
        #expect(try database.readSQLite { try scalar($0, "SELECT count(*) FROM schema_migrations") } == MigrationSet.gridStore.migrations.count)
    }
}

@Suite("Upgrading a database")
struct UpgradeTests {
    @Test("a database at every earlier schema version is upgraded to the latest, and takes a change")
    func upgradeFromEveryVersion() throws {
        let directory = TemporaryDirectory()
        let all = MigrationSet.gridStore.migrations
        for version in 1..<all.count {
            let path = directory.file("at-\(version).sqlite")
            do {
                let old = try GridDatabase(path: path, migrations: try MigrationSet(Array(all.prefix(version))))
                try old.writeSQLite { try $0.execute("INSERT INTO grids (name, columns) VALUES ('kept', 4)") }
            }
            let upgraded = try GridDatabase(path: path)
            #expect(upgraded.migrationsAppliedOnOpen.map(\.version) == all.dropFirst(version).map(\.version), "version \(version)")
            #expect(try Grid(named: "kept", in: upgraded, creatingWith: nil).update { try $0.setColumns(6) }.content.columns == 6,
                    "version \(version)")
        }
    }

    @Test("a database at schema version 1 is upgraded in place, its grids intact")
    func upgradeFromVersionOne() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("old.sqlite")
        let versionOne = try MigrationSet(Array(MigrationSet.gridStore.migrations.prefix(1)))
        do {
            let old = try GridDatabase(path: path, migrations: versionOne)
            try old.writeSQLite { connection in
                try connection.execute("INSERT INTO grids (name, columns) VALUES ('kept', 4)")
                try connection.execute("INSERT INTO sections VALUES (1, 0, 3)")
                try connection.execute("INSERT INTO item_sizes VALUES (1, 0, 1, 'big')")
            }
        }
        let upgraded = try GridDatabase(path: path)
        #expect(upgraded.migrationsAppliedOnOpen.map(\.version) == Array(MigrationSet.gridStore.migrations.dropFirst().map(\.version)))
        let grid = try Grid(named: "kept", in: upgraded, creatingWith: nil)
        let snapshot = try grid.toggle(at: GridIndexPath(item: 0))
        #expect(snapshot.kind == .tiles)
        #expect(try snapshot.size(at: GridIndexPath(item: 1)) == .big)
        #expect(try upgraded.readSQLite { try text($0, "SELECT layout_kind FROM grids") } == "tiles")
        #expect(try upgraded.readSQLite { try text($0, "PRAGMA integrity_check") } == "ok")
    }

    /// Makes `path` a file at schema `version` (5 or later) holding the rows of the current
    /// database at `current`, the sizes copied through its `item_sizes` view: gridstore itself
    /// writes only the newest schema.
    static func makeFile(at version: Int, path: String, copying current: String) throws {
        _ = try GridDatabase(path: path, migrations: MigrationSet(MigrationSet.gridStore.migrations.filter { $0.version <= version }))
        let connection = try SQLiteConnection(path: path)
        try connection.execute("ATTACH DATABASE ? AS current", [current])
        try connection.executeScript("""
            INSERT INTO grids (id, name, columns, direction, default_size, revision, created_at, updated_at, layout_kind, history_keep)
                SELECT id, name, columns, direction, default_size, revision, created_at, updated_at, layout_kind, history_keep
                FROM current.grids;
            INSERT INTO sections SELECT * FROM current.sections;
            INSERT INTO item_sizes SELECT grid_id, section, item, size FROM current.item_sizes;
            INSERT INTO item_keys SELECT * FROM current.item_keys;
            INSERT INTO placement_chunks SELECT * FROM current.placement_chunks;
            INSERT INTO history SELECT grid_id, revision, made_at, kind, operation, actor, targets, delta FROM current.history;
            """)
        try connection.execute("DETACH DATABASE current")
    }

    @Test("version 6 rebuilds sizes and history with their rules checked without IN, keeping every row and the rules")
    func checksWithoutIn() throws {
        let directory = TemporaryDirectory()
        let current = directory.file("current.sqlite")
        do {
            let database = try GridDatabase(path: current)
            let grid = try Grid(named: "kept", in: database, creatingWith: GridOptions(sectionItemCounts: [4]))
            try grid.setSize(.big, at: GridIndexPath(item: 1))
            try grid.toggle(at: GridIndexPath(item: 3))
            _ = try grid.undo()
        }
        let path = directory.file("five.sqlite")
        try Self.makeFile(at: 5, path: path, copying: current)
        let upgraded = try GridDatabase(path: path)
        #expect(upgraded.migrationsAppliedOnOpen.map(\.version).contains(6))
        let grid = try Grid(named: "kept", in: upgraded, creatingWith: nil)
        let snapshot = try grid.snapshot()
        #expect(try snapshot.size(at: GridIndexPath(item: 1)) == .big)
        #expect(try snapshot.size(at: GridIndexPath(item: 3)) == .small)
        #expect(try grid.history(limit: 10).map(\.kind) == [.undo, .change, .change])
        #expect(try grid.redo().size(at: GridIndexPath(item: 3)) == .middle)
        _ = try upgraded.writeSQLite { connection in
            #expect(throws: SQLiteError.self) {
                try connection.execute("INSERT INTO history (grid_id, revision, kind, operation, actor, delta) VALUES (1, 99, 'oops', '', '', '[]')")
            }
        }
        let schema = try upgraded.readSQLite { try text($0, "SELECT group_concat(sql, ';') FROM sqlite_schema WHERE name IN ('size_chunks', 'history')") }
        #expect(!schema.contains(" IN ("))
        #expect(!schema.contains("before_version_6"))
        #expect(try upgraded.readSQLite { try text($0, "PRAGMA integrity_check") } == "ok")
        #expect(try upgraded.readSQLite { try text($0, "SELECT count(*) FROM pragma_foreign_key_check") } == "0")
    }

    @Test("version 7 moves every size into chunks of 256 letters, which read back as the same rows and grids")
    func sizeChunks() throws {
        let directory = TemporaryDirectory()
        let current = directory.file("current.sqlite")
        var before: [GridSnapshot] = []
        do {
            let database = try GridDatabase(path: current)
            let kept = try Grid(named: "kept", in: database, creatingWith: GridOptions(sectionItemCounts: [600, 3, 0]))
            for (item, size) in [(0, TileSize.big), (1, .middle), (254, .small), (255, .big), (256, .middle), (300, .big), (599, .middle)] {
                try kept.setSize(size, at: GridIndexPath(item: item))
            }
            try kept.setSize(.big, at: GridIndexPath(item: 2, section: 1))
            let other = try Grid(named: "other", in: database, creatingWith: GridOptions(defaultSize: .big, sectionItemCounts: [257]))
            try other.setSize(.small, at: GridIndexPath(item: 256))
            _ = try Grid(named: "plain", in: database, creatingWith: GridOptions(sectionItemCounts: [5]))
            before = try ["kept", "other", "plain"].map { try Grid(named: $0, in: database).snapshot() }
        }
        /// Four columns of each row (three integers and a text), as one string a row.
        func lines(_ sql: String, in database: GridDatabase) throws -> [String] {
            try database.readThroughViews { try $0.fetchAll(sql) { "\($0.int(at: 0)) \($0.int(at: 1)) \($0.int(at: 2)) \($0.string(at: 3))" } }
        }
        let rows = "SELECT grid_id, section, item, size FROM item_sizes ORDER BY grid_id, section, item"
        let expectedRows = try lines(rows, in: GridDatabase(path: current))
        #expect(expectedRows.count == 9)
        let path = directory.file("six.sqlite")
        try Self.makeFile(at: 6, path: path, copying: current)
        let upgraded = try GridDatabase(path: path)
        #expect(upgraded.migrationsAppliedOnOpen.map(\.version) == [7, 8, 9, 10, 11, 12, 13, 14, 15])
        #expect(try lines(rows, in: upgraded) == expectedRows)
        let chunks = try lines("SELECT grid_id, section, first_item, sizes FROM size_chunks ORDER BY grid_id, section, first_item", in: upgraded)
        func dots(_ count: Int) -> String { String(repeating: ".", count: count) }
        #expect(chunks == ["1 0 0 bm\(dots(252))sb", "1 0 256 m\(dots(43))b", "1 0 512 \(dots(87))m", "1 1 0 ..b", "2 0 256 s"])
        for (name, old) in zip(["kept", "other", "plain"], before) {
            let snapshot = try Grid(named: name, in: upgraded).snapshot()
            #expect(snapshot.explicitSizes == old.explicitSizes && snapshot.defaultSize == old.defaultSize, "\(name)")
        }
        #expect(try upgraded.readSQLite { try text($0, "PRAGMA integrity_check") } == "ok")
        #expect(try upgraded.readSQLite { try text($0, "SELECT count(*) FROM pragma_foreign_key_check") } == "0")
        // Migrations write: closing empties the log, which every later process would scan at open.
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        try upgraded.close()
        #expect(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int == 0)
    }

    @Test("a version-6 file with a size no build writes is refused by version 7, which is rolled back")
    func sizeChunksRefuseUnknownSizes() throws {
        let directory = TemporaryDirectory()
        let current = directory.file("current.sqlite")
        do { try Grid(named: "kept", in: GridDatabase(path: current), creatingWith: GridOptions(sectionItemCounts: [4])).setSize(.big, at: GridIndexPath(item: 0)) }
        let path = directory.file("six.sqlite")
        try Self.makeFile(at: 6, path: path, copying: current)
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA ignore_check_constraints = ON")
            try connection.execute("INSERT INTO item_sizes VALUES (1, 0, 2, 'huge')")
        }
        #expect {
            _ = try GridDatabase(path: path)
        } throws: { error in
            guard case .failed(let fileName, let reason) = error as? MigrationError else { return false }
            return fileName == "0007_size_chunks.sql" && reason.contains("CHECK constraint failed")
        }
        let connection = try SQLiteConnection(path: path)
        #expect(try text(connection, "SELECT max(version) FROM schema_migrations") == "6")
        #expect(try text(connection, "SELECT group_concat(item || ' ' || size, ', ') FROM item_sizes") == "0 big, 2 huge")
        #expect(try text(connection, "SELECT count(*) FROM sqlite_schema WHERE name = 'size_chunks'") == "0")
    }
}

/// What the schema check expects a file to hold.
@Suite("The schema check's expected objects")
struct SchemaCheckExpectationTests {
    @Test("gridstore's migrations, recorded at build time, leave the objects an in-memory run of them leaves, SQL and all")
    func recordedSchema() throws {
        let migrations = MigrationSet.gridStore.migrations
        for count in 1...migrations.count {
            let applied = Array(migrations.prefix(count))
            let recorded = try #require(applied.last?.schemaAfter)
            let unrecorded = try applied.map { try Migration(fileName: $0.fileName, sql: $0.sql) }
            #expect(try SQLiteSchemaCheck.objects(after: unrecorded) == recorded, "after \(applied.last!.fileName)")
        }
        let all = try SQLiteSchemaCheck.objects(after: migrations)
        #expect(all.filter { $0.sql != nil }.map { "\($0.type) \($0.name)" }.sorted() == [
            "index sync_registers_by_version", "table grids", "table history", "table honeycomb_placements", "table honeycombs", "table item_keys",
            "table placement_chunks", "table replica", "table sections", "table size_chunks", "table sqlite_sequence",
            "table sync_drops", "table sync_item_ids", "table sync_registers", "table sync_replicas", "table sync_states", "table sync_versions", "view item_sizes",
            "view placements",
        ])
        #expect(try SQLiteSchemaCheck.objects(after: []).isEmpty)
    }
}
