import GridLayout

extension GridEdit {
    /// The operation edits made, in the words of the command line: `set 3 big`,
    /// `insert 0 --section 1`; several edits are `set 3 big; delete 5 (2 edits)`.
    static func describe(_ edits: [GridEdit]) -> String {
        switch edits.count {
        case 0: return "no edit"
        case 1: return edits[0].description
        case 2: return "\(edits[0].description); \(edits[1].description) (2 edits)"
        default: return "\(edits[0].description); … (\(edits.count) edits)"
        }
    }

    /// The edit in the words of the command line.
    var description: String {
        func at(_ path: GridIndexPath) -> String { path.section == 0 ? "\(path.item)" : "\(path.item) --section \(path.section)" }
        func section(_ index: Int) -> String { index == 0 ? "" : " --section \(index)" }
        switch self {
        case .size(let path, _, let to): return "set \(at(path)) \(to?.rawValue ?? "default")"
        case .defaultSize(_, let to): return "default size \(to.rawValue)"
        case .columns(_, let to): return to == 4 ? "type less" : to == 6 ? "type more" : "columns \(to)"
        case .direction(_, let to): return "direction \(to.rawValue)"
        case .itemCount(let index, _, let to, _): return "items \(to)\(section(index))"
        case .insert(let path, let size, let key):
            return "insert \(at(path))" + (size.map { " --size \($0.rawValue)" } ?? "") + (key.map { " --key \($0)" } ?? "")
        case .delete(let path, _, _): return "delete \(at(path))"
        case .move(let from, let to):
            return from.section == to.section ? "move \(from.item) \(to.item)\(section(from.section))"
                : "move \(at(from)) to \(at(to))"
        case .insertSection(let index, let contents): return "add section \(index) (\(contents.sizes.count) items)"
        case .removeSection(let index, _): return "remove section \(index)"
        case .key(let path, _, let to): return to.map { "key \(at(path)) \($0)" } ?? "remove key \(at(path))"
        case .section(let index, _, let to): return "keys (\(to.sizes.count) items)\(section(index))"
        case .content(_, let to): return "replace content (\(to.sections.reduce(0) { $0 + $1.count }) items)"
        }
    }
}
