/// Shows long output through the user's pager, as git does: `$PAGER`, else `less -R`, with
/// `LESS=FRX` unless `LESS` is set (quit at once when the output fits, keep colors, leave the
/// text on the screen). Only when standard output is a terminal; never when it is piped.
enum Pager {
    /// The pager command `environment` names, or `nil` when paging is turned off (`PAGER=cat`
    /// or an empty `PAGER`).
    static func command(environment: NamedValues) -> String? {
        let command = environment["GRIDSTORE_PAGER"] ?? environment["PAGER"] ?? "less -R"
        let trimmed = String(command.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        return trimmed.isEmpty || trimmed == "cat" ? nil : trimmed
    }

    /// Whether `bytes` should be paged: standard output is a terminal and they are taller than it.
    static func shouldPage(_ bytes: [UInt8], environment: NamedValues) -> Bool {
        guard Platform.isTerminal(.standardOutput), environment["TERM"] != "dumb", command(environment: environment) != nil,
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
    static func show(_ bytes: [UInt8], environment: NamedValues) -> Bool {
        guard let command = command(environment: environment) else { return false }
        // The pager runs with the whole environment (PATH, LANG, LESS, …), not only the variables
        // gridstore reads, with those as the command saw them.
        var variables = Platform.processEnvironment()
        for (name, value) in environment.entries { variables[name] = value }
        if variables["LESS"] == nil { variables["LESS"] = "FRX" }
        return Platform.runShell(command, environment: variables, input: bytes)
    }
}
