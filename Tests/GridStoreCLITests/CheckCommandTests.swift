import Foundation
import GridStore
import GridStoreSQLite
import GridStoreAudit
import Testing

/// `gridstore check [--repair]` on both backends.
@Suite("gridstore check")
struct CheckCommandTests {
    let directory = TemporaryDirectory()

    @Test("finds missing, changed and extra placement chunks; --repair rewrites them, keeping the revision",
          arguments: Backend.all)
    func checkAndRepair(backend: Backend) throws {
        let database = try backend.database(in: directory)
        _ = try CommandRunner.run(["--db", database, "init", "--items", "400"])
        _ = try CommandRunner.run(["--db", database, "--grid", "fine", "init", "--items", "50"])
        #expect(try CommandRunner.run(["--db", database, "check"]).standardOutput
                == "checked 2 grid(s): every placement equals a fresh pack\n")
        let tamper = """
            DELETE FROM placement_chunks WHERE first_item = 128 AND grid_id = (SELECT id FROM grids WHERE name = 'default');
            UPDATE placement_chunks SET cells = '[[9,9,1,1,"big"]]'
                WHERE first_item = 0 AND grid_id = (SELECT id FROM grids WHERE name = 'default');
            UPDATE placement_chunks SET cells = '[[9,9,1,1,"big"]]'
                WHERE first_item = 0 AND grid_id = (SELECT id FROM grids WHERE name = 'fine');
            """
        if backend == .sqlite {
            try SQLiteConnection(path: database, mode: .readWrite).executeScript(tamper)
        } else {
            try PostgreSQLScript.run(tamper, on: database)
        }
        let found = try CommandRunner.run(["--db", database, "check"])
        #expect(found.status == 1)
        #expect(found.standardOutput == """
            grid 'default': the placements of items 0 to 127 of section 0 differ from a fresh pack
            grid 'default': the placements of items 128 to 255 of section 0 are missing
            grid 'fine': the placements of items 0 to 49 of section 0 differ from a fresh pack
            checked 2 grid(s): 2 with placements that differ

            """)
        #expect(found.standardError == "Error: 2 grid(s) have placements that differ from a fresh pack; "
                + "'gridstore check --repair' rewrites them\n")
        let revision = try #require(try StoredGrid.read("default", path: database)).revision
        let repaired = try CommandRunner.run(["--db", database, "check", "--repair"])
        #expect(repaired.status == 0)
        #expect(repaired.standardOutput.contains("grid 'default': placements rewritten\n"))
        #expect(repaired.standardOutput.hasSuffix("grid 'fine': placements rewritten\nchecked 2 grid(s): 2 repaired\n"))
        let stored = try #require(try StoredGrid.read("default", path: database))
        #expect(stored.isConsistent)
        #expect(stored.revision == revision)
        #expect(try CommandRunner.run(["--db", database, "check", "--grid", "default"]).standardOutput
                == "checked 1 grid(s): every placement equals a fresh pack\n")
    }

    @Test("a change to a grid whose placements were edited leaves them equal to a fresh pack", arguments: Backend.all)
    func changeAfterTampering(backend: Backend) throws {
        let database = try backend.database(in: directory)
        _ = try CommandRunner.run(["--db", database, "init", "--items", "400"])
        let tamper = """
            DELETE FROM placement_chunks WHERE first_item = 128;
            UPDATE placement_chunks SET cells = '[[9,9,1,1,"big"]]' WHERE first_item = 0;
            INSERT INTO placement_chunks (grid_id, section, first_item, cells) VALUES ((SELECT id FROM grids), 0, 1024, '[]');
            """
        if backend == .sqlite {
            try SQLiteConnection(path: database, mode: .readWrite).executeScript(tamper)
        } else {
            try PostgreSQLScript.run(tamper, on: database)
        }
        #expect(try CommandRunner.run(["--db", database, "toggle", "399"]).status == 0)
        let stored = try #require(try StoredGrid.read("default", path: database))
        #expect(stored.placements.count == 400)
        #expect(stored.isConsistent)
    }
}
