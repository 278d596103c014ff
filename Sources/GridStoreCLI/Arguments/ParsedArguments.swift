/// A command's arguments after scanning: positional values, option values and flags.
struct ParsedArguments {
    /// The positional arguments, in order.
    var positionals: [String] = []
    /// The values of options that take one, by option name.
    var values: NamedValues = [:]
    /// The flags that were given, by name, each once (a list, for the reason ``NamedValues`` is one).
    var flags: [String] = []
    /// `--db` and `--grid`.
    var global = GlobalOptions()
    /// Whether `-h` or `--help` was given.
    var wantsHelp = false
    /// The names of the options the command accepts: asking for another is a programming error.
    var acceptedNames: [String] = []

    /// The value of `option`, if given. Options are named by their spec's constants, so a
    /// misspelt name cannot compile; one the command does not accept stops a debug build.
    func value(_ option: CommandSpec.Option) -> String? {
        assert(acceptedNames.isEmpty || acceptedNames.contains(option.name), "--\(option.name) is not an option of this command")
        return values[option.name]
    }

    /// Whether the flag `option` was given.
    func flag(_ option: CommandSpec.Option) -> Bool {
        assert(acceptedNames.isEmpty || acceptedNames.contains(option.name), "--\(option.name) is not an option of this command")
        return flags.contains(option.name)
    }

    /// The positional argument at `index`, if given.
    func positional(_ index: Int) -> String? {
        index < positionals.count ? positionals[index] : nil
    }
}
