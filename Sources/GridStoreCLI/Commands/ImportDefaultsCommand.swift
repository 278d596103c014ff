import GridLayout
import GridStore

/// `gridstore import-defaults <plist>`: brings the sizes saved by the original iOS layout along.
struct ImportDefaultsCommand: GridStoreCommand {
    static let items = CommandSpec.Option(
        name: "items", valueName: "N[,N…]",
        help: "The app's item count, for every section or one per section: keys past it are dropped.")

    static let spec = CommandSpec(
        name: "import-defaults",
        abstract: "Import tile sizes from the original iOS layout's UserDefaults property list.",
        discussion: """
            Reads keys r:<row>_s:<section>_grid_item_size whose values are grid_size_small, grid_size_middle
            or grid_size_big from a property list, XML or binary (an app's preferences file), and sets those
            sizes in the grid, adding sections and items where the list has more. Other keys are ignored; a
            size key with an unusable value is skipped with a warning. The original app never deleted keys,
            so old files hold sizes of items that no longer exist: --items drops the keys past the app's item
            count. One transaction: all or nothing.
            """,
        arguments: [.init(name: "plist", help: "The property list (a UserDefaults domain), or - for standard input.")],
        options: [items, QuietOption.option])

    let source: String
    let quiet: Bool
    /// `--items`: one count for every section, or a count per section.
    let itemCounts: [Int]?

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        source = arguments.positionals[0]
        quiet = arguments.flag(QuietOption.option)
        itemCounts = try arguments.value(Self.items).map { text throws(CommandLineError) in
            var counts: [Int] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                counts.append(try ValueParser.integer(String(part), name: "--items", in: 0...GridLimits.maximumItems, command: Self.spec))
            }
            return counts
        }
    }

    func run(in context: CommandContext) throws {
        let name = InputFile.displayName(source)
        let defaults: LegacyDefaults
        do {
            defaults = try LegacyDefaults(propertyList: try InputFile.read(source), itemCounts: itemCounts)
        } catch let error as LegacyDefaultsError {
            throw CommandLineError.badInput("\(name) is \(error.reason)")
        }
        for key in defaults.skippedKeys {
            context.console.writeError("warning: \(name): skipped \(CommandLineOutput.printable(key)): its value is not "
                                       + "grid_size_small, grid_size_middle or grid_size_big\n")
        }
        var notes: [String] = []
        let snapshot: GridSnapshot
        do {
            snapshot = try context.update { editor in notes = try defaults.apply(to: &editor) }
        } catch let error as GridError {
            // A honeycomb has no sizes: said as for any command, with what to type instead.
            if case .notTiles = error { throw error }
            throw CommandLineError.badInput("\(name) cannot be imported: \(error)")
        }
        var summary = "imported \(defaults.sizes.count) size(s) into grid '\(CommandLineOutput.printable(snapshot.name))' "
            + "(revision \(snapshot.revision))"
        if defaults.otherKeyCount > 0 { summary += "; ignored \(defaults.otherKeyCount) other key(s)" }
        if defaults.droppedKeyCount > 0 { summary += "; dropped \(defaults.droppedKeyCount) key(s) past --items" }
        if !notes.isEmpty { summary += "; " + notes.joined(separator: ", ") }
        if !quiet { context.console.write(summary + "\n") }
    }
}
