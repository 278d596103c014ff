import GridStore
import GridStorePostgreSQL

/// `gridstore copy <from-db> <to-db> [--grid NAME] [--force] [--no-history]`.
struct CopyCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "copy",
        abstract: "Copy every grid, or one, from one database to another, keeping revisions.",
        discussion: """
            Either database may be an SQLite file or a postgresql:// URI: this is how grids move from the
            embedded file to a server and back. The target gets every grid or none (one transaction); a grid
            the target already has is refused unless --force replaces it. A missing target file is created.
            Each grid's kept history comes along, with its times and retention, so undo, show --at and revert
            work on the copy; --no-history copies the grids alone. A database is never copied onto itself
            (the same file by another path, or the same PostgreSQL database by another URI).
            """,
        arguments: [
            .init(name: "from-db", help: "The database to copy from: a file or a postgresql:// URI."),
            .init(name: "to-db", help: "The database to copy to: a file or a postgresql:// URI."),
        ],
        options: [force, noHistory, QuietOption.option])

    /// `--force`.
    static let force = CommandSpec.Option(name: "force", help: "Replace grids of the same name in the target.")

    /// `--no-history`.
    static let noHistory = CommandSpec.Option(name: "no-history", help: "Copy the grids without their history.")

    let source: DatabaseArgument
    let target: DatabaseArgument
    let replacing: Bool
    let history: Bool
    let quiet: Bool

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        source = try DatabaseArgument(arguments.positionals[0], from: "<from-db>", command: Self.spec)
        target = try DatabaseArgument(arguments.positionals[1], from: "<to-db>", command: Self.spec)
        replacing = arguments.flag(Self.force)
        history = !arguments.flag(Self.noHistory)
        quiet = arguments.flag(QuietOption.option)
    }

    func run(in context: CommandContext) throws {
        guard try source.exists() else {
            throw CommandLineError.failure("\(CommandLineOutput.printable(source.location)) does not exist")
        }
        let from = try source.open()
        // A grid the source lacks is refused before a missing target file is created.
        if let name = context.explicitGridName, try !Grid.exists(named: name, in: from) {
            throw GridError.gridNotFound(name)
        }
        // A missing target file is made when the copy commits: a copy refused, or killed, makes none.
        let to = try target.open(creatingOnFirstChange: true)
        let copied = try Grid.copy(from: from, to: to, names: context.explicitGridName.map { [$0] }, replacing: replacing,
                                   history: history)
        context.noteCommitted("\(copied.count) grid(s) copied to \(to.location)")
        if quiet { return }
        let list = copied.map { "\(CommandLineOutput.printable($0.name)) (revision \($0.revision))" }.joined(separator: ", ")
        context.console.write("copied \(copied.count) grid(s) from \(CommandLineOutput.printable(from.location)) "
                              + "to \(CommandLineOutput.printable(to.location))"
                              + (copied.isEmpty ? "\n" : ": \(list)\n"))
    }
}
