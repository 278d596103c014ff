/// What an edit touched, so that only that is written back.
package struct GridChanges: Sendable {
    package init() {}

    /// For each section (by its index), the first item whose size, explicit size or placement
    /// may differ.
    private(set) var firstItemBySection: [Int?] = []
    /// For each section (by its index), the first item whose key may differ.
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
        firstBySection.setValue(min(firstBySection.value(ofSection: section) ?? item, item), ofSection: section)
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
        return firstItemBySection.value(ofSection: section)
    }

    /// The first item of `section` whose key may differ, or `nil` when no key of the section changed.
    package func firstChangedKey(inSection section: Int) -> Int? {
        if let from = sectionsFrom, section >= from { return 0 }
        return firstKeyBySection.value(ofSection: section)
    }
}
