import Foundation
import Testing

/// The terminal examples of the README and of docs/, run as written: every fenced block whose
/// lines start with `$ ` is a session, and a document's sessions run in order in one fresh
/// home folder, as a new user following it from the top would run them.
@Suite("README and docs/ examples")
struct READMEExampleTests {
    /// One `$ command` and the output the README shows after it.
    struct Example: CustomStringConvertible {
        var command: String
        var expectedOutput: String
        var line: Int
        var document = "README.md"
        var description: String { "\(document):\(line): $ \(command)" }
    }

    static var readmePath: String { repositoryRoot + "/README.md" }

    /// The `$ ` examples of `markdown`, in order.
    static func examples(in markdown: String) -> [Example] {
        var examples: [Example] = []
        var inBlock = false
        var blockIsSession = false
        for (number, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                inBlock.toggle()
                blockIsSession = false
                continue
            }
            guard inBlock else { continue }
            if line.hasPrefix("$ ") {
                blockIsSession = true
                examples.append(Example(command: String(line.dropFirst(2)), expectedOutput: "", line: number + 1))
            } else if blockIsSession {
                examples[examples.count - 1].expectedOutput += line + "\n"
            }
        }
        return examples
    }

    @Test("the README and docs/ hold the tour and the command line's examples")
    func enough() throws {
        let counts = try markdownDocuments.map { Self.examples(in: try String(contentsOf: repositoryRootURL.appendingPathComponent($0), encoding: .utf8)).count }
        #expect(counts[0] >= 4 && counts.reduce(0, +) >= 25)
    }

    @Test("every $ example prints what its document shows, run in order from a fresh home per document", arguments: markdownDocuments)
    func examplesMatch(document: String) throws {
        let markdown = try String(contentsOf: repositoryRootURL.appendingPathComponent(document), encoding: .utf8)
        let examples = Self.examples(in: markdown).map { example in
            var example = example
            example.document = document
            return example
        }
        guard !examples.isEmpty else { return }
        let home = TemporaryDirectory()
        let bin = home.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/gridstore", withDestinationPath: CommandRunner.executable.path)
        // The README's first command, `swift run gridstore toggle 3`, comes before the walkthrough.
        _ = try run("gridstore toggle 3", home: home.path, bin: bin)
        for example in examples {
            let output = try run(example.command, home: home.path, bin: bin)
            #expect(output == example.expectedOutput, "\(example)")
        }
    }

    @Test("examples are read from fenced blocks only, output up to the next command")
    func parsing() {
        let markdown = """
            $ not in a block
            ```
            $ gridstore get 1
            big
            $ gridstore get 2

            ```
            ```swift
            let x = 1
            ```
            """
        let examples = Self.examples(in: markdown)
        #expect(examples.map(\.command) == ["gridstore get 1", "gridstore get 2"])
        #expect(examples.map(\.expectedOutput) == ["big\n", "\n"])
    }

    /// Runs `command` with bash as a user would: `gridstore` on the PATH, a home folder of its
    /// own, no color, an 80-column terminal. Standard output and error are returned together.
    private func run(_ command: String, home: String, bin: String) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        for key in ["GRIDSTORE_DB", "XDG_DATA_HOME", "PAGER", "COLUMNS"] { environment[key] = nil }
        environment["HOME"] = home
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["NO_COLOR"] = "1"
        environment["COLUMNS"] = "80"
        let process = try ChildProcess(program: "/bin/bash", arguments: ["-c", command + " 2>&1"], environment: environment,
                                       directory: home)
        return String(decoding: process.wait().standardOutput, as: UTF8.self)
    }
}
