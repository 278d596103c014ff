import Foundation
import Testing

/// Output that cannot be written is an error, so a script never keeps a truncated file.
@Suite("gridstore when its output cannot be written")
struct OutputErrorTests {
    let directory = TemporaryDirectory()

    /// Runs `gridstore` through the shell with `redirection` applied to it.
    func run(_ arguments: String, redirection: String) throws -> CommandResult {
        let database = directory.file("grids.sqlite")
        _ = try CommandRunner.run(["--db", database, "init", "--items", "2000"])
        return try CommandRunner.shell("\"$GRIDSTORE\" --db '\(database)' \(arguments) \(redirection)")
    }

    @Test("a full disk: one line naming standard output, exit 74", arguments: ["export", "show", "grids"])
    func fullDisk(command: String) throws {
        let result = try run(command, redirection: "> /dev/full")
        #expect(result.status == 74)
        #expect(result.standardError == "Error: cannot write standard output: No space left on device\n")
    }

    @Test("a closed standard output: one line, exit 74")
    func closedOutput() throws {
        let result = try run("export", redirection: ">&-")
        #expect(result.status == 74)
        #expect(result.standardError == "Error: cannot write standard output: Bad file descriptor\n")
    }

    @Test("a reader that stops early is a quiet end, as with any Unix tool")
    func brokenPipe() throws {
        let result = try run("show", redirection: "| head -c 10 > /dev/null; echo \"status ${PIPESTATUS[0]}\"")
        #expect(result.standardError == "")
        #expect(result.standardOutput == "status 141\n")
    }
}
