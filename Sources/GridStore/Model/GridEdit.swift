import GridLayout

/// One edit a change made, with what it replaced: the unit of a grid's history.
///
/// Every ``GridEditor`` method records the edits it makes; a history entry keeps them, so the
/// change can be undone (``inverse``, applied newest first) and redone (applied again, oldest
/// first). An edit holds only what it touched: a toggle is one size, however large the grid.
enum GridEdit: Sendable, Equatable {
    /// An item's own size (`nil`: the default size).
    case size(GridIndexPath, from: TileSize?, to: TileSize?)
    /// The grid's default size.
    case defaultSize(from: TileSize, to: TileSize)
    /// The column count.
    case columns(from: Int, to: Int)
    /// The direction the grid grows in.
    case direction(from: ScrollDirection, to: ScrollDirection)
    /// A section's item count; `tail` holds the sizes and keys of the items past the smaller
    /// count, in the state that has them (the removed ones, or the new ones).
    case itemCount(section: Int, from: Int, to: Int, tail: SectionContents)
    /// An item inserted at a path, with its own size and key.
    case insert(GridIndexPath, size: TileSize?, key: String?)
    /// An item deleted from a path, with its own size and key.
    case delete(GridIndexPath, size: TileSize?, key: String?)
    /// An item moved.
    case move(from: GridIndexPath, to: GridIndexPath)
    /// A section inserted at an index, with its items.
    case insertSection(Int, SectionContents)
    /// A section removed from an index, with its items.
    case removeSection(Int, SectionContents)
    /// An item's key.
    case key(GridIndexPath, from: String?, to: String?)
    /// A section's items replaced whole (``GridEditor/setItems(keys:inSection:)``).
    case section(Int, from: SectionContents, to: SectionContents)
    /// The whole content replaced (an import).
    case content(from: GridContent, to: GridContent)

    /// The items of a section, or a run of them: their own sizes and their keys (empty when none has a key).
    struct SectionContents: Sendable, Equatable {
        var sizes: [TileSize?]
        var keys: [String?]

        /// `count` items of the default size without keys.
        static func plain(_ count: Int) -> SectionContents {
            SectionContents(sizes: Array(repeating: nil, count: count), keys: [])
        }
    }

    /// The edit that takes the change back.
    var inverse: GridEdit {
        switch self {
        case .size(let path, let from, let to): .size(path, from: to, to: from)
        case .defaultSize(let from, let to): .defaultSize(from: to, to: from)
        case .columns(let from, let to): .columns(from: to, to: from)
        case .direction(let from, let to): .direction(from: to, to: from)
        case .itemCount(let section, let from, let to, let tail): .itemCount(section: section, from: to, to: from, tail: tail)
        case .insert(let path, let size, let key): .delete(path, size: size, key: key)
        case .delete(let path, let size, let key): .insert(path, size: size, key: key)
        case .move(let from, let to): .move(from: to, to: from)
        case .insertSection(let index, let contents): .removeSection(index, contents)
        case .removeSection(let index, let contents): .insertSection(index, contents)
        case .key(let path, let from, let to): .key(path, from: to, to: from)
        case .section(let index, let from, let to): .section(index, from: to, to: from)
        case .content(let from, let to): .content(from: to, to: from)
        }
    }

    /// Makes the edit through `editor`, which records it again.
    func apply(to editor: inout GridEditor) throws(GridError) {
        switch self {
        case .size(let path, _, let to): try editor.setSize(to, at: path)
        case .defaultSize(_, let to): try editor.setDefaultSize(to)
        case .columns(_, let to): try editor.setColumns(to)
        case .direction(_, let to): try editor.setDirection(to)
        case .itemCount(let section, let from, let to, let tail):
            try editor.resizeSection(section, to: to, restoring: to > from ? tail : nil)
        case .insert(let path, let size, let key): try editor.insertItem(at: path, size: size, key: key)
        case .delete(let path, _, _): try editor.deleteItem(at: path)
        case .move(let from, let to): try editor.moveItem(from: from, to: to)
        case .insertSection(let index, let contents): try editor.insertSection(contents, at: index)
        case .removeSection(let index, _): try editor.removeSection(at: index)
        case .key(let path, _, let to): try editor.setKey(to, at: path)
        case .section(let index, _, let to): try editor.replaceSection(index, with: to)
        case .content(_, let to): try editor.replaceContent(to)
        }
    }
}

extension GridEditor {
    /// Makes `edits` through this editor, as their own calls would, with each run of size
    /// edits made as one ``setSizes(_:)``: a section is re-packed once a run, not once a size
    /// (a `removeAll()` made again item by item re-packed the section from each item on).
    mutating func apply(_ edits: some Sequence<GridEdit>) throws(GridError) {
        var run: [(GridIndexPath, TileSize?)] = []
        for edit in edits {
            if case .size(let path, _, let to) = edit {
                run.append((path, to))
                continue
            }
            try applySizes(&run)
            try edit.apply(to: &self)
        }
        try applySizes(&run)
    }

    /// Makes a run of size edits: one as itself, more as one ``setSizes(_:)``.
    private mutating func applySizes(_ run: inout [(GridIndexPath, TileSize?)]) throws(GridError) {
        switch run.count {
        case 0: return
        case 1: try setSize(run[0].1, at: run[0].0)
        default: try setSizes(run)
        }
        run.removeAll(keepingCapacity: true)
    }
}
