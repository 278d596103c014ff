// The options that choose what a command prints: `--format` and `--quiet`.

/// What a command that changes a grid prints when it succeeds: the re-packed grid as text,
/// the grid's JSON document (as `show --format json` writes it), or nothing.
enum ChangeOutput: Equatable {
    case text, json, quiet

    /// `--format text|json`.
    static let formatOption = CommandSpec.Option(
        name: "format", valueName: "text|json",
        help: "Print the changed grid as text (the default) or as the JSON of show --format json.")

    /// `--quiet`, `-q`.
    static let quietOption = CommandSpec.Option(name: "quiet", help: "Print nothing on success.", shortName: "q")

    /// The options of every command that changes a grid and then prints it.
    static let options: [CommandSpec.Option] = [formatOption, quietOption]

    /// Reads `--format` and `--quiet`.
    init(_ arguments: ParsedArguments, command: CommandSpec) throws(CommandLineError) {
        let quiet = arguments.flag(Self.quietOption)
        guard let text = arguments.value(Self.formatOption) else {
            self = quiet ? .quiet : .text
            return
        }
        if quiet { throw .usage("give --quiet or --format, not both", command: command) }
        self = try ValueParser.choice(text, name: "--format", choices: [("text", .text), ("json", .json)], command: command)
    }
}

/// How a command that only reads prints its values: as text for people, or as JSON for scripts.
enum ValueFormat: String, CaseIterable, Equatable {
    case text, json

    /// `--format text|json`.
    static let option = CommandSpec.Option(name: "format", valueName: "text|json", help: "text (the default) or json.")

    /// Reads `--format`.
    init(_ arguments: ParsedArguments, command: CommandSpec) throws(CommandLineError) {
        self = try arguments.choice(Self.option, default: ValueFormat.text, for: command)
    }
}

/// `--quiet` for commands that report what they did in a sentence.
enum QuietOption {
    /// `--quiet`, `-q`.
    static let option = ChangeOutput.quietOption
}
