import GridStore

/// The `gridstore` command line: parses arguments, runs a command, reports errors.
public enum GridStoreCommandLine {
    /// The version `gridstore --version` prints.
    public static let version = "0.1.0"

    /// Every command, in the order the top-level help lists them.
    static let commands: [any GridStoreCommand.Type] = [
        InitCommand.self, ToggleCommand.self, SetCommand.self, GetCommand.self, ShowCommand.self,
        TypeCommand.self, ColumnsCommand.self, DirectionCommand.self,
        ItemsCommand.self, InsertCommand.self, DeleteCommand.self, MoveCommand.self, SwapCommand.self,
        SectionsCommand.self, KeysCommand.self, ResetCommand.self, UndoCommand.self, RedoCommand.self, HistoryCommand.self,
        RevertCommand.self, EditCommand.self, GridsCommand.self, DropCommand.self,
        ExportCommand.self, ImportCommand.self, ImportDefaultsCommand.self, CopyCommand.self,
        SyncCommand.self, NameCommand.self, ConflictsCommand.self, SyncCursorCommand.self, SyncExportCommand.self, SyncImportCommand.self, SyncShowCommand.self,
        CheckCommand.self, MigrateCommand.self, CompletionsCommand.self,
    ]

    /// The top-level usage line.
    static let usage = "gridstore [--db <path>] [--grid <name>] <command> [<arguments>]"

    /// Runs the command line given by `arguments` (without the program name) and
    /// writes its output to the process's standard output and standard error.
    ///
    /// - Returns: The exit status: 0 on success, 64 for a usage error, 65 for a
    ///   malformed input file, 74 when the output could not be written and nothing was changed,
    ///   3 when a change was committed but its output could not be written, 1 for any other failure.
    public static func main(arguments: [String]) -> Int32 {
        let console = Console(environment: Console.processEnvironment())
        let status = run(arguments, console: console)
        let committed = console.committedChange
        switch console.flush() {
        case .written:
            return status
        case .brokenPipe:
            guard let committed else {
                // The reader stopped reading (`| head`): quiet, as when SIGPIPE ends a process.
                return 141
            }
            Console.writeErrorLine("Error: \(committedMessage(committed)), but the reader of standard output went away")
            return committedOutputErrorStatus
        case .failed(let stream, let reason):
            guard let committed else {
                Console.writeErrorLine("Error: cannot write \(stream): \(reason)")
                return outputErrorStatus
            }
            Console.writeErrorLine("Error: \(committedMessage(committed)), but cannot write \(stream): \(reason)")
            return committedOutputErrorStatus
        }
    }

    /// The exit status when output could not be written and nothing was changed: `EX_IOERR`.
    static let outputErrorStatus: Int32 = 74

    /// The exit status when the change was made, but its output could not be written: run
    /// again, the command would change the grid again.
    static let committedOutputErrorStatus: Int32 = 3

    /// `the change was made and committed (grid 'default' is at revision 12)`.
    private static func committedMessage(_ committed: String) -> String {
        "the change was made and committed (\(singleLine(committed)))"
    }

    /// Runs the command line, collecting its output in `console`.
    static func run(_ arguments: [String], console: Console) -> Int32 {
        do {
            try dispatch(arguments, console: console)
            return 0
        } catch {
            let failure = CommandLineErrorTranslator.translate(error, command: nil)
            report(failure, to: console)
            return failure.exitStatus
        }
    }

    private static func dispatch(_ arguments: [String], console: Console) throws {
        let (name, rest) = ArgumentScanner.splitCommand(arguments)
        guard let name else {
            if rest.contains("--version") {
                console.write("gridstore \(version)\n")
                return
            }
            if rest.isEmpty || rest.contains("--help") || rest.contains("-h") {
                console.write(topLevelHelp(width: helpWidth(console)))
                return
            }
            if let unknown = rest.first(where: { ArgumentScanner.isOption($0) && !isGlobalOption($0) }) {
                throw CommandLineError.usage("unknown option '\(unknown)'; see the options below")
            }
            // `gridstore --db`: the option's value is missing, not the command.
            if let last = rest.last, ["--db", "--grid"].contains(last) {
                throw CommandLineError.usage(last == "--db" ? "--db needs a value: a database file or a postgresql:// URI"
                                                            : "--grid needs a value: a grid's name")
            }
            // `gridstore --grid show`: the option took the command as its value.
            let names = commands.map { $0.spec.name }
            if let index = rest.firstIndex(where: { names.contains($0) }), index > 0,
               ArgumentScanner.isOption(rest[index - 1]) {
                let option = rest[index - 1]
                throw CommandLineError.usage("missing command: \(option) took '\(rest[index])' as its value; give "
                                             + "\(option) a value first, as in 'gridstore \(option) <value> \(rest[index])'")
            }
            throw CommandLineError.usage("missing command; give one of \(commandNames)")
        }
        if name == "help" {
            try printHelp(for: rest, console: console)
            return
        }
        guard let command = commands.first(where: { $0.spec.name == name }) else {
            // `gridstore --format json show`: a command's option given before the command.
            if let position = arguments.firstIndex(of: name), position > 0, ArgumentScanner.isOption(arguments[position - 1]),
               let after = rest.first(where: { token in commands.contains { $0.spec.name == token } }) {
                let option = arguments[position - 1]
                throw CommandLineError.usage("unknown command '\(ValueParser.abbreviated(name))': \(option) is an option of the "
                                             + "command; give it after the command, as in 'gridstore \(after) \(option) "
                                             + "\(ValueParser.abbreviated(name))'")
            }
            if let close = Suggestion.closest(to: name, among: commands.map { $0.spec.name }) {
                throw CommandLineError.usage("unknown command '\(ValueParser.abbreviated(name))'; did you mean '\(close)'?")
            }
            throw CommandLineError.usage("unknown command '\(ValueParser.abbreviated(name))'; give one of \(commandNames)")
        }
        let parsed = try ArgumentScanner.parse(rest, for: command.spec)
        if parsed.wantsHelp {
            console.write(command.spec.help(width: helpWidth(console)))
            return
        }
        let instance = try command.init(parsing: parsed)
        let context = CommandContext(console: console, global: parsed.global, command: (name, rest))
        do {
            try instance.run(in: context)
            if let note = context.createdDatabaseNote { console.writeError(note) }
        } catch {
            if case GridError.gridNotFound(let missing) = error { throw context.missingGrid(missing) }
            if case GridError.keyNotFound(let key, let grid) = error, let close = context.closeKey(to: key, inGrid: grid) {
                throw CommandLineError.usage("\(error); did you mean '\(CommandLineOutput.printable(close))'?", command: command.spec)
            }
            throw CommandLineErrorTranslator.translate(error, command: command.spec)
        }
    }

    private static func printHelp(for topics: [String], console: Console) throws {
        guard let topic = ArgumentScanner.splitCommand(topics).name else {
            console.write(topLevelHelp(width: helpWidth(console)))
            return
        }
        guard let command = commands.first(where: { $0.spec.name == topic }) else {
            if let close = Suggestion.closest(to: topic, among: commands.map { $0.spec.name }) {
                throw CommandLineError.usage("no help for '\(ValueParser.abbreviated(topic))'; did you mean '\(close)'?")
            }
            throw CommandLineError.usage("no help for '\(ValueParser.abbreviated(topic))'; give one of \(commandNames)")
        }
        console.write(command.spec.help(width: helpWidth(console)))
    }

    /// How wide help and usage lines may be: `$COLUMNS`, else the terminal's, else 80.
    static func helpWidth(_ console: Console) -> Int {
        TerminalWidth.current(environment: console.environment)
    }

    /// The command as typed, for the history: without `--db`, `--grid`, `--format` and
    /// `--quiet`, each word quoted for a shell where it needs it.
    static func operationText(name: String, _ tokens: [String]) -> String {
        // Built by appending: `[String].joined(separator:)` costs every change 120,000
        // instructions of generic code the first time.
        var text = name
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            let option = ArgumentScanner.isOption(token) ? ArgumentScanner.optionName(token) : nil
            if let option, ["db", "grid", "format"].contains(option) {
                if !token.utf8.contains(UInt8(ascii: "=")) { index += 1 }
                continue
            }
            if option == "quiet" || token == "-q" { continue }
            text += " "
            text += ShellWord.quoted(token)
        }
        return text
    }

    private static func isGlobalOption(_ token: String) -> Bool {
        let name = ArgumentScanner.optionName(token)
        return ["db", "grid", "help", "h", "version"].contains(name)
    }

    static var commandNames: String {
        commands.map { $0.spec.name }.joined(separator: ", ")
    }

    /// The help `gridstore --help` prints, every line within `width` columns (at least 40 are used).
    static func topLevelHelp(width: Int) -> String {
        let width = max(40, width)
        var text = HelpFormatter.wrap("OVERVIEW: Keep a tile grid's state in SQLite and pack its tiles after every change.", width: width)
            .joined(separator: "\n") + "\n\n"
        text += HelpFormatter.wrapParts(["gridstore", "[--db <path>]", "[--grid <name>]", "<command>", "[<arguments>]"],
                                        label: "USAGE: ", leading: 1, width: width)
        text += "\n\nOPTIONS:\n"
        text += HelpFormatter.rows(GlobalOptions.specs(includingGrid: true).map { ($0.synopsis, $0.help) } + [
            ("--version", "Show the version."),
            ("-h, --help", "Show help information."),
        ], width: width)
        text += "\nSUBCOMMANDS:\n"
        text += HelpFormatter.rows(commands.map { ($0.spec.name, $0.spec.abstract) }, width: width)
        text += "\n  " + HelpFormatter.wrap("See 'gridstore help <subcommand>' for detailed help.", width: width - 2)
            .joined(separator: "\n  ") + "\n"
        return text
    }

    /// Prints `Error: <message>`, and for usage errors the usage line and where to find help.
    static func report(_ failure: CommandLineError, to console: Console) {
        if case .interrupted = failure.kind { return }
        console.writeError("Error: \(singleLine(failure.message))\n")
        guard failure.kind == .usage, failure.printsUsage else { return }
        let width = max(40, helpWidth(console))
        if let command = failure.command {
            console.writeError(command.usage(label: "Usage: ", width: width) + "\n")
            console.writeError("See 'gridstore \(command.name) --help'.\n")
        } else {
            console.writeError("Usage: \(usage)\n")
            console.writeError("See 'gridstore --help'.\n")
        }
    }

    /// Escapes control characters (C0, C1, DEL and bidirectional controls, see
    /// `GridLimits.isControlCharacter`) so a message stays on one line and cannot drive the
    /// terminal, whatever text it quotes.
    static func singleLine(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where GridLimits.isControlCharacter(scalar):
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
