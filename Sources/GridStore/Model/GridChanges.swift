/// What an edit touched, so that only that is written back.
package struct GridChanges: Sendable {
    package init() {}

    /// For each section (by its index, up to the last one marked), the first item whose size,
    /// explicit size or placement may differ. Lists, not dictionaries: a process's first
    /// `[Int: Int]` makes the Swift runtime search the binary's conformance records for
    /// `Int: Hashable`, 160,000 instructions of every `gridstore toggle`.
    private(set) var firstItemBySection: [Int?] = []
    /// For each section (by its index, up to the last one marked), the first item whose key may differ.
    private(set) var firstKeyBySection: [Int?] = []
    /// Every section from this one on may differ entirely (sections were added, removed or renumbered).
    private(set) var sectionsFrom: Int?
    /// The grid's own row (columns, direction, default size) changed.
    private(set) var settingsChanged = false

    /// Records that items of `section` from `item` on may have changed.
    package mutating func markItems(from item: Int, inSection section: Int) {
        Self.mark(item, inSection: section, in: &firstItemBySection)
    }

    /// Records that the keys of items of `section` from `item` on may have changed.
    package mutating func markKeys(from item: Int, inSection section: Int) {
        Self.mark(item, inSection: section, in: &firstKeyBySection)
    }

    private static func mark(_ item: Int, inSection section: Int, in firstBySection: inout [Int?]) {
        precondition(section >= 0, "section \(section) marked as changed: the editor checks every path first")
        // Appended one by one, as GridChangeSet's lists are.
        while firstBySection.count <= section { firstBySection.append(nil) }
        firstBySection[section] = min(firstBySection[section] ?? item, item)
    }

    /// Records that every section from `section` on may have changed.
    package mutating func markSections(from section: Int) {
        sectionsFrom = min(sectionsFrom ?? section, section)
    }

    /// Records that the settings changed, which re-packs every section.
    package mutating func markSettings() {
        settingsChanged = true
        markSections(from: 0)
    }

    /// The first item of `section` that may differ, or `nil` when the section is untouched.
    package func firstChangedItem(inSection section: Int) -> Int? {
        if let from = sectionsFrom, section >= from { return 0 }
        return section < firstItemBySection.count ? firstItemBySection[section] : nil
    }

    /// The first item of `section` whose key may differ, or `nil` when no key of the section changed.
    package func firstChangedKey(inSection section: Int) -> Int? {
        if let from = sectionsFrom, section >= from { return 0 }
        return section < firstKeyBySection.count ? firstKeyBySection[section] : nil
    }
}
