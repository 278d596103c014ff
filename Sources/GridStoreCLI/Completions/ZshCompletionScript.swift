/// The zsh completion script: an autoloadable `_gridstore` (in a folder of `fpath`), or one
/// to `source` after `compinit`.
struct ZshCompletionScript {
    let model: CompletionModel

    var text: String {
        """
        #compdef gridstore
        # zsh completion for gridstore; install with:
        #   gridstore completions zsh > ~/.zfunc/_gridstore   (with fpath=(~/.zfunc $fpath) before compinit)
        _gridstore() {
            local -a commands=(
        \(describedCommands)    )
            local command="" i
            local -a db=()
            for ((i = 2; i < CURRENT; i++)); do
                case $words[i] in
                    --db) db=(--db "${~words[i+1]}"); ((i++)) ;;
                    --grid) ((i++)) ;;
                    -*) ;;
                    *) [[ -z $command ]] && command=$words[i] ;;
                esac
            done
            local -a values
            case "$command:$words[CURRENT-1]" in
        \(valueCases)    esac
            if [[ $PREFIX == -* ]]; then
                local -a options
                case $command in
        \(optionCases)        esac
                _describe -t options option options
            elif [[ -z $command ]]; then
                _describe -t commands command commands
            else
                case $command in
        \(positionalCases)        esac
            fi
        }
        if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
            _gridstore "$@"
        else
            compdef _gridstore gridstore
        fi

        """
    }

    /// `'name:description'`, for `_describe`.
    private func described(_ name: String, _ help: String) -> String {
        ShellWord.quoted(name.replacing(":", with: "\\:") + ":" + help)
    }

    private var describedCommands: String {
        model.commands.map { "        \(described($0.name, $0.abstract))\n" }.joined()
            + "        \(described("help", "Show help for a command."))\n"
    }

    /// The completion of `values`.
    private func complete(_ values: CompletionModel.Values) -> String {
        switch values {
        case .words(let list): "compadd -- \(list.map(ShellWord.quoted).joined(separator: " "))"
        case .gridNames: "values=(${(f)\"$(gridstore $db grids --names 2>/dev/null)\"}); compadd -a values"
        case .files: "_files"
        case .free: ":"
        }
    }

    private var valueCases: String {
        model.valueOptions.map { "        \($0.command ?? "*"):--\($0.option.name)) \(complete($0.values)); return ;;\n" }.joined()
    }

    private var optionCases: String {
        var cases = ""
        for command in model.commands {
            let options = command.acceptedOptions.map { described("--" + $0.name, $0.help) } + [described("--help", "Show help.")]
            cases += "            \(command.name)) options=(\(options.joined(separator: " "))) ;;\n"
        }
        let global = model.globalOptions.map { described("--" + $0.name, $0.help) }
            + [described("--help", "Show help."), described("--version", "Show the version.")]
        return cases + "            *) options=(\(global.joined(separator: " "))) ;;\n"
    }

    private var positionalCases: String {
        var cases = ""
        for command in model.commands where model.positionalValues(of: command) != .free {
            cases += "            \(command.name)) \(complete(model.positionalValues(of: command))) ;;\n"
        }
        return cases + "            help) \(complete(.words(model.commands.map(\.name)))) ;;\n"
    }
}
