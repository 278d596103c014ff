import GridLayout
import GridStore

/// `gridstore sections [list | add [--items N] | remove <S>]`.
struct SectionsCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "sections",
        abstract: "List the grid's sections, add one at the end, or remove one.",
        discussion: "Removing a section removes its items; later sections move down by one.",
        arguments: [.init(name: "action", help: "list (the default), add or remove.", isOptional: true),
                    .init(name: "section", help: "For remove: the section, from 0.", isOptional: true)],
        options: [items] + ChangeOutput.options)

    /// `--items N`.
    static let items = CommandSpec.Option(name: "items", valueName: "N", help: "For add: the new section's item count (default: 12).")

    enum Action { case list, add(items: Int), remove(Int) }
    let action: Action
    let output: ChangeOutput

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let spec = Self.spec
        output = try ChangeOutput(arguments, command: spec)
        let name = arguments.positional(0) ?? "list"
        if name != "add" && arguments.value(Self.items) != nil {
            throw .usage("--items goes with 'sections add'", command: spec)
        }
        switch name {
        case "list", "add":
            if let extra = arguments.positional(1) { throw .usage("unexpected argument '\(ValueParser.abbreviated(extra))'", command: spec) }
            if name == "list" {
                if output == .quiet { throw .usage("--quiet goes with add or remove", command: spec) }
                action = .list
            } else {
                action = .add(items: try arguments.integer(Self.items, in: 0...GridLimits.maximumItems, default: 12, for: spec))
            }
        case "remove":
            guard arguments.positional(1) != nil else { throw .usage("missing <section>: the section to remove, from 0", command: spec) }
            action = .remove(try arguments.index(1, name: "section", for: spec))
        default:
            throw .usage("<action> must be one of list, add, remove, not '\(ValueParser.abbreviated(name))'", command: spec)
        }
    }

    func run(in context: CommandContext) throws {
        switch action {
        case .list:
            let snapshot = try context.existingSnapshot()
            if output == .json {
                context.console.write(Self.json(snapshot))
                return
            }
            if snapshot.layout.sections.isEmpty { context.console.write("(no sections)\n") }
            if let honeycomb = snapshot.honeycombLayout {
                let rings = honeycomb.itemCount == 0 ? 0 : HoneycombSpiral.ring(ofPosition: honeycomb.itemCount - 1) + 1
                context.console.write("section 0: \(honeycomb.itemCount) item\(honeycomb.itemCount == 1 ? "" : "s") "
                                      + "on \(rings) ring\(rings == 1 ? "" : "s") (honeycomb)\n")
                return
            }
            for (index, section) in snapshot.layout.sections.enumerated() {
                let unit = snapshot.direction == .vertical ? "row" : "column"
                context.console.write("section \(index): \(section.count) item\(section.count == 1 ? "" : "s"), "
                                      + "\(section.extent) \(unit)\(section.extent == 1 ? "" : "s")\n")
            }
        case .add(let items):
            try context.edit(output: output) { try $0.appendSection(itemCount: items) }
        case .remove(let section):
            try context.edit(output: output) { try $0.removeSection(at: section) }
        }
    }

    /// `{"grid":"default","sections":[{"section":0,"items":12,"extent":2}]}`; a honeycomb's one
    /// section also has its `"rings"`.
    static func json(_ snapshot: GridSnapshot) -> String {
        var sections: [Sections.Section] = []
        if let honeycomb = snapshot.honeycombLayout {
            let rings = honeycomb.itemCount == 0 ? 0 : HoneycombSpiral.ring(ofPosition: honeycomb.itemCount - 1) + 1
            sections.append(Sections.Section(section: 0, items: honeycomb.itemCount, extent: nil, rings: rings))
        } else {
            for (index, section) in snapshot.layout.sections.enumerated() {
                sections.append(Sections.Section(section: index, items: section.count, extent: section.extent, rings: nil))
            }
        }
        return JSONOutput.text(Sections(grid: snapshot.name, sections: sections))
    }

    /// What `sections --format json` prints.
    private struct Sections: Encodable {
        struct Section: Encodable {
            let section: Int
            let items: Int
            /// Rows or columns; for a section of tiles only.
            let extent: Int?
            /// For a honeycomb only.
            let rings: Int?

            private enum CodingKeys: String, CodingKey { case section, items, extent, rings }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(section, forKey: .section)
                try container.encode(items, forKey: .items)
                if let extent { try container.encode(extent, forKey: .extent) }
                if let rings { try container.encode(rings, forKey: .rings) }
            }
        }
        let grid: String
        let sections: [Section]
    }
}
