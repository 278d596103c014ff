/// The bash completion script (`complete -F _gridstore gridstore`).
struct BashCompletionScript {
    let model: CompletionModel

    var text: String {
        """
        # bash completion for gridstore; install with:
        #   gridstore completions bash > ~/.local/share/bash-completion/completions/gridstore
        _gridstore() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
            local command="" i
            local -a db=()
            for ((i = 1; i < COMP_CWORD; i++)); do
                case ${COMP_WORDS[i]} in
                    --db) db=(--db "${COMP_WORDS[i+1]/#\\~/$HOME}"); ((i++)) ;;
                    --grid) ((i++)) ;;
                    -*) ;;
                    *) [[ -z $command ]] && command=${COMP_WORDS[i]} ;;
                esac
            done
            local IFS=$'\\n'
            case "$command:$prev" in
        \(valueCases)    esac
            if [[ $cur == -* ]]; then
                case $command in
        \(optionCases)        esac
            elif [[ -z $command ]]; then
                COMPREPLY=($(compgen -W \(words(model.commandNames)) -- "$cur"))
            else
                case $command in
        \(positionalCases)        esac
            fi
        }
        complete -F _gridstore gridstore

        """
    }

    /// `$'a\nb'`: words for `compgen -W`, split at newlines.
    private func words(_ words: [String]) -> String {
        "$'" + words.joined(separator: "\\n") + "'"
    }

    /// `COMPREPLY=(…)` for `values`.
    private func reply(_ values: CompletionModel.Values) -> String {
        switch values {
        case .words(let list): "COMPREPLY=($(compgen -W \(words(list)) -- \"$cur\"))"
        case .gridNames: "COMPREPLY=($(compgen -W \"$(gridstore \"${db[@]}\" grids --names 2>/dev/null)\" -- \"$cur\"))"
        case .files: "COMPREPLY=($(compgen -f -- \"$cur\"))"
        case .free: "COMPREPLY=()"
        }
    }

    /// One case per option that takes a value, after which the value is completed.
    private var valueCases: String {
        model.valueOptions.map { "        \($0.command ?? "*"):--\($0.option.name)) \(reply($0.values)); return ;;\n" }.joined()
    }

    private var optionCases: String {
        var cases = ""
        for command in model.commands {
            let names = (command.acceptedOptions.map { "--" + $0.name }) + ["--help"]
            cases += "            \(command.name)) COMPREPLY=($(compgen -W \(words(names)) -- \"$cur\")) ;;\n"
        }
        let global = model.globalOptions.map { "--" + $0.name } + ["--help", "--version"]
        return cases + "            *) COMPREPLY=($(compgen -W \(words(global)) -- \"$cur\")) ;;\n"
    }

    private var positionalCases: String {
        var cases = ""
        for command in model.commands where model.positionalValues(of: command) != .free {
            cases += "            \(command.name)) \(reply(model.positionalValues(of: command))) ;;\n"
        }
        return cases + "            help) \(reply(.words(model.commands.map(\.name)))) ;;\n"
    }
}
