import Foundation
@testable import GridStoreCLI
import Testing

/// `drop` names its grid as every other command does.
@Suite("gridstore drop and --grid")
struct DropGridOptionTests {
    let directory = TemporaryDirectory()

    @Test("--grid w drop, drop w, and --grid w drop w drop w; two different names are refused")
    func globalGrid() throws {
        let database = directory.file("drop.sqlite")
        for arguments in [["--grid", "w", "drop"], ["drop", "w"], ["--grid", "w", "drop", "w"], ["drop", "--grid", "w"]] {
            #expect(try CommandRunner.run(["--db", database, "--grid", "w", "-q", "init"]).status == 0)
            let result = try CommandRunner.run(["--db", database] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            #expect(result.standardOutput == "dropped grid 'w'\n")
        }
        let both = try CommandRunner.run(["--db", database, "--grid", "w", "drop", "v"])
        #expect(both.status == 64)
        #expect(both.standardError.hasPrefix("Error: drop names two grids, 'v' and --grid 'w'; give one\n"))
        let none = try CommandRunner.run(["--db", database, "drop"])
        #expect(none.status == 64)
        #expect(none.standardError.hasPrefix("Error: missing <name> (or --grid): the grid to delete\n"))
    }
}
