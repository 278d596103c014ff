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
        let process = try start(arguments, environment: environment)
        if let input {
            try (process.standardInput as! Pipe).fileHandleForWriting.write(contentsOf: input)
        }
        try (process.standardInput as! Pipe).fileHandleForWriting.close()
        return finish(process)
    }

    /// Runs `script` with bash, `$GRIDSTORE` naming the executable: for redirections the
    /// runner cannot make (a closed descriptor, /dev/full, a pipe closed early).
    static func shell(_ script: String) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        var environment = ProcessInfo.processInfo.environment
        environment["GRIDSTORE"] = executable.path
        environment["GRIDSTORE_DB"] = nil
        environment["NO_COLOR"] = "1"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return finish(process)
    }

    /// Copies the `gridstore` executable to `path`, runnable by anyone.
    ///
    /// The copy is written by `cp` in a process of its own: written from this process, its open
    /// descriptor could be inherited by a child another test starts at that moment, and running
    /// the copy would then fail with "Text file busy" for as long as that child lives.
    static func copyExecutable(to path: String) throws {
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = [executable.path, path]
        try copy.run()
        copy.waitUntilExit()
        guard copy.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        chmod(path, 0o755)
    }

    /// Starts `gridstore` without waiting for it.
    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged["GRIDSTORE_DB"] = nil
        merged["NO_COLOR"] = "1"
        merged["COLUMNS"] = nil
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        process.standardInput = Pipe()
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }

    /// Reads everything a started process prints and waits for it to exit.
    static func finish(_ process: Process) -> CommandResult {
        let output = (process.standardOutput as! Pipe).fileHandleForReading
        let error = (process.standardError as! Pipe).fileHandleForReading
        // Read both pipes concurrently so a large output on one cannot block the other.
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData = error.readDataToEndOfFile()
            group.leave()
        }
        let outputData = output.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self),
            standardOutputBytes: Array(outputData))
    }
}

