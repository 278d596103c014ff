import Foundation
import GridStore
import GridStoreSQLite
import GridStoreAudit
@testable import GridStoreCLI
import Testing

/// Commands that only read create nothing; typos are answered with what was probably meant;
/// changes that change nothing add no revision.
@Suite("gridstore read commands and typos")
struct ReadOnlyCommandTests {
    let directory = TemporaryDirectory()

    func gridstore(at database: String, _ arguments: String...) throws -> CommandResult {
        try CommandRunner.run(["--db", database] + arguments)
    }

    static let readCommands: [[String]] = [
        ["show"], ["show", "--format", "json"], ["get", "1"], ["type"], ["export"], ["sections"],
    ]

    @Test("a read command on a missing grid exits 1, suggests a close name and creates nothing", arguments: Backend.all)
    func missingGrid(backend: Backend) throws {
        let database = try backend.database(in: directory)
        #expect(try gridstore(at: database, "init", "--items", "4").status == 0)
        for command in Self.readCommands {
            let result = try CommandRunner.run(["--db", database, "--grid", "defualt"] + command)
            #expect(result.status == 1, "\(command)")
            #expect(result.standardOutput.isEmpty, "\(command)")
            #expect(result.standardError == "Error: no grid named 'defualt'; did you mean 'default'?\n", "\(command)")
            let far = try CommandRunner.run(["--db", database, "--grid", "phone"] + command)
            #expect(far.standardError == "Error: no grid named 'phone'; 'gridstore grids' lists the grids\n", "\(command)")
        }
        let grids = try gridstore(at: database, "grids").standardOutput.split(separator: "\n")
        #expect(grids.count == 2, "\(grids)")
    }

    @Test("a read command on a missing database file says so and creates no file")
    func missingFile() throws {
        let database = directory.file("typo.sqlite")
        for command in Self.readCommands + [["grids"], ["check"], ["drop", "x"]] {
            let result = try gridstore(at: database, command)
            #expect(result.status == 1, "\(command)")
            #expect(result.standardError == "Error: no database at '\(database)'; commands that only read never create one "
                    + "(gridstore init does)\n", "\(command)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        // A command that changes a grid creates the file and the grid, as documented.
        #expect(try gridstore(at: database, "toggle", "1").status == 0)
        #expect(try gridstore(at: database, "get", "1").standardOutput == "middle\n")
    }

    @Test("a refused change on a missing database file leaves no file behind")
    func refusedFirstChange() throws {
        let database = directory.file("new.sqlite")
        let document = #"{"grid":"x","columns":4,"sections":[{"items":[{"size":"small"}]}]}"#
        for (arguments, input) in [(["toggle", "99"], nil), (["delete", "12"], nil), (["sections", "remove", "3"], nil),
                                   (["--grid", "bad\u{1}name", "toggle", "1"], nil), (["import", "-"], document.replacingOccurrences(of: "4", with: "99")),
                                   (["copy", directory.file("none.sqlite"), database], nil)] as [([String], String?)] {
            let result = try CommandRunner.run(["--db", database] + arguments, input: input.map { Data($0.utf8) })
            #expect(result.status != 0, "\(arguments)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "\(arguments)")
        }
        let source = directory.file("source.sqlite")
        _ = try CommandRunner.run(["--db", source, "init", "-q"])
        #expect(try CommandRunner.run(["--grid", "nope", "copy", source, database]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    @Test("a mistyped command is answered with the closest one")
    func commandTypo() throws {
        let result = try CommandRunner.run(["togle", "1"])
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("Error: unknown command 'togle'; did you mean 'toggle'?\n"))
        let far = try CommandRunner.run(["frobnicate"])
        #expect(far.standardError.hasPrefix("Error: unknown command 'frobnicate'; give one of init, toggle,"))
    }

    @Test("a change that changes nothing keeps the revision and writes nothing", arguments: Backend.all)
    func noOpChanges(backend: Backend) throws {
        let database = try backend.database(in: directory)
        #expect(try gridstore(at: database, "init", "--type", "more").status == 0)
        #expect(try gridstore(at: database, "toggle", "2").status == 0)
        let unchanged: [[String]] = [
            ["type", "more"], ["set", "2", "middle"], ["columns", "6"],
            ["direction", "vertical"], ["items", "12"], ["swap", "0", "1"], ["move", "0", "1"],
        ]
        for command in unchanged {
            let result = try gridstore(at: database, command)
            #expect(result.status == 0, "\(command)")
            #expect(result.standardOutput.hasPrefix("default · more (6 columns) · vertical · revision 1 · 12 items\n"),
                    "\(command): \(result.standardOutput)")
        }
        #expect(try gridstore(at: database, "type", "less").standardOutput.contains("revision 2"))
    }

    @Test("suggestions allow small typos only")
    func suggestions() {
        #expect(Suggestion.closest(to: "defualt", among: ["default", "phone"]) == "default")
        #expect(Suggestion.closest(to: "phnoe", among: ["default", "phone"]) == "phone")
        #expect(Suggestion.closest(to: "tablet", among: ["default", "phone"]) == nil)
        #expect(Suggestion.closest(to: "a", among: ["b", "abc"]) == "b")
        #expect(Suggestion.closest(to: "", among: ["default"]) == nil)
        #expect(Suggestion.editDistance(Array("kitten"), Array("sitting"), limit: 5) == 3)
        #expect(Suggestion.editDistance(Array("ab"), Array("ba"), limit: 5) == 1)
    }

    @Test("hints name the grid as one shell word")
    func shellWords() {
        #expect(ShellWord.quoted("hive") == "hive")
        #expect(ShellWord.quoted("my hive's") == "'my hive'\\''s'")
        #expect(ShellWord.quoted("") == "''")
    }
}

extension ReadOnlyCommandTests {
    func gridstore(at database: String, _ arguments: [String]) throws -> CommandResult {
        try CommandRunner.run(["--db", database] + arguments)
    }
}
