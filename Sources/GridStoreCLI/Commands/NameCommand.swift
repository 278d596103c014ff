import GridStore

/// `gridstore name [NAME]`.
struct NameCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "name",
        abstract: "Print or set the name this database goes by on its peers (\"Anna's iPad\").",
        discussion: """
            Peers show the name with this database's changes: in conflicts, in a merge's history entry, and in
            JSON (gridstore sync-cursor --format json lists them). Until one is given, a database goes by the host
            name of the machine that first synced it. A name has 1 to 64 characters, one visible at least, and no
            control characters; it travels with each grid's next sync that moves a change, and is not a change of
            any grid.
            """,
        arguments: [.init(name: "name", help: "The new name; without it, the name is printed.", isOptional: true)])

    let name: String?

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        name = arguments.positionals.first
    }

    func run(in context: CommandContext) throws {
        guard let name else {
            let database = try context.openExistingDatabase()
            context.console.write(CommandLineOutput.printable(try database.replicaName() ?? "") + "\n")
            return
        }
        // Checked before the database is opened: a refused name migrates nothing.
        try GridLimits.validate(replicaName: GridLimits.canonical(name))
        let database = try context.openExistingDatabase(toChange: true)
        try database.setReplicaName(name)
        context.noteCommitted("the database is named '\(name)'")
        context.console.write("this database goes by '\(CommandLineOutput.printable(GridLimits.canonical(name)))' on its peers\n")
    }
}
