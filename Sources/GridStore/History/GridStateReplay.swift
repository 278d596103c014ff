import GridLayout

/// A grid's content with edits applied one after another without re-packing: how an older
/// revision is rebuilt, packed once at the end rather than once an edit.
struct GridStateReplay {
    private(set) var content: GridContent
    /// One key list per section, each empty or one key per item.
    private var keys: [[String?]]

    /// The number of items in ``content``.
    private var total: Int

    init(_ snapshot: GridSnapshot) {
        content = snapshot.content
        keys = snapshot.itemKeys
        total = snapshot.totalItemCount
    }

    /// The content with its keys, ready for a ``GridSnapshot``.
    var result: GridContent {
        var result = content
        result.keys = keys.contains { $0.contains { $0 != nil } } ? keys.map { $0.contains { $0 != nil } ? $0 : [] } : []
        return result
    }

    /// Applies `edit` as ``GridEditor`` would, without packing.
    ///
    /// - Throws: ``Mismatch`` when the edit does not fit the content.
    mutating func apply(_ edit: GridEdit) throws(Mismatch) {
        try applyEdit(edit)
        // Every state a change passed through was a grid within the limits, so one replayed
        // never holds more: checked at each edit, so that no entry can grow it without bound.
        let sections = content.sections.count
        guard sections <= GridLimits.maximumSections else { throw mismatch("it makes \(sections) sections") }
        guard total <= GridLimits.maximumItems else { throw mismatch("it makes \(total) items") }
    }

    private mutating func applyEdit(_ edit: GridEdit) throws(Mismatch) {
        switch edit {
        case .size(let path, _, let to):
            try check(path)
            content.sections[path.section][path.item] = to
        case .defaultSize(_, let to): content.defaultSize = to
        case .columns(_, let to): content.columns = to
        case .direction(_, let to): content.direction = to
        case .itemCount(let section, let from, let to, let tail):
            try check(section: section)
            guard content.sections[section].count == from else { throw mismatch("section \(section) has \(content.sections[section].count) items, not \(from)") }
            total += to - from
            if to < from {
                content.sections[section].removeSubrange(to...)
                if !keys[section].isEmpty { keys[section].removeSubrange(to...) }
            } else {
                guard tail.sizes.count == to - from else { throw mismatch("the items added to section \(section) do not match") }
                content.sections[section].append(contentsOf: tail.sizes)
                appendKeys(tail, to: section, after: from)
            }
        case .insert(let path, let size, let key):
            try check(section: path.section)
            guard path.item <= content.sections[path.section].count else { throw mismatch("item \(path.item) is past the end") }
            content.sections[path.section].insert(size, at: path.item)
            total += 1
            if key != nil || !keys[path.section].isEmpty {
                materialize(path.section, count: content.sections[path.section].count - 1)
                keys[path.section].insert(key, at: path.item)
            }
        case .delete(let path, _, _):
            try check(path)
            total -= 1
            content.sections[path.section].remove(at: path.item)
            if !keys[path.section].isEmpty { keys[path.section].remove(at: path.item) }
        case .move(let from, let to):
            try check(from)
            try check(section: to.section)
            let size = content.sections[from.section].remove(at: from.item)
            let key = keys[from.section].isEmpty ? nil : keys[from.section].remove(at: from.item)
            guard to.item <= content.sections[to.section].count else { throw mismatch("item \(to.item) is past the end") }
            content.sections[to.section].insert(size, at: to.item)
            if key != nil || !keys[to.section].isEmpty {
                materialize(to.section, count: content.sections[to.section].count - 1)
                keys[to.section].insert(key, at: to.item)
            }
        case .insertSection(let index, let section):
            guard index >= 0, index <= content.sections.count else { throw mismatch("section \(index) is past the end") }
            content.sections.insert(section.sizes, at: index)
            total += section.sizes.count
            keys.insert(section.keys, at: index)
        case .removeSection(let index, _):
            try check(section: index)
            total -= content.sections[index].count
            content.sections.remove(at: index)
            keys.remove(at: index)
        case .key(let path, _, let to):
            try check(path)
            materialize(path.section, count: content.sections[path.section].count)
            keys[path.section][path.item] = to
        case .section(let index, _, let to):
            try check(section: index)
            total += to.sizes.count - content.sections[index].count
            content.sections[index] = to.sizes
            keys[index] = to.keys
        case .content(_, let to):
            content = to
            total = to.sections.reduce(0) { $0 + $1.count }
            keys = to.sections.indices.map { $0 < to.keys.count ? to.keys[$0] : [] }
        }
    }

    private mutating func appendKeys(_ tail: GridEdit.SectionContents, to section: Int, after count: Int) {
        if tail.keys.isEmpty {
            if !keys[section].isEmpty { keys[section].append(contentsOf: repeatElement(nil, count: tail.sizes.count)) }
        } else {
            materialize(section, count: count)
            keys[section].append(contentsOf: tail.keys)
        }
    }

    private mutating func materialize(_ section: Int, count: Int) {
        if keys[section].isEmpty { keys[section] = Array(repeating: nil, count: count) }
    }

    /// Why an edit does not fit the content.
    struct Mismatch: Error {
        let reason: String
    }

    private func check(section: Int) throws(Mismatch) {
        guard section >= 0, section < content.sections.count else { throw mismatch("section \(section) does not exist") }
    }

    private func check(_ path: GridIndexPath) throws(Mismatch) {
        try check(section: path.section)
        guard path.item >= 0, path.item < content.sections[path.section].count else {
            throw mismatch("item \(path.item) of section \(path.section) does not exist")
        }
    }

    private func mismatch(_ what: String) -> Mismatch { Mismatch(reason: what) }
}
