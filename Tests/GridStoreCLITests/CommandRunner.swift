import Foundation
@_exported import TestSupport

/// What a run of the `gridstore` binary printed and how it exited.
struct CommandResult: Equatable {
    var status: Int32
    var standardOutput: String
    var standardError: String
    /// Standard output's bytes as written: a binary sync bundle is not UTF-8.
    var standardOutputBytes: [UInt8] = []

    static func == (lhs: CommandResult, rhs: CommandResult) -> Bool {
        lhs.status == rhs.status && lhs.standardOutput == rhs.standardOutput && lhs.standardError == rhs.standardError
    }
}

/// Runs the built `gridstore` executable, as a user would.
enum CommandRunner {
    /// The folder holding the build's products (the test bundle sits beside the executables).
    static let productsDirectory: URL = {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("gridstore").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        fatalError("the gridstore executable was not built next to \(testBinary.path)")
    }()

    /// The `gridstore` executable.
    static var executable: URL { productsDirectory.appendingPathComponent("gridstore") }

    /// Runs `gridstore` with `arguments`, feeding it `input`, and waits for it to exit.
    static func run(_ arguments: [String], input: Data? = nil, environment: [String: String] = [:]) throws -> CommandResult {
        finish(try start(arguments, input: input, environment: environment))
    }

    /// Runs `script` with bash, `$GRIDSTORE` naming the executable: for redirections the
    /// runner cannot make (a closed descriptor, /dev/full, a pipe closed early).
    static func shell(_ script: String) throws -> CommandResult {
        var environment = ProcessInfo.processInfo.environment
        environment["GRIDSTORE"] = executable.path
        environment["GRIDSTORE_DB"] = nil
        environment["NO_COLOR"] = "1"
        return finish(try ChildProcess(program: "/bin/bash", arguments: ["-c", script], environment: environment))
    }

    /// Copies the `gridstore` executable to `path`, runnable by anyone.
    ///
    /// The copy is written by `cp` in a process of its own: written from this process, its open
    /// descriptor could be inherited by a child another test starts at that moment, and running
    /// the copy would then fail with "Text file busy" for as long as that child lives.
    static func copyExecutable(to path: String) throws {
        let copy = try ChildProcess(program: "/bin/cp", arguments: [executable.path, path], environment: [:])
        guard copy.wait().status == 0 else { throw CocoaError(.fileWriteUnknown) }
        chmod(path, 0o755)
    }

    /// Starts `gridstore` without waiting for it; its standard input reads `input`, then ends.
    static func start(_ arguments: [String], input: Data? = nil, environment: [String: String] = [:]) throws -> ChildProcess {
        var merged = ProcessInfo.processInfo.environment
        merged["GRIDSTORE_DB"] = nil
        merged["NO_COLOR"] = "1"
        merged["COLUMNS"] = nil
        for (key, value) in environment { merged[key] = value }
        return try ChildProcess(program: executable.path, arguments: arguments, environment: merged, input: Array(input ?? Data()))
    }

    /// Reads everything a started process prints and waits for it to exit.
    static func finish(_ process: ChildProcess) -> CommandResult {
        let ended = process.wait()
        return CommandResult(
            status: ended.status,
            standardOutput: String(decoding: ended.standardOutput, as: UTF8.self),
            standardError: String(decoding: ended.standardError, as: UTF8.self),
            standardOutputBytes: ended.standardOutput)
    }
}

