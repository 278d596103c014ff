#if canImport(Glibc)
import Glibc
#endif

/// Runs programs as child processes and measures them.
enum ChildProcess {
    /// The path of this executable.
    static var currentExecutable: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    }

    /// Runs `path` with `arguments`, returning its standard output and exit status.
    static func run(_ path: String, _ arguments: [String], environment: [String]? = nil, captureOutput: Bool = true) -> (output: String, status: Int32) {
        var pipeEnds: [Int32] = [0, 0]
        pipe(&pipeEnds)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envStrings = environment ?? currentEnvironment()
        let envp = envStrings.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            return ("", -1)
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(pipeEnds[0], &buffer, buffer.count)
            if count <= 0 { break }
            output.append(contentsOf: buffer[..<count])
        }
        close(pipeEnds[0])
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        return (String(decoding: output, as: UTF8.self), (status >> 8) & 0xFF)
    }

    /// The C source of `peak`, which runs a program as its own child and prints that child's
    /// peak resident memory in KiB on the last line of its output.
    ///
    /// The peak of a child this process spawns directly is worthless: `posix_spawn` shares this
    /// process's memory until the exec, and Linux carries that memory's high-water mark into the
    /// child's `ru_maxrss`. A small process forking the program does not.
    static let peakSource = """
        #include <stdio.h>
        #include <sys/resource.h>
        #include <sys/wait.h>
        #include <unistd.h>
        int main(int argc, char **argv) {
            if (argc < 2) return 64;
            pid_t pid = fork();
            if (pid == 0) { execv(argv[1], argv + 1); _exit(127); }
            int status = 0;
            struct rusage usage;
            if (pid < 0 || wait4(pid, &status, 0, &usage) < 0) return 125;
            printf("\\npeak-kib %ld\\n", usage.ru_maxrss);
            return WIFEXITED(status) ? WEXITSTATUS(status) : 126;
        }

        """

    /// Runs `path` with `arguments` under the compiled `peak` program at `peakProgram`,
    /// returning its exit status and peak resident memory in KiB.
    static func runMeasuringPeak(_ path: String, _ arguments: [String], peakProgram: String) -> (status: Int32, peakKiB: Int) {
        let (output, status) = run(peakProgram, [path] + arguments)
        let last = output.split(separator: "\n").last.map(String.init) ?? ""
        guard last.hasPrefix("peak-kib "), let peak = Int(last.dropFirst("peak-kib ".count)) else { return (status, -1) }
        return (status, peak)
    }

    static func currentEnvironment() -> [String] {
        var result: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            result.append(String(cString: entry))
            pointer += 1
        }
        return result
    }

    /// Peak memory of a fresh process that packs `count` tiles.
    static func peakMemoryReport(count: Int) -> String {
        let (output, status) = run(currentExecutable, ["--peak-memory", String(count)])
        let parts = output.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: " \n")) }
        guard status == 0, parts.count == 2 else { return "peak memory: measurement failed" }
        return "peak memory of a process packing \(count) tiles: \(format(parts[0], decimals: 1)) MiB "
            + "(\(format(parts[0] - parts[1], decimals: 1)) MiB above its start; target: at most 100 MB)"
    }
}

extension Substring {
    func trimmingCharacters(in characters: String) -> Substring {
        var result = self
        while let first = result.first, characters.contains(first) { result.removeFirst() }
        while let last = result.last, characters.contains(last) { result.removeLast() }
        return result
    }
}
