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
        parsed.acceptedNames = spec.acceptedOptions.map(\.name)
        var seen: [String] = []
        var index = 0
        var onlyPositionals = false
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if onlyPositionals || !isOption(token) {
                parsed.positionals.append(token)
            } else if token == "--" {
                onlyPositionals = true
            } else {
                let option = try acceptedOption(token, for: spec)
                guard !seen.contains(option.name) else {
                    throw .usage("option '--\(option.name)' is given more than once; give it once", command: spec)
                }
                seen.append(option.name)
                try read(option, token: token, tokens: tokens, index: &index, into: &parsed, for: spec)
            }
        }
        try checkPositionals(parsed, for: spec)
        return parsed
    }

    /// The option `token` names (`--name`, `--name=value` or a short `-x`).
    ///
    /// - Throws: A usage error naming the closest option, or those accepted.
    private static func acceptedOption(_ token: String, for spec: CommandSpec) throws(CommandLineError) -> CommandSpec.Option {
        let accepted = spec.acceptedOptions
        let short = token.count == 2 ? accepted.first { $0.shortName == token.last } : nil
        let name = short?.name ?? optionName(token)
        if let option = short ?? accepted.first(where: { $0.name == name }), short != nil || token.hasPrefix("--") {
            return option
        }
        if let close = Suggestion.closest(to: name, among: accepted.map(\.name)) {
            throw .usage("unknown option '\(token)'; did you mean '--\(close)'?", command: spec)
        }
        let valid = accepted.map { "--" + $0.name }.joined(separator: ", ")
        let listing = "unknown option '\(token)'; '\(spec.name)' accepts \(valid)"
        // Within 80 columns with its `Error: `; a longer list is the usage printed below it, wrapped.
        if listing.count + 7 <= 80 { throw .usage(listing, command: spec) }
        throw .usage("unknown option '\(ValueParser.abbreviated(token))'; the usage below lists the options '\(spec.name)' accepts",
                     command: spec)
    }

    /// Records `option`: a flag, or its value (after `=`, or the next token, which `index` then passes).
    private static func read(_ option: CommandSpec.Option, token: String, tokens: [String], index: inout Int,
                             into parsed: inout ParsedArguments, for spec: CommandSpec) throws(CommandLineError) {
        let inlineValue = token.firstIndex(of: "=").map { String(token[token.index(after: $0)...]) }
        if option.isFlag {
            if inlineValue != nil { throw .usage("option '--\(option.name)' takes no value", command: spec) }
            if !parsed.flags.contains(option.name) { parsed.flags.append(option.name) }
            return
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
        switch option.name {
        case GlobalOptions.database.name:
            guard !value.isEmpty else {
                throw .usage("--db needs a database file or a postgresql:// URI, not an empty value", command: spec)
            }
            parsed.global.databasePath = value
        case GlobalOptions.grid.name: parsed.global.gridName = value
        default: parsed.values[option.name] = value
        }
    }

    /// Refuses too few or too many positional arguments.
    private static func checkPositionals(_ parsed: ParsedArguments, for spec: CommandSpec) throws(CommandLineError) {
        // An argument whose option was given is not expected (`toggle --key mail` has no <index>).
        let arguments = spec.arguments.filter { argument in
            argument.replacedBy.map { parsed.values[$0] == nil } ?? true
        }
        let required = arguments.filter { !$0.isOptional && !$0.isRepeating }.count
        if parsed.positionals.count < required {
            let missing = arguments[parsed.positionals.count]
            let instead = missing.replacedBy.map { " (or --\($0))" } ?? ""
            throw .usage("missing <\(missing.name)>\(instead): \(lowercasedFirst(missing.help))", command: spec)
        }
        if parsed.positionals.count > arguments.count, arguments.last?.isRepeating != true {
            let extra = parsed.positionals[arguments.count]
            throw .usage("unexpected argument '\(extra)'", command: spec)
        }
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
