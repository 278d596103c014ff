import GridLayout
import GridStore

/// An item a command names: by its index (`toggle 3 --section 1`) or by its key (`toggle --key mail`).
enum ItemReference: Equatable {
    /// The item at this index path.
    case path(GridIndexPath)
    /// The item with this key, in whichever section it is.
    case key(String)

    /// The item's index path in `snapshot`.
    ///
    /// - Throws: ``GridError/keyNotFound(_:grid:)`` when no item has the key.
    func resolve(in snapshot: GridSnapshot) throws(GridError) -> GridIndexPath {
        switch self {
        case .path(let path): path
        case .key(let key): try snapshot.requireIndexPath(forKey: key)
        }
    }

    /// The item's index path in `snapshot`, or `nil` when no item has the key (any more).
    func find(in snapshot: GridSnapshot) -> GridIndexPath? {
        try? resolve(in: snapshot)
    }
}

extension SharedOptions {
    /// `--key KEY`: names an item by key where a command takes an `<index>`.
    static let key = CommandSpec.Option(name: "key", valueName: "KEY",
                                        help: "The item with this key (see 'gridstore keys'), instead of <index> and --section.")
}

extension SharedArguments {
    /// `<index>`, which `--key` replaces.
    static let keyableIndex = CommandSpec.Argument(name: "index", help: "The item's index in its section, from 0.",
                                                   replacedBy: SharedOptions.key.name)
}

extension ParsedArguments {
    /// The item `--key` names, else the one the positional argument at `position` names in
    /// the section `--section` names.
    ///
    /// - Throws: A usage error for `--key` with `--section`, or an invalid index.
    func item(_ position: Int, name: String, for command: CommandSpec) throws(CommandLineError) -> ItemReference {
        guard let key = value(SharedOptions.key) else { return .path(try indexPath(position, name: name, for: command)) }
        if value(SharedOptions.section) != nil {
            throw .usage("--key names an item in whichever section it is; leave out --section", command: command)
        }
        do {
            try GridLimits.validate(key: GridLimits.canonical(key))
        } catch {
            throw .usage(error.description, command: command)
        }
        return .key(key)
    }

    /// The number of positional arguments `--key` took the place of: 1 when it was given, else 0.
    var positionsTakenByKey: Int { value(SharedOptions.key) == nil ? 0 : 1 }
}
