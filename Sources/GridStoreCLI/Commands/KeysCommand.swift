import GridLayout
import GridStore

/// `gridstore keys [--section S] [KEY ...]`: lists the items' keys, or makes a section exactly
/// the items with the keys given.
struct KeysCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "keys",
        abstract: "List the items' keys, or make a section exactly the items with the keys given.",
        discussion: """
            With keys, the section holds exactly those items, in that order, as one change: an item whose key the
            section holds already keeps its size, a new key gets an item of the default size, and the section's
            other items (those with another key or none) are removed. A key names one item of its grid: a key
            that an item of another section has is refused. Without keys, the keys are listed: 'index key' per
            item that has one; with --format json {"grid":"default","sections":[{"section":0,"keys":["mail",null]}]},
            one entry per item. Put -- before keys that start with a dash.
            """,
        arguments: [.init(name: "key", help: "The section's items' keys, in order (1 to 255 characters each).",
                          isRepeating: true)],
        options: [SharedOptions.section] + ChangeOutput.options)

    let keys: [String]
    let section: Int?
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        keys = arguments.positionals
        output = try ChangeOutput(arguments, command: Self.spec)
        section = arguments.value(SharedOptions.section) == nil ? nil : try arguments.section(for: Self.spec)
        if keys.isEmpty && output == .quiet { throw .usage("--quiet goes with keys to set", command: Self.spec) }
        for key in keys {
            do {
                try GridLimits.validate(key: GridLimits.canonical(key))
            } catch {
                throw .usage(error.description, command: Self.spec)
            }
        }
    }

    func run(in context: CommandContext) throws {
        guard keys.isEmpty else {
            let section = section ?? 0
            try context.edit(focus: GridIndexPath(item: 0, section: section), output: output) {
                try $0.setItems(keys: keys, inSection: section)
            }
            return
        }
        let snapshot = try context.existingSnapshot()
        if let section { _ = try snapshot.keys(inSection: section) }
        let sections = section.map { [$0] } ?? Array(snapshot.itemCounts.indices)
        context.console.write(output == .json ? Self.json(snapshot, sections: sections) : Self.text(snapshot, sections: sections))
    }

    /// `index key` per item with a key, under `section N:` when the grid has several sections.
    static func text(_ snapshot: GridSnapshot, sections: [Int]) -> String {
        var text = ""
        for section in sections {
            let keys = (try? snapshot.keys(inSection: section)) ?? []
            if snapshot.itemCounts.count > 1 { text += "section \(section):\n" }
            let keyed = keys.enumerated().compactMap { item, key in key.map { (item, $0) } }
            if keyed.isEmpty { text += "(no keys)\n" }
            let width = String(keys.count - 1).count
            for (item, key) in keyed {
                text += String(repeating: " ", count: width - String(item).count) + "\(item) \(key)\n"
            }
        }
        return text
    }

    /// `{"grid":"default","sections":[{"section":0,"keys":["mail",null]}]}`.
    static func json(_ snapshot: GridSnapshot, sections: [Int]) -> String {
        JSONOutput.text(Keys(grid: snapshot.name, sections: sections.map { section in
            Keys.Section(section: section, keys: (try? snapshot.keys(inSection: section)) ?? [])
        }))
    }

    /// What `keys --format json` prints.
    private struct Keys: Encodable {
        struct Section: Encodable {
            let section: Int
            let keys: [String?]
        }
        let grid: String
        let sections: [Section]
    }
}
