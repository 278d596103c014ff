import Foundation
import GridStore
import Testing

/// Database files gridstore did not write: planted SQL and rows the schema allows but a grid
/// cannot hold end in one line and exit 1, never a crash or a hang, and the file is unchanged.
@Suite("gridstore and hand-edited database files")
struct HostileDatabaseTests {
    let directory = TemporaryDirectory()

    /// A database with grid `default` of 12 items, edited with `sql` on a plain connection.
    func database(editedWith sql: String) throws -> String {
        let path = directory.file("edited.sqlite")
        #expect(try CommandRunner.run(["--db", path, "toggle", "2"]).status == 0)
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        try connection.executeScript(sql)
        return path
    }

    /// Runs `arguments` on `path` and checks the refusal: exit 1, one line starting with `message`, bytes unchanged.
    func expectRefused(_ arguments: [String], on path: String, message: String,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = FileManager.default.contents(atPath: path)
        let started = Date()
        let result = try CommandRunner.run(["--db", path] + arguments)
        #expect(Date().timeIntervalSince(started) < 20, sourceLocation: sourceLocation)
        #expect(result.status == 1, "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.hasPrefix("Error: " + message), "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
        #expect(FileManager.default.contents(atPath: path) == before, sourceLocation: sourceLocation)
    }

    @Test("a planted trigger is refused before anything runs, naming it", arguments: [
        "CREATE TRIGGER wipe AFTER UPDATE ON grids BEGIN DELETE FROM grids WHERE id <> new.id; END;",
        "CREATE TRIGGER forever BEFORE UPDATE ON grids BEGIN SELECT count(*) FROM "
            + "(WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c); END;",
        "CREATE VIEW extra AS SELECT 1;",
        "CREATE INDEX sizes_by_size ON item_sizes (size);",
    ])
    func plantedObjects(sql: String) throws {
        let path = try database(editedWith: sql)
        for command in [["toggle", "3"], ["show"], ["get", "1"], ["grids"]] {
            try expectRefused(command, on: path, message: "\(path) is not as gridstore left it: it holds ")
        }
    }

    @Test("rows a grid cannot hold are refused as an inconsistent grid", arguments: [
        ("INSERT INTO item_sizes (grid_id, section, item, size) VALUES (1, -1, 0, 'big');",
         "the stored grid is inconsistent: grid 'default' has a size for item 0 of section -1, which does not exist"),
        ("UPDATE grids SET revision = 9223372036854775807;",
         "the stored grid is inconsistent: grid 'default' has revision 9223372036854775807"),
        ("UPDATE sections SET item_count = 1000000000000;",
         "the stored grid is inconsistent: grid 'default' has 1000000000000 items in section 0, over the limit"),
        ("UPDATE sections SET item_count = 20000000;",
         "the stored grid is inconsistent: grid 'default' has 20000000 items in section 0, over the limit"),
        ("INSERT INTO sections (grid_id, section, item_count) VALUES (1, 5, 3);",
         "the stored grid is inconsistent: grid 'default' has section 5 where section 1 was expected"),
    ])
    func inconsistentRows(sql: String, message: String) throws {
        let path = try database(editedWith: sql)
        for command in [["toggle", "3"], ["show"], ["export"]] {
            try expectRefused(command, on: path, message: message)
        }
    }
}
