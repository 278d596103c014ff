/// A command's arguments after scanning: positional values, option values and flags.
struct ParsedArguments: Equatable {
    /// The positional arguments, in order.
    var positionals: [String] = []
    /// The values of options that take one, by option name.
    var values: [String: String] = [:]
    /// The flags that were given, by name.
    var flags: Set<String> = []
    /// `--db` and `--grid`.
    var global = GlobalOptions()
    /// Whether `-h` or `--help` was given.
    var wantsHelp = false
    /// The names of the options the command accepts: asking for another is a programming error.
    var acceptedNames: Set<String> = []

    /// The value of the option `name`, if given.
    func value(_ name: String) -> String? {
        assert(acceptedNames.isEmpty || acceptedNames.contains(name), "--\(name) is not an option of this command")
        return values[name]
    }

    /// The value of `option`, if given.
    func value(_ option: CommandSpec.Option) -> String? { value(option.name) }

    /// Whether the flag `name` was given.
    func flag(_ name: String) -> Bool {
        assert(acceptedNames.isEmpty || acceptedNames.contains(name), "--\(name) is not an option of this command")
        return flags.contains(name)
    }

    /// Whether the flag `option` was given.
    func flag(_ option: CommandSpec.Option) -> Bool { flag(option.name) }

    /// The positional argument at `index`, if given.
    func positional(_ index: Int) -> String? {
        index < positionals.count ? positionals[index] : nil
    }
}

/// Splits a command line into the command's name and its arguments.
enum ArgumentScanner {
    /// The command's name (the first token that is neither an option nor a global option's
    /// value) and every other token, in order.
    static func splitCommand(_ tokens: [String]) -> (name: String?, rest: [String]) {
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if token == "--" { break }
            if isOption(token) {
                let name = optionName(token)
                let takesValue = GlobalOptions.specs(includingGrid: true).contains { $0.name == name && !$0.isFlag }
                index += (takesValue && !token.contains("=")) ? 2 : 1
                continue
            }
            var rest = tokens
            rest.remove(at: index)
            return (token, rest)
        }
        return (nil, tokens)
    }

    /// Scans `tokens` against what `spec` accepts.
    ///
    /// - Throws: A usage error for an unknown option, an option without its value, an
    ///   option given twice, or a wrong number of positional arguments. When `--help`
    ///   is present no other check is made.
    static func parse(_ tokens: [String], for spec: CommandSpec) throws(CommandLineError) -> ParsedArguments {
        var parsed = ParsedArguments()
        if tokens.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            parsed.wantsHelp = true
            return parsed
        }
        let accepted = spec.acceptedOptions
        parsed.acceptedNames = Set(accepted.map(\.name))
        var seen: Set<String> = []
        var index = 0
        var onlyPositionals = false
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if onlyPositionals || !isOption(token) {
                parsed.positionals.append(token)
                continue
            }
            if token == "--" {
                onlyPositionals = true
                continue
            }
            let short = token.count == 2 ? accepted.first { $0.shortName == token.last } : nil
            let name = short?.name ?? optionName(token)
            guard let option = short ?? accepted.first(where: { $0.name == name }), short != nil || token.hasPrefix("--") else {
                if let close = Suggestion.closest(to: name, among: accepted.map(\.name)) {
                    throw .usage("unknown option '\(token)'; did you mean '--\(close)'?", command: spec)
                }
                let valid = accepted.map { "--" + $0.name }.joined(separator: ", ")
                throw .usage("unknown option '\(token)'; '\(spec.name)' accepts \(valid)", command: spec)
            }
            guard seen.insert(name).inserted else {
                throw .usage("option '--\(name)' is given more than once; give it once", command: spec)
            }
            var inlineValue: String?
            if let equals = token.firstIndex(of: "=") {
                inlineValue = String(token[token.index(after: equals)...])
            }
            if option.isFlag {
                if inlineValue != nil {
                    throw .usage("option '--\(name)' takes no value", command: spec)
                }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < tokens.count {
                value = tokens[index]
                index += 1
            } else {
                throw .usage("option '\(option.synopsis)' needs a value", command: spec)
            }
            switch name {
            case GlobalOptions.database.name:
                guard !value.isEmpty else {
                    throw .usage("--db needs a database file or a postgresql:// URI, not an empty value", command: spec)
                }
                parsed.global.databasePath = value
            case GlobalOptions.grid.name: parsed.global.gridName = value
            default: parsed.values[name] = value
            }
        }

        let required = spec.arguments.filter { !$0.isOptional }.count
        if parsed.positionals.count < required {
            let missing = spec.arguments[parsed.positionals.count]
            throw .usage("missing <\(missing.name)>: \(lowercasedFirst(missing.help))", command: spec)
        }
        if parsed.positionals.count > spec.arguments.count {
            let extra = parsed.positionals[spec.arguments.count]
            throw .usage("unexpected argument '\(extra)'", command: spec)
        }
        return parsed
    }

    /// Whether `token` looks like an option. `-` alone (standard input) and negative
    /// numbers are values.
    static func isOption(_ token: String) -> Bool {
        guard token.hasPrefix("-"), token != "-" else { return false }
        let second = token.dropFirst().first
        return !(second?.isNumber ?? false)
    }

    /// The option's name without dashes or an `=value` part.
    static func optionName(_ token: String) -> String {
        let name = token.drop(while: { $0 == "-" })
        return String(name.prefix(while: { $0 != "=" }))
    }

    private static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
