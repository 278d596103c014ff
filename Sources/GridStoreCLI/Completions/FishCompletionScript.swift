/// The fish completion script: one `complete` line per command, option and value list.
struct FishCompletionScript {
    let model: CompletionModel

    var text: String {
        var lines = [
            "# fish completion for gridstore; install with:",
            "#   gridstore completions fish > ~/.config/fish/completions/gridstore.fish",
            "function __gridstore_grids",
            "    set -l tokens (commandline -opc)",
            "    set -l db",
            "    set -l index (contains -i -- --db $tokens)",
            "    and set db --db $tokens[(math $index + 1)]",
            "    gridstore $db grids --names 2>/dev/null",
            "end",
            "complete -c gridstore -f",
        ]
        let commands = model.commandNames.joined(separator: " ")
        for command in model.commands {
            lines.append("complete -c gridstore -n '__fish_use_subcommand' -a \(command.name) -d \(Self.quoted(command.abstract))")
        }
        lines.append("complete -c gridstore -n '__fish_use_subcommand' -a help -d 'Show help for a command.'")
        for option in model.globalOptions {
            lines.append("complete -c gridstore -l \(option.name)\(valueArguments(of: option)) -d \(Self.quoted(option.help))")
        }
        lines.append("complete -c gridstore -l version -d 'Show the version.'")
        for command in model.commands {
            let condition = "-n '__fish_seen_subcommand_from \(command.name)'"
            for option in command.options {
                let short = option.shortName.map { " -s \($0)" } ?? ""
                lines.append("complete -c gridstore \(condition) -l \(option.name)\(short)\(valueArguments(of: option)) "
                             + "-d \(Self.quoted(option.help))")
            }
            let positional = model.positionalValues(of: command)
            if positional != .free {
                lines.append("complete -c gridstore \(condition)\(arguments(positional))")
            }
        }
        lines.append("complete -c gridstore -n '__fish_seen_subcommand_from help' -a '\(commands)'")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `-x -a '…'` (or `-r -F` for files) for an option's value.
    private func valueArguments(of option: CommandSpec.Option) -> String {
        option.isFlag ? "" : arguments(CompletionModel.values(of: option), exclusive: true)
    }

    private func arguments(_ values: CompletionModel.Values, exclusive: Bool = false) -> String {
        let flag = exclusive ? " -x" : ""
        switch values {
        case .words(let list): return "\(flag) -a \(Self.quoted(list.joined(separator: " ")))"
        case .gridNames: return "\(flag) -a '(__gridstore_grids)'"
        case .files: return " -r -F"
        case .free: return exclusive ? " -x" : ""
        }
    }

    /// `text` in fish's single quotes, where `\` and `'` are escaped.
    static func quoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
