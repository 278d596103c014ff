import Foundation
import GridLayout
import GridStore
import GridStoreAudit
import GridStoreCLI
import GridStorePostgreSQL
import Testing
import TestSupport

/// A committed change is never reported as not made; a name the file system refuses creates
/// nothing; an editor outlives its server; two stores in one PostgreSQL database are two.
@Suite("gridstore when a change is committed and the world around it fails")
struct CommittedChangeTests {
    let directory = TemporaryDirectory()

    @Test("a change whose output cannot be written says it was made, with its revision, and exits 3",
          arguments: ["toggle 1", "set 2 big", "undo", "init --force", "drop default"])
    func committedButOutputFailed(command: String) throws {
        let database = directory.file("grids.sqlite")
        _ = try CommandRunner.run(["--db", database, "toggle", "0"])
        let before = try #require(try StoredGrid.read("default", path: database)).revision
        let result = try CommandRunner.shell("\"$GRIDSTORE\" --db '\(database)' \(command) > /dev/full")
        #expect(result.status == 3, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("Error: the change was made and committed ("), "\(result.standardError)")
        #expect(result.standardError.hasSuffix("), but cannot write standard output: No space left on device\n"),
                "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        if command.hasPrefix("drop") {
            #expect(try StoredGrid.read("default", path: database) == nil)
        } else {
            let after = try #require(try StoredGrid.read("default", path: database)).revision
            #expect(after != before || command.hasPrefix("init"))
            #expect(result.standardError.contains("revision \(after)"), "\(result.standardError)")
        }
    }

    @Test("a reader that goes away after a change was committed: exit 3 and a line saying so; before any change, 141")
    func committedButReaderLeft() throws {
        let database = directory.file("grids.sqlite")
        _ = try CommandRunner.run(["--db", database, "init", "--items", "3000"])
        let revision = try #require(try StoredGrid.read("default", path: database)).revision + 1
        let changed = try CommandRunner.shell(
            "\"$GRIDSTORE\" --db '\(database)' toggle 5 | head -c 1 > /dev/null; echo \"status ${PIPESTATUS[0]}\"")
        #expect(changed.standardOutput == "status 3\n" || changed.standardOutput == "status 0\n")
        if changed.standardOutput == "status 3\n" {
            #expect(changed.standardError == "Error: the change was made and committed (grid 'default' is at revision \(revision)), "
                    + "but the reader of standard output went away\n")
        }
        #expect(try StoredGrid.read("default", path: database)?.revision == revision)
        let read = try CommandRunner.shell("\"$GRIDSTORE\" --db '\(database)' show | head -c 1 > /dev/null; echo \"status ${PIPESTATUS[0]}\"")
        #expect(read.standardOutput == "status 141\n")
    }

    @Test("a database name whose -journal or -wal the file system refuses is refused before anything is created",
          arguments: [248, 250, 252, 255])
    func companionNames(length: Int) throws {
        let folder = directory.file("names")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let name = String(repeating: "g", count: length - 7) + ".sqlite"
        let result = try CommandRunner.run(["--db", folder + "/" + name, "toggle", "1"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("the file name is \(length) bytes"), "\(result.standardError)")
        #expect(result.standardError.contains("use a name of at most 247 bytes"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        let fits = try CommandRunner.run(["--db", folder + "/" + String(repeating: "g", count: 240) + ".sqlite", "-q", "toggle", "1"])
        #expect(fits.status == 0, "\(fits.standardError)")
    }

    @Test("copy between two stores in one PostgreSQL database, chosen by search_path", .enabled(if: PostgreSQLTestServer.shouldTest))
    func twoSchemas() throws {
        let uri = try PostgreSQLTestServer.shared().makeDatabase()
        try PostgreSQLScript.run("CREATE SCHEMA a; CREATE SCHEMA b;", on: uri)
        let first = uri + "&options=-c%20search_path%3Da", second = uri + "&options=-c%20search_path%3Db"
        #expect(try CommandRunner.run(["--db", first, "-q", "toggle", "1"]).status == 0)
        let copied = try CommandRunner.run(["copy", first, second, "-q"])
        #expect(copied.status == 0, "\(copied.standardError)")
        #expect(try CommandRunner.run(["--db", second, "get", "1"]).standardOutput == "middle\n")
        // The same store by two spellings is still one.
        let same = try CommandRunner.run(["copy", first, first + "&application_name=x", "--force"])
        #expect(same.status == 64, "\(same.standardError)")
        #expect(same.standardError.contains("are one database"), "\(same.standardError)")
    }

    @Test("the editor keeps every change through a server it cannot reach, shows the outage, and saves them when it is back",
          .enabled(if: PostgreSQLTestServer.shouldTest))
    func editorOutage() throws {
        let server = try PostgreSQLTestServer.shared()
        let uri = try server.makeDatabase()
        let name = try #require(uri.split(separator: "@/").last?.split(separator: "?").first.map(String.init))
        let grid = try Grid(named: "g", in: GridDatabase(location: uri), creatingWith: GridOptions(sectionItemCounts: [4]))
        let model = try EditorModel(grid: grid)
        let admin = server.url()
        try PostgreSQLScript.run("ALTER DATABASE \(name) ALLOW_CONNECTIONS false; "
                                 + "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'", on: admin)
        #expect(model.handle(.space))
        try model.commitPending()
        #expect(model.outage != nil)
        #expect(model.unsavedChangeCount == 1)
        #expect(model.handle(.right))
        #expect(model.handle(.space))
        try model.commitPending()
        #expect(model.unsavedChangeCount == 2)
        #expect(try model.refresh() == false || model.outage != nil)
        #expect(model.render(columns: 300, lines: 20).plainLines.joined().contains("database unreachable or busy, 2 change(s) waiting"))
        // The first q keeps the editor open while changes wait.
        #expect(model.handle(.character("q")))
        try PostgreSQLScript.run("ALTER DATABASE \(name) ALLOW_CONNECTIONS true", on: admin)
        _ = try model.refresh()
        #expect(model.outage == nil)
        #expect(model.unsavedChangeCount == 0)
        let stored = try Grid(named: "g", in: GridDatabase(location: uri), creatingWith: nil).snapshot()
        #expect(stored.revision == 2)
        #expect(try stored.size(at: GridIndexPath(item: 0)) == .middle)
        #expect(try stored.size(at: GridIndexPath(item: 1)) == .middle)
        #expect(!model.handle(.character("q")))
    }
}
