#if canImport(Glibc)
import Glibc
#endif

/// Shows long output through the user's pager, as git does: `$PAGER`, else `less -R`, with
/// `LESS=FRX` unless `LESS` is set (quit at once when the output fits, keep colors, leave the
/// text on the screen). Only when standard output is a terminal; never when it is piped.
enum Pager {
    /// The pager command `environment` names, or `nil` when paging is turned off (`PAGER=cat`
    /// or an empty `PAGER`).
    static func command(environment: [String: String]) -> String? {
        let command = environment["GRIDSTORE_PAGER"] ?? environment["PAGER"] ?? "less -R"
        let trimmed = String(command.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        return trimmed.isEmpty || trimmed == "cat" ? nil : trimmed
    }

    /// Whether `bytes` should be paged: standard output is a terminal and they are taller than it.
    static func shouldPage(_ bytes: [UInt8], environment: [String: String]) -> Bool {
        guard isatty(STDOUT_FILENO) == 1, environment["TERM"] != "dumb", command(environment: environment) != nil,
              let lines = TerminalWidth.terminalLines() else { return false }
        var count = 0
        for byte in bytes where byte == UInt8(ascii: "\n") {
            count += 1
            if count >= lines { return true }
        }
        return false
    }

    /// Writes `bytes` into the pager and waits for the user to leave it.
    ///
    /// - Returns: `false` when the pager could not be started (the caller then writes the
    ///   output itself).
    static func show(_ bytes: [UInt8], environment: [String: String]) -> Bool {
        guard let command = command(environment: environment) else { return false }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], STDIN_FILENO)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        var variables = environment
        if variables["LESS"] == nil { variables["LESS"] = "FRX" }
        let arguments = ["/bin/sh", "-c", command]
        let environmentStrings = variables.map { "\($0.key)=\($0.value)" }
        var child: pid_t = 0
        let started = withCStrings(arguments) { argv in
            withCStrings(environmentStrings) { envp in posix_spawn(&child, "/bin/sh", &actions, nil, argv, envp) }
        }
        close(pipeEnds[0])
        guard started == 0 else {
            close(pipeEnds[1])
            return false
        }
        // A pager the user quits early closes the pipe: the rest is not wanted (EPIPE, quietly).
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBufferPointer { write(pipeEnds[1], $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { break }
            offset += written
        }
        close(pipeEnds[1])
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        return true
    }

    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> T) -> T {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
