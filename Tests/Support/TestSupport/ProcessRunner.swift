import Foundation

/// How a run of `gridstore` ended.
public struct RunResult {
    /// The exit status, when the process exited.
    public var status: Int32?
    /// The signal that ended the process, when one did (a crash, or our kill).
    public var signal: Int32?
    /// Whether it was killed for running past its time limit.
    public var timedOut = false
    public var standardOutput: String
    public var standardError: String
    /// How long the process ran, from its start to when it was seen to end, in seconds.
    public var seconds = 0.0

    /// A short description for failure reports.
    public var summary: String {
        if timedOut { return "hung (killed after the time limit)" }
        if let signal { return "ended by signal \(signal)" }
        return "exit \(status ?? -1), stderr: \(standardError.prefix(300))"
    }
}

/// Starts processes of one executable (the `gridstore` under test) and waits for them with a time limit, without pipes (output
/// goes to files), so a process that prints a lot can never block.
public struct ProcessRunner: Sendable {
    /// The `gridstore` executable under test.
    public let executable: String
    /// A folder for output files.
    public let scratch: String
    /// A user id to run as (to make file permissions count when the suite runs as root).
    public var userID: uid_t?

    /// Creates a runner of `executable` that keeps output files in `scratch`, optionally as user `userID`.
    public init(executable: String, scratch: String, userID: uid_t? = nil) {
        self.executable = executable
        self.scratch = scratch
        self.userID = userID
    }

    /// Runs `gridstore` with `arguments` and `input` on standard input, killing it after `timeLimit` seconds.
    public func run(_ arguments: [String], input: [UInt8]? = nil, environment: [String: String] = [:], timeLimit: Double = 30) -> RunResult {
        let process = start(arguments, input: input, environment: environment)
        return process.wait(timeLimit: timeLimit)
    }

    /// Starts `gridstore` without waiting.
    public func start(_ arguments: [String], input: [UInt8]? = nil, environment: [String: String] = [:]) -> RunningProcess {
        let token = UUID().uuidString
        let outputPath = scratch + "/out-" + token
        let errorPath = scratch + "/err-" + token
        let inputPath = scratch + "/in-" + token
        _ = FileManager.default.createFile(atPath: inputPath, contents: Data(input ?? []))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var program = executable
        var argv = [executable] + arguments
        if let userID {
            // setpriv drops to an unprivileged user, so permissions apply as to any user.
            program = "/usr/bin/setpriv"
            argv = ["setpriv", "--reuid=\(userID)", "--regid=\(userID)", "--clear-groups", executable] + arguments
        }
        var variables = ProcessInfo.processInfo.environment
        variables["GRIDSTORE_DB"] = nil
        variables["NO_COLOR"] = "1"
        for (key, value) in environment { variables[key] = value }
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, program, &actions, nil, cArguments, cEnvironment)
        return RunningProcess(pid: code == 0 ? pid : -1, outputPath: outputPath, errorPath: errorPath, inputPath: inputPath)
    }
}

/// A started `gridstore` process.
public struct RunningProcess {
    public let pid: pid_t
    public let outputPath: String
    public let errorPath: String
    public let inputPath: String
    /// When the process was started.
    public let started = Date()

    /// Sends SIGKILL, as a crash or power cut would end the process.
    public func kill() {
        if pid > 0 { Foundation.kill(pid, SIGKILL) }
    }

    /// Waits for the process to end, killing it after `timeLimit` seconds.
    public func wait(timeLimit: Double) -> RunResult {
        guard pid > 0 else { return RunResult(status: 127, standardOutput: "", standardError: "cannot start the process") }
        let deadline = Date().addingTimeInterval(timeLimit)
        var status: Int32 = 0
        var timedOut = false
        var delay: useconds_t = 200
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                timedOut = true
                Foundation.kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            usleep(delay)
            delay = min(delay * 2, 5_000)
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        for path in [outputPath, errorPath, inputPath] { unlink(path) }
        let signaled = (status & 0x7F) != 0 && (status & 0x7F) != 0x7F
        return RunResult(status: signaled ? nil : (status >> 8) & 0xFF, signal: signaled ? status & 0x7F : nil,
                         timedOut: timedOut, standardOutput: output, standardError: error,
                         seconds: Date().timeIntervalSince(started))
    }
}
