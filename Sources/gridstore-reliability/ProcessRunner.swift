import Foundation

/// How a run of `gridstore` ended.
struct RunResult {
    /// The exit status, when the process exited.
    var status: Int32?
    /// The signal that ended the process, when one did (a crash, or our kill).
    var signal: Int32?
    /// Whether it was killed for running past its time limit.
    var timedOut = false
    var standardOutput: String
    var standardError: String

    /// A short description for failure reports.
    var summary: String {
        if timedOut { return "hung (killed after the time limit)" }
        if let signal { return "ended by signal \(signal)" }
        return "exit \(status ?? -1), stderr: \(standardError.prefix(300))"
    }
}

/// Starts `gridstore` processes and waits for them with a time limit, without pipes (output
/// goes to files), so a process that prints a lot can never block.
struct ProcessRunner: Sendable {
    /// The `gridstore` executable under test.
    let executable: String
    /// A folder for output files.
    let scratch: String
    /// A user id to run as (to make file permissions count when the suite runs as root).
    var userID: uid_t?

    /// Runs `gridstore` with `arguments` and `input` on standard input, killing it after `timeLimit` seconds.
    func run(_ arguments: [String], input: [UInt8]? = nil, environment: [String: String] = [:], timeLimit: Double = 30) -> RunResult {
        let process = start(arguments, input: input, environment: environment)
        return process.wait(timeLimit: timeLimit)
    }

    /// Starts `gridstore` without waiting.
    func start(_ arguments: [String], input: [UInt8]? = nil, environment: [String: String] = [:]) -> RunningProcess {
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
struct RunningProcess {
    let pid: pid_t
    let outputPath: String
    let errorPath: String
    let inputPath: String

    /// Sends SIGKILL, as a crash or power cut would end the process.
    func kill() {
        if pid > 0 { Foundation.kill(pid, SIGKILL) }
    }

    /// Waits for the process to end, killing it after `timeLimit` seconds.
    func wait(timeLimit: Double) -> RunResult {
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
                         timedOut: timedOut, standardOutput: output, standardError: error)
    }
}
