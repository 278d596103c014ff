import GridLayout
import GridStore

/// `gridstore grids`.
struct GridsCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "grids",
        abstract: "List the grids in the database.",
        usesGrid: false)

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {}

    func run(in context: CommandContext) throws {
        let summaries = try Grid.list(in: context.openExistingDatabase())
        guard !summaries.isEmpty else {
            context.console.write("no grids yet; 'gridstore init' creates one\n")
            return
        }
        let rows = [["NAME", "TYPE", "COLUMNS", "DIRECTION", "SECTIONS", "ITEMS", "REVISION", "UPDATED"]]
            + summaries.map { summary in
                [CommandLineOutput.printable(summary.name), summary.type?.rawValue ?? "custom", String(summary.columns),
                 summary.direction.rawValue, String(summary.sectionCount), String(summary.itemCount),
                 String(summary.revision), CommandLineOutput.printable(summary.updatedAt)]
            }
        context.console.write(CommandLineOutput.table(rows, rightAligned: [2, 4, 5, 6]))
    }
}

/// `gridstore drop <name>`.
struct DropCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "drop",
        abstract: "Delete a grid with its sections, sizes and placements.",
        arguments: [.init(name: "name", help: "The grid's name.")],
        usesGrid: false)

    let name: String

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        name = arguments.positionals[0]
    }

    func run(in context: CommandContext) throws {
        try Grid.drop(named: name, in: context.openExistingDatabase())
        context.console.write("dropped grid '\(CommandLineOutput.printable(name))'\n")
    }
}

/// Small helpers for tabular and one-line output.
enum CommandLineOutput {
    /// Rows as aligned columns separated by two spaces.
    static func table(_ rows: [[String]], rightAligned: Set<Int> = []) -> String {
        guard let first = rows.first else { return "" }
        let widths = first.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if column == row.count - 1 && !rightAligned.contains(column) { return cell }
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// A user's text with control characters escaped, so it cannot break a line or a table.
    static func printable(_ text: String) -> String {
        GridStoreCommandLine.singleLine(text)
    }
}
