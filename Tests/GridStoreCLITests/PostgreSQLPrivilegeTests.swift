import Foundation
import GridStore
import GridStoreAudit
@testable import GridStorePostgreSQL
import Testing
import TestSupport

/// On a server, commands that only read create and change nothing, and each kind of use needs
/// only the privileges docs/postgresql.md lists for it.
@Suite("gridstore on PostgreSQL: reads create nothing; read-only and change-only roles", .enabled(if: PostgreSQLTestServer.shouldTest))
struct PostgreSQLPrivilegeTests {
    static let readCommands: [[String]] = [
        ["show"], ["get", "1"], ["export"], ["check"], ["sections"], ["type"], ["grids"], ["history"], ["drop", "x"],
    ]

    /// The tables of the database's `public` schema.
    func tables(in uri: String) throws -> Int {
        let connection = try PostgreSQLConnection(#require(PostgreSQLLocation(uri)))
        return Int(try connection.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").string(0, 0)) ?? -1
    }

    /// A role of `name` that may log in to the database of `uri` and do what `grants` say, and its URI.
    func role(_ name: String, on uri: String, _ grants: String) throws -> String {
        let server = try PostgreSQLTestServer.shared()
        let database = PostgreSQLTestServer.databaseName(in: uri)
        let role = "\(name)_\(database)"
        try PostgreSQLScript.run("""
            CREATE ROLE \(role) LOGIN; GRANT CONNECT ON DATABASE \(database) TO \(role); GRANT USAGE ON SCHEMA public TO \(role);
            REVOKE CREATE ON SCHEMA public FROM PUBLIC; \(grants.replacing("ROLE", with: role))
            """, on: uri)
        return "postgresql://\(role)@/\(database)?host=\(server.directory)&port=\(server.port)"
    }

    @Test("every command that only reads leaves an empty database without a table, and reads it as one without grids")
    func readsCreateNothing() throws {
        let uri = try PostgreSQLTestServer.shared().makeDatabase()
        for command in Self.readCommands {
            let result = try CommandRunner.run(["--db", uri] + command)
            #expect(!result.standardError.contains("\n") || result.standardError.split(separator: "\n").count == 1, "\(command)")
            #expect(try tables(in: uri) == 0, "\(command) created tables")
        }
        let grids = try CommandRunner.run(["--db", uri, "grids"])
        #expect(grids.status == 0, "\(grids.standardError)")
        let shown = try CommandRunner.run(["--db", uri, "show"])
        #expect(shown.status == 1 && shown.standardError == "Error: no grid named 'default'\n", "\(shown.standardError)")
        // A command that changes creates the tables, as it does a missing SQLite file.
        #expect(try CommandRunner.run(["--db", uri, "-q", "toggle", "1"]).status == 0)
        #expect(try tables(in: uri) > 0)
    }

    @Test("a role that may only read reads; its changes are refused in one line and change nothing")
    func readOnlyRole() throws {
        let uri = try PostgreSQLTestServer.shared().makeDatabase()
        #expect(try CommandRunner.run(["--db", uri, "-q", "toggle", "2"]).status == 0)
        let reader = try role("reader", on: uri, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO ROLE;")
        for command in [["grids"], ["show"], ["get", "2"], ["export"], ["history"], ["check"], ["sections"]] {
            let result = try CommandRunner.run(["--db", reader] + command)
            #expect(result.status == 0, "\(command): \(result.standardError)")
        }
        #expect(try CommandRunner.run(["--db", reader, "get", "2"]).standardOutput == "middle\n")
        let refused = try CommandRunner.run(["--db", reader, "toggle", "2"])
        #expect(refused.status != 0)
        #expect(refused.standardError.hasPrefix("Error: ") && refused.standardError.split(separator: "\n").count == 1,
                "\(refused.standardError)")
        #expect(try CommandRunner.run(["--db", uri, "get", "2"]).standardOutput == "middle\n")
    }

    @Test("a role that may change rows but not create tables changes grids of an up-to-date database")
    func changeWithoutMigrating() throws {
        let uri = try PostgreSQLTestServer.shared().makeDatabase()
        #expect(try CommandRunner.run(["--db", uri, "-q", "toggle", "2"]).status == 0)
        let writer = try role("writer", on: uri, """
            GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ROLE;
            GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO ROLE;
            """)
        for command in [["toggle", "2"], ["set", "3", "big"], ["undo"], ["init", "--grid", "phone"], ["drop", "phone"]] {
            let result = try CommandRunner.run(["--db", writer, "-q"] + command)
            #expect(result.status == 0, "\(command): \(result.standardError)")
        }
        #expect(try CommandRunner.run(["--db", uri, "get", "2"]).standardOutput == "big\n")
        #expect(try CommandRunner.run(["--db", uri, "get", "3"]).standardOutput == "small\n")
    }
}
