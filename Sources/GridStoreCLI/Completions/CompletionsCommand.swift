/// `gridstore completions bash|zsh|fish`: prints a script that completes gridstore's commands,
/// options and option values in that shell.
struct CompletionsCommand: GridStoreCommand {
    enum Shell: String, CaseIterable {
        case bash, zsh, fish
    }

    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print a shell completion script for bash, zsh or fish.",
        discussion: """
            The script completes commands, options, and option values: sizes, types, directions, formats, and
            grid names read from the database (--db on the line, else the default). Install it with
            gridstore completions bash > ~/.local/share/bash-completion/completions/gridstore, or
            gridstore completions zsh > ~/.zfunc/_gridstore (with ~/.zfunc in fpath), or
            gridstore completions fish > ~/.config/fish/completions/gridstore.fish.
            """,
        arguments: [.init(name: "shell", help: "bash, zsh or fish.")],
        usesGrid: false)

    let shell: Shell

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        shell = try ValueParser.choice(arguments.positionals[0], name: "<shell>",
                                       choices: Shell.allCases.map { ($0.rawValue, $0) }, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        let model = CompletionModel(commands: GridStoreCommandLine.commands.map { $0.spec })
        switch shell {
        case .bash: context.console.write(BashCompletionScript(model: model).text)
        case .zsh: context.console.write(ZshCompletionScript(model: model).text)
        case .fish: context.console.write(FishCompletionScript(model: model).text)
        }
    }
}

/// What completes where, read from the commands' specs, for the scripts of every shell.
struct CompletionModel {
    /// What a value can be completed from.
    enum Values: Equatable {
        /// One of these words.
        case words([String])
        /// The grids of the database.
        case gridNames
        /// A file name.
        case files
        /// Anything (a number): nothing is offered.
        case free
    }

    let commands: [CommandSpec]

    /// The global options, accepted before the command.
    var globalOptions: [CommandSpec.Option] { GlobalOptions.specs(includingGrid: true) }

    /// The values of `option`.
    static func values(of option: CommandSpec.Option) -> Values {
        switch option.name {
        case "grid": return .gridNames
        case "db": return .files
        case "size", "default-size": return .words(["small", "middle", "big"])
        default:
            guard let valueName = option.valueName, valueName.contains("|") else { return .free }
            return .words(valueName.split(separator: "|").map(String.init))
        }
    }

    /// The values of `command`'s positional arguments.
    func positionalValues(of command: CommandSpec) -> Values {
        switch command.name {
        case "set": .words(["small", "middle", "big"])
        case "type": .words(["less", "more", "toggle"])
        case "direction": .words(["vertical", "horizontal"])
        case "sections": .words(["list", "add", "remove"])
        case "completions": .words(CompletionsCommand.Shell.allCases.map(\.rawValue))
        case "drop": .gridNames
        case "import", "import-defaults", "copy": .files
        default: .free
        }
    }

    /// Every command's name, `help` included.
    var commandNames: [String] { commands.map(\.name) + ["help"] }

    /// Every option that takes a value, with the command it belongs to (`nil` for the global
    /// ones, which every command accepts), and what completes its value.
    var valueOptions: [(command: String?, option: CommandSpec.Option, values: Values)] {
        globalOptions.filter { !$0.isFlag }.map { (nil, $0, Self.values(of: $0)) }
            + commands.flatMap { command in
                command.options.filter { !$0.isFlag }.map { (command.name, $0, Self.values(of: $0)) }
            }
    }
}
