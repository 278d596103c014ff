import Foundation
import GridStoreAudit
import Testing

/// `gridstore copy` between SQLite files and PostgreSQL databases.
@Suite("gridstore copy")
struct CopyCommandTests {
    let directory = TemporaryDirectory()

    /// Every pair of backends to copy between.
    static var pairs: [(Backend, Backend)] {
        Backend.all.flatMap { from in Backend.all.map { to in (from, to) } }
    }

    @Test("copies every grid with its revision, sizes and placements, there and back", arguments: pairs)
    func roundTrip(from: Backend, to: Backend) throws {
        let source = try from.database(in: directory, name: "source.sqlite")
        let target = try to.database(in: directory, name: "target.sqlite")
        _ = try CommandRunner.run(["--db", source, "--grid", "phone", "init", "--type", "less", "--items", "300", "--sections", "2"])
        for index in ["3", "7", "7", "250"] { _ = try CommandRunner.run(["--db", source, "--grid", "phone", "toggle", index]) }
        _ = try CommandRunner.run(["--db", source, "--grid", "hive", "init", "--layout", "honeycomb", "--items", "19"])
        let copied = try CommandRunner.run(["copy", source, target])
        #expect(copied.status == 0, "\(copied.standardError)")
        #expect(copied.standardOutput.hasSuffix("copied 2 grid(s) from \(source) to \(target): hive (revision 0), phone (revision 4)\n"))
        for name in ["phone", "hive"] {
            let before = try #require(try StoredGrid.read(name, path: source))
            let after = try #require(try StoredGrid.read(name, path: target))
            #expect(after == before, "\(name)")
            #expect(after.isConsistent || name == "hive")
        }
        #expect(try CommandRunner.run(["--db", target, "--grid", "phone", "export"]).standardOutput
                == CommandRunner.run(["--db", source, "--grid", "phone", "export"]).standardOutput)
        // The copy carries on where the original was.
        #expect(try CommandRunner.run(["--db", target, "--grid", "phone", "toggle", "0"]).standardOutput.contains("revision 5"))
    }

    @Test("a grid the target has is refused without --force, and nothing is written; --grid copies one", arguments: Backend.all)
    func refusals(backend: Backend) throws {
        let source = directory.file("source.sqlite")
        let target = try backend.database(in: directory, name: "target.sqlite")
        _ = try CommandRunner.run(["--db", source, "--grid", "a", "init"])
        _ = try CommandRunner.run(["--db", source, "--grid", "b", "init", "--items", "3"])
        _ = try CommandRunner.run(["--db", target, "--grid", "b", "toggle", "1"])
        let before = try DatabaseAudit.rows(path: target)
        let refused = try CommandRunner.run(["copy", source, target])
        #expect(refused.status == 64)
        #expect(refused.standardError.hasPrefix("Error: a grid named 'b' exists already"))
        #expect(try DatabaseAudit.rows(path: target) == before)
        let one = try CommandRunner.run(["copy", source, target, "--grid", "a"])
        #expect(one.status == 0)
        #expect(one.standardOutput.hasSuffix(": a (revision 0)\n"))
        let forced = try CommandRunner.run(["copy", source, target, "--force"])
        #expect(forced.status == 0)
        #expect(try StoredGrid.read("b", path: target)?.itemCounts == [3])
        let missing = try CommandRunner.run(["copy", directory.file("nothing.sqlite"), target])
        #expect(missing.status == 1)
        #expect(missing.standardError == "Error: \(directory.file("nothing.sqlite")) does not exist\n")
    }

    @Test("a database is never copied onto itself, by the same name, another path or another URI", arguments: Backend.all)
    func ontoItself(backend: Backend) throws {
        let database = try backend.database(in: directory, name: "self.sqlite")
        for index in ["1", "2", "3"] { _ = try CommandRunner.run(["--db", database, "-q", "toggle", index]) }
        let before = try DatabaseAudit.rows(path: database)
        var others = [database]
        if backend == .sqlite {
            try FileManager.default.linkItem(atPath: database, toPath: directory.file("hard-link.sqlite"))
            others += [directory.path + "/./self.sqlite", directory.file("hard-link.sqlite")]
        } else {
            // The same database through other spellings of its URI.
            others.append(database + (database.contains("?") ? "&" : "?") + "application_name=other")
        }
        for other in others {
            for force in [[], ["--force"]] {
                let result = try CommandRunner.run(["copy", database, other] + force)
                #expect(result.status == 64, "\(other)")
                #expect(result.standardError.hasPrefix("Error: "), "\(other)")
                #expect(result.standardError.contains("are one database; a copy needs two"), "\(result.standardError)")
            }
        }
        #expect(try DatabaseAudit.rows(path: database) == before)
        #expect(try CommandRunner.run(["--db", database, "undo"]).status == 0)
    }

    @Test("history comes along: undo, show --at and revert work on the copy; --no-history leaves it behind", arguments: pairs)
    func history(from: Backend, to: Backend) throws {
        let source = try from.database(in: directory, name: "source.sqlite")
        let target = try to.database(in: directory, name: "target.sqlite")
        _ = try CommandRunner.run(["--db", source, "-q", "history", "--keep", "50"])
        for index in ["1", "2", "2", "5"] { _ = try CommandRunner.run(["--db", source, "-q", "toggle", index]) }
        _ = try CommandRunner.run(["--db", source, "-q", "undo"])
        #expect(try CommandRunner.run(["copy", source, target]).status == 0)
        let listing = ["history", "--format", "json"]
        #expect(try CommandRunner.run(["--db", target] + listing).standardOutput
                == CommandRunner.run(["--db", source] + listing).standardOutput)
        #expect(try CommandRunner.run(["--db", target, "grids", "--format", "json"]).standardOutput
                == CommandRunner.run(["--db", source, "grids", "--format", "json"]).standardOutput)
        #expect(try CommandRunner.run(["--db", target, "show", "--at", "1", "--format", "json"]).standardOutput
                == CommandRunner.run(["--db", source, "show", "--at", "1", "--format", "json"]).standardOutput)
        for database in [source, target] {
            #expect(try CommandRunner.run(["--db", database, "-q", "redo"]).status == 0)
            #expect(try CommandRunner.run(["--db", database, "-q", "undo", "3"]).status == 0)
        }
        #expect(try StoredGrid.read("default", path: target) == StoredGrid.read("default", path: source))
        let bare = try to.database(in: directory, name: "bare.sqlite")
        #expect(try CommandRunner.run(["copy", source, bare, "--no-history"]).status == 0)
        let undo = try CommandRunner.run(["--db", bare, "undo"])
        #expect(undo.status == 64)
        #expect(try CommandRunner.run(["--db", bare, "history"]).standardOutput == "no changes recorded for grid 'default'\n")
    }
}
