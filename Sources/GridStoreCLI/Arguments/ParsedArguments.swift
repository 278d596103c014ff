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
