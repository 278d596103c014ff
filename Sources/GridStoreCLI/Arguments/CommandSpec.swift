/// What a command accepts, and the source of its usage line and help text.
struct CommandSpec: Equatable {
    /// A positional argument.
    struct Argument: Equatable {
        /// The placeholder, shown as `<name>`.
        var name: String
        /// One line of help.
        var help: String
        /// Whether it may be left out.
        var isOptional = false
        /// An option that names the same thing instead (`--key` for `<index>`): when it is given,
        /// this argument is not.
        var replacedBy: String? = nil
        /// Whether it takes every remaining argument (zero or more of them).
        var isRepeating = false
    }

    /// A `--name` option, taking a value or standing alone as a flag.
    struct Option: Equatable {
        /// The long name, without dashes.
        var name: String
        /// The value placeholder, shown as `<value>`; `nil` for a flag.
        var valueName: String?
        /// One line of help.
        var help: String
        /// A one-letter form, `-q` for `--quiet`.
        var shortName: Character? = nil

        var isFlag: Bool { valueName == nil }

        /// `--name <value>` or `--name`, after `-x, ` when there is a short form.
        var synopsis: String {
            let long = valueName.map { "--\(name) <\($0)>" } ?? "--\(name)"
            return shortName.map { "-\($0), " + long } ?? long
        }

        /// `--name <value>` or `--name`, as the usage line shows it.
        var usageSynopsis: String {
            valueName.map { "--\(name) <\($0)>" } ?? "--\(name)"
        }
    }

    /// The command's name, as typed after `gridstore`.
    var name: String
    /// One line saying what the command does.
    var abstract: String
    /// More explanation for the help text.
    var discussion: String? = nil
    /// The positional arguments, in order.
    var arguments: [Argument] = []
    /// The command's own options (the global ones are added to every command).
    var options: [Option] = []
    /// Whether the command takes a grid with `--grid`.
    var usesGrid = true

    /// The options every command accepts.
    var acceptedOptions: [Option] {
        options + GlobalOptions.specs(includingGrid: usesGrid)
    }

    /// The usage line: `gridstore toggle (<index> | --key <KEY>) [--section <S>]`.
    var usage: String { usageParts.joined(separator: " ") }

    /// The usage line after `label` (`USAGE: `, `Usage: `), wrapped to `width` between its parts
    /// as swift-argument-parser wraps it: continuation lines start under the first argument.
    func usage(label: String, width: Int) -> String {
        HelpFormatter.wrapParts(usageParts, label: label, leading: 2, width: width)
    }

    /// `gridstore`, the name, then each argument and option as the usage line shows it.
    private var usageParts: [String] {
        var parts = ["gridstore", name]
        for argument in arguments {
            if argument.isRepeating {
                parts.append("[<\(argument.name)> ...]")
            } else if let replacement = argument.replacedBy, let option = options.first(where: { $0.name == replacement }) {
                parts.append("(<\(argument.name)> | \(option.usageSynopsis))")
            } else {
                parts.append(argument.isOptional ? "[<\(argument.name)>]" : "<\(argument.name)>")
            }
        }
        let replacements = Set(arguments.compactMap(\.replacedBy))
        for option in options where !replacements.contains(option.name) {
            parts.append("[\(option.usageSynopsis)]")
        }
        return parts
    }

    /// The full help text, in the layout of Swift's argument parser, every line within `width`
    /// columns (at least 40 are used).
    func help(width: Int) -> String {
        let width = max(40, width)
        var text = HelpFormatter.wrap("OVERVIEW: \(abstract)", width: width).joined(separator: "\n") + "\n"
        if let discussion {
            let paragraph = discussion.split(separator: "\n").joined(separator: " ")
            text += "\n" + HelpFormatter.wrap(paragraph, width: width).joined(separator: "\n") + "\n"
        }
        text += "\n" + usage(label: "USAGE: ", width: width) + "\n"
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            text += HelpFormatter.rows(arguments.map { ("<\($0.name)>", $0.help) }, width: width)
        }
        text += "\nOPTIONS:\n"
        text += HelpFormatter.rows(acceptedOptions.map { ($0.synopsis, $0.help) } + [("-h, --help", "Show help information.")],
                                   width: width)
        return text
    }
}
