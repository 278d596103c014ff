import Foundation
import GridLayout
import SeededRandom
import TestSupport
import Testing
@testable import GridStore
@testable import GridStorePostgreSQL

/// Migration 8 of the PostgreSQL schema, which moves the explicit sizes from a row each
/// (`item_sizes`) into chunks (`size_chunks`): exact on every database, refused on anything else.
@Suite("PostgreSQL migration 8: sizes in chunks", .enabled(if: PostgreSQLTestServer.shouldTest))
struct PostgreSQLSizeChunksMigrationTests {
    /// A new database at schema version 7, and a connection to it.
    func databaseAtVersion7() throws -> (String, PostgreSQLConnection) {
        let url = try PostgreSQLTestServer.shared().makeDatabase()
        let seven = try MigrationSet(Array(MigrationSet.gridStorePostgreSQL.migrations.prefix(7)))
        _ = try PostgreSQLStorage(PostgreSQLLocation(url)!, migrations: seven)
        return (url, try PostgreSQLConnection(PostgreSQLLocation(url)!))
    }

    /// Inserts a grid row and its sections as gridstore at version 7 would; returns its id.
    func insertGrid(_ name: String, sections: [Int], on connection: PostgreSQLConnection) throws -> String {
        let id = try connection.execute("""
            INSERT INTO grids (name, columns, direction, default_size, revision, layout_kind)
            VALUES ($1, 4, 'vertical', 'small', 1, 'tiles') RETURNING id
            """, [name]).string(0, 0)
        for (section, count) in sections.enumerated() {
            try connection.execute("INSERT INTO sections (grid_id, section, item_count) VALUES ($1, $2, $3)",
                                   [id, String(section), String(count)])
        }
        return id
    }

    static let rowsQuery = "SELECT grid_id, section, item, size FROM item_sizes ORDER BY grid_id, section, item"

    func rows(_ connection: PostgreSQLConnection) throws -> [String] {
        let result = try connection.execute(Self.rowsQuery)
        return (0..<result.count).map { row in (0..<4).map { result.string(row, $0) }.joined(separator: " ") }
    }

    @Test("every size row of random grids is in the chunks after, at its item, and the view reads them back as they were",
          arguments: [1, 2, 3])
    func convertsExactly(seed: UInt64) throws {
        let (url, connection) = try databaseAtVersion7()
        var generator = SeededGenerator(seed: seed)
        let names = ["sparse", "dense", "edges", "empty"]
        for name in names {
            let sections = (0..<Int.random(in: 1...3, using: &generator)).map { _ in Int.random(in: 0...1_500, using: &generator) }
            let id = try insertGrid(name, sections: sections, on: connection)
            var sectionsText = PostgreSQLArray(of: .bigint), items = PostgreSQLArray(of: .bigint), sizes = PostgreSQLArray(of: .text)
            for (section, count) in sections.enumerated() where count > 0 && name != "empty" {
                // Chunk edges always, then a share of the rest: none, a few, or nearly all.
                let share = name == "dense" ? 0.9 : name == "sparse" ? 0.02 : 0.0
                for item in 0..<count where [0, 255, 256, 511, 512, count - 1].contains(item) || Double.random(in: 0..<1, using: &generator) < share {
                    sectionsText.append(section)
                    items.append(item)
                    sizes.append(text: ["small", "middle", "big"][Int.random(in: 0...2, using: &generator)].utf8)
                }
            }
            try connection.execute("""
                INSERT INTO item_sizes (grid_id, section, item, size)
                SELECT $1, s, i, z FROM unnest($2::bigint[], $3::bigint[], $4::text[]) AS t (s, i, z)
                ON CONFLICT DO NOTHING
                """, parameters: [.text(id), sectionsText.parameter, items.parameter, sizes.parameter])
        }
        let before = try rows(connection)
        #expect(before.count > 100)

        let database = try GridDatabase(postgreSQL: url)
        #expect(database.migrationsAppliedOnOpen.map(\.version) == [8, 9, 10, 11, 12, 13, 14, 15, 16])
        #expect(try rows(connection) == before)
        let chunks = try connection.execute("""
            SELECT count(*), count(DISTINCT (grid_id, section, first_item)) FROM size_chunks
            """)
        let expectedChunks = Set(before.map { row -> String in
            let parts = row.split(separator: " ")
            return "\(parts[0]) \(parts[1]) \(Int(parts[2])! / 256)"
        }).count
        #expect(chunks.int(0, 0) == Int64(expectedChunks))
        // gridstore reads the sizes from the chunks as the rows said.
        let dense = try Grid(named: "dense", in: database).snapshot()
        let denseID = try connection.execute("SELECT id FROM grids WHERE name = 'dense'").string(0, 0)
        for row in before where row.hasPrefix(denseID + " ") {
            let parts = row.split(separator: " ")
            let path = GridIndexPath(item: Int(parts[2])!, section: Int(parts[1])!)
            #expect(try dense.size(at: path).rawValue == String(parts[3]))
        }
    }

    @Test("a size row gridstore cannot read, or an app's view of item_sizes, stops the migration before anything changes")
    func refusesTheUnexpected() throws {
        for plant in ["ALTER TABLE item_sizes DROP CONSTRAINT item_sizes_size_check; "
                          + "INSERT INTO item_sizes SELECT id, 0, 7, 'huge' FROM grids",
                      "CREATE VIEW app_sizes AS SELECT * FROM item_sizes",
                      // Two rows for one item, once the key is gone: one would become another item's size.
                      "ALTER TABLE item_sizes DROP CONSTRAINT item_sizes_pkey; INSERT INTO item_sizes SELECT id, 0, 3, 'big' FROM grids"] {
            let (url, connection) = try databaseAtVersion7()
            let id = try insertGrid("kept", sections: [300], on: connection)
            try connection.execute("INSERT INTO item_sizes VALUES ($1, 0, 3, 'big'), ($1, 0, 299, 'middle')", [id])
            try connection.executeScript(plant)
            let before = try rows(connection)
            let error = #expect(throws: MigrationError.self) { try GridDatabase(postgreSQL: url) }
            #expect("\(error!)".hasPrefix("migration 0008_size_chunks.sql failed and was rolled back"))
            #expect(!"\(error!)".contains("\n"))
            #expect(try rows(connection) == before)
            #expect(try connection.execute("SELECT max(version) FROM schema_migrations").string(0, 0) == "7")
            #expect(try connection.execute("SELECT to_regclass('size_chunks') IS NULL").string(0, 0) == "t")
        }
    }

    @Test("who may read item_sizes, and its comment, carry over to the view that takes its place")
    func keepsGrantsAndComment() throws {
        let (url, connection) = try databaseAtVersion7()
        let role = "reader_" + PostgreSQLTestServer.databaseName(in: url)
        try connection.executeScript("""
            CREATE ROLE \(role); GRANT SELECT ON item_sizes TO \(role); GRANT SELECT ON item_sizes TO PUBLIC;
            COMMENT ON TABLE item_sizes IS 'sizes, for the reports'
            """)
        _ = try GridDatabase(postgreSQL: url)
        let after = try connection.execute("""
            SELECT has_table_privilege($1, 'item_sizes', 'SELECT'), obj_description('item_sizes'::regclass, 'pg_class'),
                   (SELECT relkind FROM pg_class WHERE oid = 'item_sizes'::regclass),
                   EXISTS (SELECT 1 FROM information_schema.role_table_grants
                           WHERE table_name = 'item_sizes' AND grantee = 'PUBLIC' AND privilege_type = 'SELECT')
            """, [role])
        #expect(after.string(0, 0) == "t")
        #expect(after.string(0, 1) == "sizes, for the reports")
        #expect(after.string(0, 2) == "v")
        #expect(after.string(0, 3) == "t")
    }

    @Test("an ordinary role that owns its database migrates it without TEMP or any other privilege it lacks")
    func migratesWithoutPrivileges() throws {
        let server = try PostgreSQLTestServer.shared()
        let admin = try PostgreSQLConnection(PostgreSQLLocation(server.url())!)
        let name = "plain_\(getpid())_\(Int.random(in: 0..<1_000_000))"
        try admin.executeScript("CREATE ROLE \(name) LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE")
        try admin.executeScript("CREATE DATABASE \(name) OWNER \(name)")
        try admin.executeScript("REVOKE TEMPORARY ON DATABASE \(name) FROM PUBLIC, \(name)")
        let url = "postgresql://\(name)@/\(name)?host=\(server.directory)&port=\(server.port)"
        let seven = try MigrationSet(Array(MigrationSet.gridStorePostgreSQL.migrations.prefix(7)))
        _ = try PostgreSQLStorage(PostgreSQLLocation(url)!, migrations: seven)
        let connection = try PostgreSQLConnection(PostgreSQLLocation(url)!)
        let id = try insertGrid("kept", sections: [300], on: connection)
        try connection.execute("INSERT INTO item_sizes VALUES ($1, 0, 3, 'big'), ($1, 0, 299, 'middle')", [id])
        try connection.executeScript("COMMENT ON TABLE item_sizes IS 'kept'")
        #expect(try connection.execute("SELECT has_database_privilege(current_database(), 'TEMPORARY')").string(0, 0) == "f")
        let database = try GridDatabase(postgreSQL: url)
        #expect(database.migrationsAppliedOnOpen.map(\.version) == [8, 9, 10, 11, 12, 13, 14, 15, 16])
        #expect(try rows(connection) == ["\(id) 0 3 big", "\(id) 0 299 middle"])
        #expect(try connection.execute("SELECT obj_description('item_sizes'::regclass, 'pg_class')").string(0, 0) == "kept")
    }
}
