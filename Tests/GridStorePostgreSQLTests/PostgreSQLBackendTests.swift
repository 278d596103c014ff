import Foundation
import GridLayout
import TestSupport
import Testing
@testable import GridStore
@testable import GridStorePostgreSQL
import GridStoreAudit
import GridStoreSQLite

/// What only the PostgreSQL backend has: URIs, its ledger and migrators, server failures.
@Suite("PostgreSQL backend", .enabled(if: PostgreSQLTestServer.shouldTest))
struct PostgreSQLBackendTests {
    @Test("a URI is told from a path, and messages never show its password")
    func locations() {
        #expect(PostgreSQLLocation("/tmp/grids.sqlite") == nil)
        #expect(PostgreSQLLocation("postgresql") == nil)
        #expect(PostgreSQLLocation("file:postgresql://x") == nil)
        let cases = [
            ("postgresql://app:s3cret@db.internal:5433/layouts?sslmode=require", "postgresql://app@db.internal:5433/layouts?sslmode=require"),
            ("postgres://app:p%40ss@db/layouts", "postgres://app@db/layouts"),
            ("postgresql:///layouts?host=/run/pg&password=s3cret&user=app", "postgresql:///layouts?host=/run/pg&password=***&user=app"),
            ("postgresql://db.internal/layouts", "postgresql://db.internal/layouts"),
            ("postgresql://:only@db", "postgresql://@db"),
            // An `@` in a parameter's value, where the user part would be: the password parameter is still hidden.
            ("postgresql://h/db?user=me@corp&password=secretpw&sslrootcert=/etc/root.crt",
             "postgresql://h/db?user=me@corp&password=***&sslrootcert=/etc/root.crt"),
            ("postgresql://h/db?pass%77ord=secretpw", "postgresql://h/db?pass%77ord=***"),
        ]
        for (uri, shown) in cases {
            #expect(PostgreSQLLocation(uri)?.displayName == shown, "\(uri)")
        }
    }

    @Test("pool_mode is read from the query as libpq finds it, taken out of what libpq gets, and refused in one line when unknown")
    func poolModes() throws {
        let cases: [(String, PostgreSQLLocation.PoolMode?, String)] = [
            ("postgresql://h/db", .session, "postgresql://h/db"),
            ("postgresql://h/db?pool_mode=transaction", .transaction, "postgresql://h/db"),
            ("postgresql://h/db?sslmode=require&pool%5Fmode=transaction&port=6432", .transaction, "postgresql://h/db?sslmode=require&port=6432"),
            ("postgresql://h/db?pool_mode=session", .session, "postgresql://h/db"),
            // A password with an unencoded `?`: the query starts after the user part.
            ("postgresql://u:pa?ss@h/db?pool_mode=transaction&port=6432", .transaction, "postgresql://u:pa?ss@h/db?port=6432"),
            ("postgresql://h/db?pool_mode=statement", nil, "postgresql://h/db"),
        ]
        for (uri, mode, given) in cases {
            let location = try #require(PostgreSQLLocation(uri))
            #expect(location.poolMode == mode, "\(uri)")
            #expect(location.libpqURI == given, "\(uri)")
        }
        for (value, shown) in [("statement", "\"statement\""), ("a%0Ab", "not a mode gridstore knows"), ("", "not a mode gridstore knows")] {
            let error = try #require(throws: PostgreSQLDatabaseError.self) {
                try GridDatabase(postgreSQL: "postgresql://u:secretpw@h/db?pool_mode=\(value)")
            }
            #expect(error.description.contains("pool_mode is \(shown);"), "\(error)")
            #expect(!error.description.contains("\n") && !error.description.contains("secretpw"))
        }
    }

    @Test("a tampered table's long texts and extra rows are read only up to a grid's limits, and found inconsistent in one line")
    func boundedReads() throws {
        for (plant, expected) in [
            ("UPDATE size_chunks SET sizes = repeat('m', 10000000)", "has a size chunk for section 0 at item 0 with 257 sizes"),
            ("INSERT INTO size_chunks SELECT grid_id, 0, 256 * n, 's' FROM size_chunks, generate_series(1, 20000) AS n",
             "which does not exist"),
            ("UPDATE item_keys SET key = repeat('k', 3000)", "has an invalid key for item 2 of section 0"),
        ] {
            let url = try PostgreSQLTestServer.shared().makeDatabase()
            let grid = try Grid(named: "g", in: GridDatabase(location: url), creatingWith: GridOptions(sectionItemCounts: [10]))
            try grid.update { editor in
                _ = try editor.toggle(at: GridIndexPath(item: 1))
                try editor.setKey("k", at: GridIndexPath(item: 2))
            }
            let connection = try PostgreSQLConnection(PostgreSQLLocation(url)!)
            try connection.executeScript("""
                ALTER TABLE size_chunks DROP CONSTRAINT size_chunks_sizes_check;
                ALTER TABLE item_keys DROP CONSTRAINT IF EXISTS item_keys_key_check;
                \(plant)
                """)
            let started = ContinuousClock.now
            let error = try #require(throws: GridError.self) { try Grid(named: "g", in: GridDatabase(location: url)).snapshot() }
            #expect(ContinuousClock.now - started < .seconds(5))
            #expect(error.description.contains(expected), "\(error)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("a copy inside a change is refused as a reentrant call, and the change rolls back whole")
    func sameDatabaseInsideAChange() throws {
        let database = try GridDatabase(location: PostgreSQLTestServer.shared().makeDatabase())
        let other = try GridDatabase(location: PostgreSQLTestServer.shared().makeDatabase())
        let x = try Grid(named: "x", in: database, creatingWith: GridOptions(sectionItemCounts: [5]))
        let y = try Grid(named: "y", in: database, creatingWith: GridOptions(sectionItemCounts: [5]))
        try x.toggle(at: GridIndexPath(item: 0))
        try y.toggle(at: GridIndexPath(item: 0))
        #expect(throws: GridError.reentrantCall) {
            try database.write { transaction in
                try transaction.update(x) { try $0.toggle(at: GridIndexPath(item: 2)) }
                try transaction.update(y) { try $0.toggle(at: GridIndexPath(item: 1)) }
                _ = try Grid.copy(from: database, to: other, names: ["x"])
            }
        }
        let fresh = try GridDatabase(location: database.location)
        #expect(try Grid(named: "x", in: fresh).snapshot().revision == 1)
        #expect(try Grid(named: "y", in: fresh).snapshot().revision == 1)
        #expect(try !Grid.exists(named: "x", in: other))
        // After the transaction, the copy runs.
        try Grid.copy(from: database, to: other, names: ["x"])
        #expect(try Grid(named: "x", in: other).snapshot().revision == 1)
    }

    @Test("a failure of the server inside a transaction rolls it back, even when the closure caught it")
    func caughtFailureRollsBack() throws {
        let uri = try PostgreSQLTestServer.shared().makeDatabase()
        let database = try GridDatabase(location: uri + "&options=-c%20lock_timeout%3D200")
        let a = try Grid(named: "a", in: database, creatingWith: GridOptions(sectionItemCounts: [4]))
        let b = try Grid(named: "b", in: database, creatingWith: GridOptions(sectionItemCounts: [4]))
        _ = try a.snapshot()
        _ = try b.snapshot()
        // Another handle holds grid b's row lock past this one's lock_timeout.
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? Grid(named: "b", in: GridDatabase(location: uri), creatingWith: nil).update { _ in
                holding.signal()
                _ = release.wait(timeout: .now() + 30)
            }
        }
        holding.wait()
        var caught = false
        let error = try #require(throws: GridError.self) {
            try database.write { transaction in
                try transaction.update(a) { try $0.toggle(at: GridIndexPath(item: 0)) }
                do {
                    try transaction.update(b) { try $0.toggle(at: GridIndexPath(item: 0)) }
                } catch {
                    caught = true
                }
            }
        }
        release.signal()
        #expect(caught)
        #expect(error.description.contains("lock"), "\(error)")
        #expect(try a.snapshot().revision == 0)
    }

    @Test("a server that is not there is one line naming it, without the password, at once")
    func unreachable() throws {
        let directory = TemporaryDirectory()
        let uri = "postgresql://app:s3cret@/layouts?host=\(directory.path)&port=5999"
        let started = ContinuousClock.now
        let error = try #require(throws: PostgreSQLError.self) { try GridDatabase(location: uri) }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(error.sqlState == nil)
        #expect(error.description.hasPrefix("cannot reach PostgreSQL server postgresql://app@/layouts?host=\(directory.path)&port=5999: "))
        #expect(!error.description.contains("s3cret"))
        #expect(!error.description.contains("\n"))
    }

    @Test("a backend that stops answering mid-change (SIGSTOP) gives a one-line error within statement_timeout and the grace, changing nothing")
    func stalledBackend() throws {
        // A statement_timeout set the way libpq users set it, in the URI's options.
        let uri = try PostgreSQLTestServer.shared().makeDatabase() + "&options=-c%20statement_timeout%3D1s"
        let database = try GridDatabase(location: uri)
        let grid = try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [20]))
        try grid.toggle(at: GridIndexPath(item: 1))
        let storage = try #require(database.postgreSQL)
        let backend = try storage.withConnection { try $0.execute("SELECT pg_backend_pid()").int(0, 0) }
        #expect(try storage.withConnection { $0.answerDeadlineMilliseconds } == 1_000 + PostgreSQLConnection.answerGraceMilliseconds)
        kill(pid_t(backend), SIGSTOP)
        defer { kill(pid_t(backend), SIGCONT) }
        let started = ContinuousClock.now
        let error = try #require(throws: GridError.self) { try grid.toggle(at: GridIndexPath(item: 2)) }
        let waited = ContinuousClock.now - started
        #expect(waited >= .seconds(1) && waited < .seconds(12), "\(waited)")
        #expect(error.description.contains("did not answer within 6 seconds"), "\(error)")
        #expect(error.description.contains("nothing was committed") || error.description.contains("may or may not"), "\(error.description)")
        #expect(!error.description.contains("\n"))
        kill(pid_t(backend), SIGCONT)
        // The next call connects again; the stalled change was not applied.
        let reopened = try Grid(named: "g", in: GridDatabase(location: uri)).snapshot()
        #expect(reopened.revision == 1)
        #expect(try grid.snapshot().revision == 1)
        try grid.toggle(at: GridIndexPath(item: 3))
        #expect(try grid.snapshot().revision == 2)
    }

    @Test("a new database's columns, constraints and indexes are exactly the latest that gridstore's migrations create")
    func knownDefinitions() throws {
        let uri = try PostgreSQLTestServer.shared().makeDatabase()
        let storage = try #require(try GridDatabase(location: uri).postgreSQL)
        let found = try storage.withConnection { try PostgreSQLSchemaCheck.definitions($0) }
        #expect(found.subtracting(PostgreSQLSchemaCheck.knownDefinitions).isEmpty, "\(found.subtracting(PostgreSQLSchemaCheck.knownDefinitions))")
        // What the list holds beyond them is the item_sizes table, a view since migration 8,
        // history's kinds before migration 9, the sync state's text before migration 10, and the
        // registers' kinds before migration 14.
        let earlier = PostgreSQLSchemaCheck.knownDefinitions.subtracting(found)
        #expect(earlier.count == 13 && earlier.filter { $0.contains("item_sizes") }.count == 10
                && earlier.contains { $0.contains("'revert'::text])") } && earlier.contains("column sync_states.state text")
                && earlier.contains { $0.contains("'item'::text])") }, "\(earlier)")
    }

    @Test("a database at every earlier schema version passes the check and is migrated to the latest")
    func everyEarlierVersionMigrates() throws {
        let all = MigrationSet.gridStorePostgreSQL.migrations
        for version in 1..<all.count {
            let uri = try PostgreSQLTestServer.shared().makeDatabase()
            _ = try PostgreSQLStorage(PostgreSQLLocation(uri)!, migrations: try MigrationSet(Array(all.prefix(version))))
            let storage = try #require(try GridDatabase(location: uri).postgreSQL, "version \(version)")
            #expect(try storage.migrationStatus().pending.isEmpty, "version \(version)")
            let found = try storage.withConnection { try PostgreSQLSchemaCheck.definitions($0) }
            #expect(found.isSubset(of: PostgreSQLSchemaCheck.knownDefinitions), "version \(version)")
        }
    }

    /// A table that records what a planted function saw, and the functions that write to it.
    static let spy = """
        CREATE TABLE spy (seen text);
        CREATE FUNCTION record_seen(text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS 'BEGIN INSERT INTO spy VALUES ($1); RETURN true; END';
        CREATE FUNCTION snoop(text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS 'BEGIN RETURN record_seen($1); END';
        CREATE FUNCTION snoop_text() RETURNS text LANGUAGE plpgsql IMMUTABLE AS 'BEGIN PERFORM record_seen(''default''); RETURN ''''; END';

        """

    @Test("a trigger, rule or policy on gridstore's tables, or another table's foreign key to them, is refused by name", arguments: [
        ("CREATE FUNCTION wipe() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN DELETE FROM history; RETURN NULL; END'; "
            + "CREATE TRIGGER wipe AFTER UPDATE ON grids FOR EACH ROW EXECUTE FUNCTION wipe();", "trigger wipe on grids"),
        ("CREATE RULE forge AS ON UPDATE TO grids DO ALSO DELETE FROM history;", "rule forge on grids"),
        ("ALTER TABLE sections ENABLE ROW LEVEL SECURITY; CREATE POLICY hide ON sections USING (false);", "policy hide on sections"),
        ("CREATE TABLE app_pins (grid bigint REFERENCES grids (id) ON DELETE CASCADE);",
         "foreign key app_pins_grid_fkey of table app_pins to grids"),
        // Code in what PostgreSQL evaluates on a write: each calls a function that claims to be
        // IMMUTABLE and writes to another table.
        (Self.spy + "ALTER TABLE grids ADD CONSTRAINT peek CHECK (snoop(name));", "constraint peek on grids"),
        (Self.spy + "ALTER TABLE history ALTER COLUMN targets SET DEFAULT snoop_text();", "column history.targets (text, with a default)"),
        (Self.spy + "ALTER TABLE grids ADD COLUMN peek boolean GENERATED ALWAYS AS (snoop(name)) STORED;",
         "column grids.peek (boolean, generated)"),
        (Self.spy + "CREATE INDEX peek ON grids ((snoop(name)));", "index peek on grids"),
        (Self.spy + "CREATE INDEX peek ON sections (grid_id) WHERE snoop(section::text);", "index peek on sections"),
        (Self.spy + "CREATE DOMAIN watched AS text CHECK (snoop(VALUE)); ALTER TABLE history ALTER COLUMN operation TYPE watched;",
         "column history.operation (watched)"),
        // Even a CHECK of built-in functions only is not gridstore's own.
        ("ALTER TABLE sections ADD CONSTRAINT stall CHECK (pg_sleep(0) IS NOT NULL);", "constraint stall on sections"),
    ])
    func attachedObjects(sql: String, object: String) throws {
        let uri = try PostgreSQLTestServer.shared().makeDatabase()
        do {
            let database = try GridDatabase(location: uri)
            _ = try Grid(named: "kept", in: database).toggle(at: GridIndexPath(item: 1))
            _ = try #require(database.postgreSQL).withConnection { try $0.executeScript(sql) }
        }
        let error = try #require(throws: PostgreSQLDatabaseError.self) { try GridDatabase(location: uri) }
        #expect(error.description.hasPrefix("\(PostgreSQLLocation(uri)!.displayName) holds \(object), which gridstore did not create"),
                "\(error.description)")
        // An app's own table beside gridstore's, with no tie to them, is fine.
        let other = try PostgreSQLTestServer.shared().makeDatabase()
        let database = try GridDatabase(location: other)
        _ = try #require(database.postgreSQL).withConnection {
            try $0.executeScript("CREATE TABLE app_notes (grid_name text, body text); CREATE VIEW app_summary AS SELECT name FROM grids;")
        }
        _ = try Grid(named: "g", in: GridDatabase(location: other)).toggle(at: GridIndexPath(item: 0))
    }

    @Test("a server's odd answers end in bounded time: a COPY nobody asked for, an endless statement_timeout, a missing column")
    func oddAnswers() throws {
        let uri = try PostgreSQLTestServer.shared().makeDatabase()
        let storage = try #require(try GridDatabase(location: uri + "&options=-c%20statement_timeout%3D2147483647").postgreSQL)
        #expect(try storage.withConnection { $0.answerDeadlineMilliseconds } == 86_400_000 + PostgreSQLConnection.answerGraceMilliseconds)
        let started = ContinuousClock.now
        #expect(throws: PostgreSQLError.self) { try storage.withConnection { try $0.executeScript("COPY (SELECT 1) TO STDOUT") } }
        #expect(ContinuousClock.now - started < .seconds(5))
        // The next call connects again.
        #expect(try storage.withConnection { try $0.execute("SELECT 1").string(0, 0) } == "1")
        #expect(try storage.withConnection { try $0.execute("SELECT").string(0, 3) } == "")
    }

    @Test("migrators starting at once apply each migration once")
    func concurrentMigrators() async throws {
        let url = try PostgreSQLTestServer.shared().makeDatabase()
        let applied = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<6 {
                group.addTask { try GridDatabase(location: url).migrationsAppliedOnOpen.count }
            }
            return try await group.reduce(0, +)
        }
        #expect(applied == MigrationSet.gridStorePostgreSQL.migrations.count)
        let status = try GridDatabase(location: url).migrationStatus()
        #expect(status.isUpToDate)
        #expect(status.applied.map(\.version) == MigrationSet.gridStorePostgreSQL.migrations.map(\.version))
    }

    @Test("a changed, newer or gapped ledger is refused before anything is written")
    func ledgerRules() throws {
        let url = try PostgreSQLTestServer.shared().makeDatabase()
        let database = try GridDatabase(location: url)
        _ = try Grid(named: "kept", in: database).toggle(at: GridIndexPath(item: 1))
        let storage = try #require(database.postgreSQL)
        let newer = try MigrationSet(MigrationSet.gridStorePostgreSQL.migrations
            + [Migration(fileName: "9000_future.sql", sql: "CREATE TABLE future (x integer);")])
        _ = try PostgreSQLStorage(PostgreSQLLocation(url)!, migrations: newer)
        let error = try #require(throws: MigrationError.self) { try GridDatabase(location: url) }
        #expect(error.description.hasPrefix("the database was created by a newer gridstore"))
        _ = try storage.withConnection { try $0.execute("DELETE FROM schema_migrations WHERE version = 9000") }
        _ = try storage.withConnection { try $0.execute("UPDATE schema_migrations SET checksum = 'feedface' WHERE version = 1") }
        let changed = try #require(throws: MigrationError.self) { try GridDatabase(location: url) }
        #expect(changed.description.hasPrefix("migration 0001_initial.sql was changed after it was applied"))
        // Nothing was written by the refusals: the grid is as it was.
        try storage.withConnection { connection in
            let revision = try connection.execute("SELECT revision FROM grids WHERE name = 'kept'")
            #expect(revision.int(0, 0) == 1)
        }
    }

    @Test("a change waits for another transaction's lock on its grid only, and gives up after lock_timeout")
    func perGridLocks() throws {
        let url = try PostgreSQLTestServer.shared().makeDatabase()
        let database = try GridDatabase(location: url)
        _ = try Grid(named: "held", in: database).snapshot()
        _ = try Grid(named: "free", in: database).snapshot()
        let holder = try PostgreSQLConnection(PostgreSQLLocation(url)!)
        try holder.execute("SET lock_timeout = '0'")
        try holder.executeScript("BEGIN")
        try holder.execute("SELECT id FROM grids WHERE name = 'held' FOR UPDATE")
        // Another grid is not blocked.
        try Grid(named: "free", in: database).toggle(at: GridIndexPath(item: 0))
        let blocked = GridDatabase(backend: try PostgreSQLStorage(PostgreSQLLocation(url + "&options=-c%20lock_timeout%3D300")!))
        let error = try #require(throws: GridError.self) { try Grid(named: "held", in: blocked).toggle(at: GridIndexPath(item: 0)) }
        guard case .storage(let failure) = error else { Issue.record("\(error)"); return }
        #expect(failure.kind == .busy)
        #expect((failure.underlying as? PostgreSQLError)?.sqlState == "55P03")
        try holder.executeScript("ROLLBACK")
        #expect(try Grid(named: "held", in: blocked).toggle(at: GridIndexPath(item: 0)).revision == 1)
    }

    @Test("each change drops the one history entry that falls out, and all past a history_keep lowered by hand")
    func historyRetention() throws {
        let database = try GridDatabase(location: try PostgreSQLTestServer.shared().makeDatabase())
        let grid = try Grid(named: "kept", in: database)
        try grid.setHistoryRetention(5)
        for item in 0..<12 { try grid.toggle(at: GridIndexPath(item: item % 8)) }
        #expect(try grid.history().map(\.revision) == [12, 11, 10, 9, 8])
        try grid.toggle(at: GridIndexPath(item: 0))
        #expect(try grid.history().map(\.revision) == [13, 12, 11, 10, 9])
        // Lowered by hand: the next change leaves the newest two, without a gap, so undo still works.
        let storage = try #require(database.postgreSQL)
        _ = try storage.withConnection { try $0.execute("UPDATE grids SET history_keep = 2 WHERE name = 'kept'") }
        try grid.toggle(at: GridIndexPath(item: 1))
        #expect(try grid.history().map(\.revision) == [14, 13])
        #expect(try grid.undo().revision == 15)
        #expect(try grid.history().map(\.revision) == [15, 14])
    }
}
