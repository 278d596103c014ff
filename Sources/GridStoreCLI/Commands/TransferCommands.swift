import GridLayout
import GridStore

/// `gridstore export`.
struct ExportCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Write the grid as JSON to standard output (the format of show --format json).",
        discussion: """
            gridstore import reads it back; positions in it are recomputed on import. For a grid that syncs, each
            section and item carries its sync id and place ("sync"): imported into a database where the grid never
            synced, the grid syncs with this one's peers as the same tiles.
            """)

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {}

    func run(in context: CommandContext) throws {
        let grid = try Grid(named: context.gridName, in: context.openExistingDatabase(), creatingWith: GridOptions())
        // The identity names the revision it is of: a change between the two reads leaves it out.
        let identity = try grid.syncIdentity()
        context.console.write(GridDocument.encode(try grid.storedSnapshot(), syncIdentity: identity))
    }
}

/// `gridstore import <file|->`.
struct ImportCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "import",
        abstract: "Replace a grid's settings and sizes with a JSON document, creating the grid if missing.",
        discussion: """
            The document is what export writes. The grid is the one --grid names, else the document's
            "grid". Everything is checked before anything is written, and the import is one transaction.
            """,
        arguments: [.init(name: "file", help: "The JSON file, or - for standard input.")],
        options: [QuietOption.option])

    let source: String
    let quiet: Bool

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        source = arguments.positionals[0]
        quiet = arguments.flag(QuietOption.option)
    }

    func run(in context: CommandContext) throws {
        let progress = ProgressLine("importing \(InputFile.displayName(source))")
        defer { progress.finish() }
        progress.step("reading")
        let bytes = try InputFile.read(source)
        progress.step("checking \(PrintedNumber.count(bytes.count)) bytes")
        let decoded: GridDocument.Decoded
        do {
            decoded = try GridDocument.decode(bytes)
        } catch {
            // A UserDefaults suite, binary or XML, is read by import-defaults.
            let start = String(decoding: bytes.prefix(256), as: UTF8.self)
            if start.hasPrefix("bplist") || start.contains("<plist") || start.contains("<!DOCTYPE plist") {
                throw CommandLineError.badInput("\(InputFile.displayName(source)) is a property list, not a grid document; "
                                                + "'gridstore import-defaults \(CommandLineOutput.printable(source))' reads "
                                                + "the sizes a UserDefaults suite kept")
            }
            throw CommandLineError.badInput("\(InputFile.displayName(source)) is not a valid grid document: \(error)")
        }
        guard let name = (context.explicitGridName ?? decoded.name).map(GridLimits.canonical) else {
            throw CommandLineError.badInput("\(InputFile.displayName(source)) names no grid; add \"grid\" to it or give --grid")
        }
        progress.step("writing \(PrintedNumber.count(decoded.content.sections.reduce(0) { $0 + $1.count })) items")
        let snapshot: GridSnapshot
        do {
            try GridLimits.validate(name: name)
            // Checked before a missing database file is created, so a refused import leaves none.
            // The content, under the name it is stored as (`--grid` wins over the document's).
            var checked = decoded
            checked.name = name
            try checked.validate()
            let database = try context.openDatabase()
            let count = decoded.content.sections.reduce(0) { $0 + $1.count }
            snapshot = try Grid(named: name, in: database, creatingWith: GridOptions())
                .importDocument(decoded, operation: "import \(count) items")
        } catch let error as GridError {
            throw CommandLineError.badInput("\(InputFile.displayName(source)) cannot be imported: \(error)")
        }
        context.noteCommitted(snapshot)
        if quiet { return }
        context.console.write("imported \(snapshot.totalItemCount) item(s) in \(snapshot.layout.sections.count) section(s) "
                              + "into grid '\(CommandLineOutput.printable(name))' (revision \(snapshot.revision))\n")
    }
}
