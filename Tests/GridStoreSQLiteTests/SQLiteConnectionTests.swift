import Testing
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit

@Suite("SQLiteConnection")
struct DatabaseConnectionTests {
    @Test("binds and reads every storage class")
    func bindAndRead() throws {
        let connection = try memoryConnection()
        try connection.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n)")
        try connection.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)",
                               [Int64.max, 2.5, "héllo", SQLiteValue.blob([0, 1, 255]), Optional<Int>.none])
        let row = try connection.fetchOne("SELECT i, r, s, b, n FROM t") { row in
            (row.value(at: 0), row.double(at: 1), row.string(at: 2), row.value(at: 3), row.isNull(at: 4))
        }
        #expect(row?.0 == .integer(Int64.max))
        #expect(row?.1 == 2.5)
        #expect(row?.2 == "héllo")
        #expect(row?.3 == .blob([0, 1, 255]))
        #expect(row?.4 == true)
    }

    @Test("in defensive mode no trigger fires and no view is read, while foreign-key actions still run")
    func defensiveMode() throws {
        let connection = try memoryConnection()
        try connection.executeScript("""
            PRAGMA foreign_keys = ON;
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (parent INTEGER REFERENCES parent (id) ON DELETE CASCADE);
            CREATE TABLE log (what TEXT);
            CREATE TRIGGER logged AFTER DELETE ON parent BEGIN INSERT INTO log VALUES ('deleted'); END;
            CREATE VIEW everything AS SELECT * FROM parent;
            INSERT INTO parent VALUES (1); INSERT INTO child VALUES (1);
            """)
        try connection.enableDefensiveMode()
        try connection.execute("DELETE FROM parent")
        #expect(try scalar(connection, "SELECT count(*) FROM log") == 0)
        #expect(try scalar(connection, "SELECT count(*) FROM child") == 0)
        #expect(throws: SQLiteError.self) { try connection.execute("SELECT * FROM everything") }
        // Creating either still works, for migrations.
        try connection.execute("CREATE VIEW later AS SELECT 1")
        try connection.execute("CREATE TRIGGER later AFTER INSERT ON parent BEGIN SELECT 1; END")
    }

    @Test("keeps text with NUL characters and empty text whole")
    func textEdges() throws {
        let connection = try memoryConnection()
        try connection.execute("CREATE TABLE t (s TEXT NOT NULL)")
        for value in ["a\u{0}b", "", "'; DROP TABLE t; --"] {
            try connection.execute("DELETE FROM t")
            try connection.execute("INSERT INTO t VALUES (?)", [value])
            #expect(try text(connection, "SELECT s FROM t") == value)
        }
    }

    @Test("rejects a wrong number of arguments")
    func argumentCount() throws {
        let connection = try memoryConnection()
        #expect(throws: SQLiteError.self) { try connection.execute("SELECT ?", []) }
    }

    @Test("reports SQLite's code, message and SQL on one line")
    func errorDescription() throws {
        let connection = try memoryConnection()
        try connection.execute("CREATE TABLE t (x INTEGER CHECK (x > 0))")
        let error = try #require(throws: SQLiteError.self) {
            try connection.execute("INSERT INTO t\n  VALUES (?)", [-1])
        }
        #expect(error.resultCode == 19)
        #expect(error.isConstraintViolation)
        #expect(error.message.contains("CHECK constraint failed"))
        #expect(error.sql == "INSERT INTO t\n  VALUES (?)")
        #expect(error.description == "SQLite error 19 (constraint failed): \(error.message) — in `INSERT INTO t VALUES (?)`")
        #expect(!error.description.contains("\n"))
    }

    @Test("reports a syntax error with the statement that failed")
    func syntaxError() throws {
        let connection = try memoryConnection()
        let error = try #require(throws: SQLiteError.self) { try connection.prepare("SELEC 1") }
        #expect(error.resultCode == 1)
        #expect(error.description.contains("SELEC 1"))
    }

    @Test("commits a transaction that returns and rolls back one that throws")
    func transactions() throws {
        struct Abort: Error {}
        let connection = try memoryConnection()
        try connection.execute("CREATE TABLE t (x INTEGER)")
        try connection.transaction(.immediate) { try connection.execute("INSERT INTO t VALUES (1)") }
        #expect(throws: Abort.self) {
            try connection.transaction(.immediate) {
                try connection.execute("INSERT INTO t VALUES (2)")
                throw Abort()
            }
        }
        #expect(try scalar(connection, "SELECT count(*) FROM t") == 1)
        #expect(connection.isAutocommit)
    }

    @Test("nests transactions as savepoints")
    func nestedTransactions() throws {
        struct Abort: Error {}
        let connection = try memoryConnection()
        try connection.execute("CREATE TABLE t (x INTEGER)")
        try connection.transaction(.immediate) {
            try connection.execute("INSERT INTO t VALUES (1)")
            try? connection.transaction {
                try connection.execute("INSERT INTO t VALUES (2)")
                throw Abort()
            }
            try connection.transaction { try connection.execute("INSERT INTO t VALUES (3)") }
        }
        #expect(try connection.fetchAll("SELECT x FROM t ORDER BY x") { $0.int(at: 0) } == [1, 3])
    }

    @Test("runs scripts statement by statement and names the one that fails")
    func scripts() throws {
        let connection = try memoryConnection()
        try connection.executeScript("""
            -- a comment
            CREATE TABLE a (x);
            INSERT INTO a VALUES (1); INSERT INTO a VALUES (2);
            """)
        #expect(try scalar(connection, "SELECT sum(x) FROM a") == 3)
        let error = try #require(throws: SQLiteError.self) {
            try connection.executeScript("INSERT INTO a VALUES (3);\nINSERT INTO missing VALUES (4);")
        }
        #expect(error.message == "no such table: missing")
        #expect(error.sql == "INSERT INTO missing VALUES (4);")
    }

    @Test("finalizes statements when they are released, so the connection closes cleanly")
    func statementLifetime() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("lifetime.sqlite")
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("CREATE TABLE t (x)")
            let statement = try connection.prepare("SELECT * FROM t")
            _ = try statement.step()
        }
        // With every statement finalized the database is unlocked and a new connection can write.
        let connection = try SQLiteConnection(path: path)
        connection.setBusyTimeout(milliseconds: 0)
        try connection.transaction(.immediate) { try connection.execute("INSERT INTO t VALUES (1)") }
        #expect(try connection.fetchOne("SELECT count(*) FROM t") { $0.int(at: 0) } == 1)
    }

    @Test("a statement past its time limit is stopped; the connection works on afterwards")
    func timeLimit() throws {
        let connection = try memoryConnection()
        let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
        let started = ContinuousClock.now
        let error = try #require(throws: SQLiteError.self) {
            try connection.withTimeLimit(milliseconds: 200) { _ = try connection.fetchOne(endless) { $0.int(at: 0) } }
        }
        #expect(error.isInterrupted)
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(try scalar(connection, "SELECT 41 + 1") == 42)
    }

    @Test("defensive mode keeps SQL from writing the schema table")
    func defensive() throws {
        let connection = try memoryConnection()
        try connection.enableDefensiveMode()
        try connection.execute("CREATE TABLE t (x INTEGER)")
        try connection.execute("PRAGMA writable_schema = ON")
        #expect(throws: SQLiteError.self) { try connection.execute("UPDATE sqlite_schema SET sql = 'CREATE TABLE t (y)'") }
    }
}
