import Foundation
import Testing

/// `gridstore completions bash|zsh|fish`, run in the real shells: bash's and fish's completion
/// machinery, and zsh's script with the completion system's builtins standing in.
@Suite("gridstore completions")
struct CompletionTests {
    let directory = TemporaryDirectory()

    /// Whether `shell` is installed; with `CI` set a missing one fails the test.
    func available(_ shell: String) -> Bool {
        let found = ["/usr/bin/", "/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + shell) }
        if !found && ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("\(shell) is not installed") }
        return found
    }

    /// Writes the script for `shell` and a database with grids `default` and `phone`; returns the script's path.
    func prepare(_ shell: String) throws -> (script: String, database: String) {
        let database = directory.file("g.sqlite")
        _ = try CommandRunner.run(["--db", database, "init", "-q"])
        _ = try CommandRunner.run(["--db", database, "--grid", "phone", "init", "-q"])
        let script = directory.file("gridstore.\(shell)")
        let result = try CommandRunner.run(["completions", shell])
        #expect(result.status == 0)
        try result.standardOutput.write(toFile: script, atomically: true, encoding: .utf8)
        return (script, database)
    }

    /// Runs `body` in bash or zsh with `gridstore` on the PATH.
    func run(_ shell: String, _ body: String) throws -> [String] {
        let bin = directory.file("bin")
        try? FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try? FileManager.default.createSymbolicLink(atPath: bin + "/gridstore", withDestinationPath: CommandRunner.executable.path)
        let result = try CommandRunner.shell("PATH='\(bin)':$PATH \(shell) -c \(CompletionModelQuoting.quoted(body))")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        return result.standardOutput.split(separator: "\n").map(String.init)
    }

    @Test("bash completes commands, options, values and grid names from the --db on the line")
    func bash() throws {
        let (script, database) = try prepare("bash")
        let lines = try run("bash", """
            source '\(script)'
            t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _gridstore; echo "${COMPREPLY[*]}"; }
            t gridstore to
            t gridstore --db '\(database)' --grid ''
            t gridstore show --format ''
            t gridstore set 1 m
            t gridstore toggle --s
            t gridstore completions ''
            """)
        #expect(lines == ["toggle", "default phone", "text json svg", "middle", "--section", "bash zsh fish"])
    }

    @Test("zsh's script completes the same, registered for gridstore")
    func zsh() throws {
        guard available("zsh") else { return }
        let (script, database) = try prepare("zsh")
        let lines = try run("zsh -f", """
            compdef() { : }
            _describe() { print -l -- "${(@P)${@[-1]}}" }
            compadd() { if [[ $1 == -a ]]; then print -l -- "${(@P)2}"; else [[ $1 == -- ]] && shift; print -l -- "$@"; fi }
            _files() { print FILES }
            source '\(script)'
            t() { words=("$@"); CURRENT=$#words; PREFIX=$words[-1]; _gridstore | tr '\\n' ' '; print }
            t gridstore --db '\(database)' --grid ''
            t gridstore show --format ''
            t gridstore import ''
            """)
        #expect(lines == ["default phone ", "text json svg ", "FILES "])
        let commands = try run("zsh -f", """
            compdef() { : }; _describe() { print -l -- "${(@P)${@[-1]}}" }; source '\(script)'
            words=(gridstore ''); CURRENT=2; PREFIX=''; _gridstore
            """)
        #expect(commands.contains("toggle:Cycle a tile's size small → middle → big → small, re-pack, and show the grid."))
    }

    @Test("fish completes commands, options, values and grid names")
    func fish() throws {
        guard available("fish") else { return }
        let (script, database) = try prepare("fish")
        let names = { (line: String) in try self.run("fish", "source '\(script)'; complete -C \(CompletionModelQuoting.quoted(line))")
            .map { String($0.prefix(while: { $0 != "\t" })) } }
        #expect(try names("gridstore to") == ["toggle"])
        #expect(try names("gridstore --db \(database) --grid ") == ["default", "phone"])
        #expect(try names("gridstore show --format ").sorted() == ["json", "svg", "text"])
        #expect(try names("gridstore toggle --sec") == ["--section"])
    }
}

/// Single quotes for bash and zsh command lines.
enum CompletionModelQuoting {
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
