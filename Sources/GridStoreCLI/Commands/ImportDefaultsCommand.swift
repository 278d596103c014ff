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

    /// The item count `--items` gives `section`, if any: past the list, a section has none.
    private func itemLimit(ofSection section: Int) -> Int? {
        guard let itemCounts else { return nil }
        if itemCounts.count == 1 { return itemCounts[0] }
        return section < itemCounts.count ? itemCounts[section] : 0
    }

    /// The sizes the property list `bytes` holds, with the keys dropped and the values skipped.
    private func readSizes(_ bytes: [UInt8], name: String, console: Console)
        throws(CommandLineError) -> (sizes: [GridIndexPath: TileSize], ignored: Int, dropped: Int) {
        let root: PropertyListValue
        do {
            root = try PropertyListReader.read(bytes)
        } catch {
            throw .badInput("\(name) is not a valid property list: \(error)")
        }
        guard case .dictionary(let entries) = root else {
            throw .badInput("\(name) holds no dictionary of UserDefaults keys")
        }
        var sizes: [GridIndexPath: TileSize] = [:]
        var ignored = 0, dropped = 0
        for (key, value) in entries {
            guard let path = LegacySizeKey.indexPath(of: key) else {
                ignored += 1
                continue
            }
            guard case .string(let text) = value, let size = LegacySizeKey.size(named: text) else {
                console.writeError("warning: \(name): skipped \(CommandLineOutput.printable(key)): its value is not "
                                   + "grid_size_small, grid_size_middle or grid_size_big\n")
                continue
            }
            if let limit = itemLimit(ofSection: path.section), path.item >= limit {
                dropped += 1
                continue
            }
            sizes[path] = size
        }
        return (sizes, ignored, dropped)
    }

    func run(in context: CommandContext) throws {
        let name = InputFile.displayName(source)
        let (sizes, ignored, dropped) = try readSizes(try InputFile.read(source), name: name, console: context.console)
        var grown: [String] = []
        let snapshot: GridSnapshot
        do {
            snapshot = try context.update { editor in
                grown = []
                let needed = sizes.keys.reduce(into: [Int: Int]()) { $0[$1.section] = max($0[$1.section] ?? 0, $1.item + 1) }
                for (section, count) in needed.sorted(by: { $0.key < $1.key }) {
                    while editor.snapshot.itemCounts.count <= section {
                        try editor.appendSection(itemCount: 0)
                        grown.append("added section \(editor.snapshot.itemCounts.count - 1)")
                    }
                    if editor.snapshot.itemCounts[section] < count {
                        try editor.setItemCount(count, inSection: section)
                        grown.append("grew section \(section) to \(count) items")
                    }
                }
                try editor.setSizes(sizes.lazy.map { ($0.key, $0.value) })
            }
        } catch let error as GridError {
            throw CommandLineError.badInput("\(name) cannot be imported: \(error)")
        }
        var summary = "imported \(sizes.count) size(s) into grid '\(CommandLineOutput.printable(snapshot.name))' "
            + "(revision \(snapshot.revision))"
        if ignored > 0 { summary += "; ignored \(ignored) other key(s)" }
        if dropped > 0 { summary += "; dropped \(dropped) key(s) past --items" }
        if !grown.isEmpty { summary += "; " + grown.joined(separator: ", ") }
        if !quiet { context.console.write(summary + "\n") }
    }
}

/// The original iOS layout's `UserDefaults` keys and values.
enum LegacySizeKey {
    /// The index path of a key `r:<row>_s:<section>_grid_item_size`, or `nil` for other keys.
    static func indexPath(of key: String) -> GridIndexPath? {
        let prefix = "r:", middle = "_s:", suffix = "_grid_item_size"
        guard key.hasPrefix(prefix), key.hasSuffix(suffix) else { return nil }
        let body = key.dropFirst(prefix.count).dropLast(suffix.count)
        // The row is digits only, so the first underscore starts the section part.
        guard let underscore = body.firstIndex(of: "_"), body[underscore...].hasPrefix(middle) else { return nil }
        guard let row = wholeNumber(body[..<underscore]), let section = wholeNumber(body[underscore...].dropFirst(middle.count))
        else { return nil }
        return GridIndexPath(item: row, section: section)
    }

    /// The size named `grid_size_small`, `grid_size_middle` or `grid_size_big`.
    static func size(named value: String) -> TileSize? {
        guard value.hasPrefix("grid_size_") else { return nil }
        return TileSize(rawValue: String(value.dropFirst("grid_size_".count)))
    }

    private static func wholeNumber(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}
