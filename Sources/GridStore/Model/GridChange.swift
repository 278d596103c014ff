import GridLayout

/// One element of a grid's ``GridChangeSequence``: the grid's state now, and which items
/// changed since the state the observer saw before.
public struct GridChange: Sendable, Hashable, Codable {
    /// The grid's state now.
    public let snapshot: GridSnapshot
    /// Whether this is the first element: the state when observing began (nothing is listed as changed).
    public let isInitial: Bool
    /// Items whose size changed (items that exist in both states).
    public let resized: [GridIndexPath]
    /// Items whose cell rectangle changed (items that exist in both states), as a re-pack moves them.
    public let moved: [GridIndexPath]
    /// Sections whose item count changed, or that were added or removed.
    public let recountedSections: [Int]
    /// Sections in both states whose item keys changed.
    public let rekeyedSections: [Int]
    /// Whether the columns, direction, default size or layout kind changed: then every item may have moved.
    public let settingsChanged: Bool

    /// The revision of ``snapshot``.
    public var revision: Int { snapshot.revision }

    /// The first element: `snapshot`, with nothing listed as changed.
    init(initial snapshot: GridSnapshot) {
        self.snapshot = snapshot
        isInitial = true
        resized = []
        moved = []
        recountedSections = []
        rekeyedSections = []
        settingsChanged = false
    }

    /// What changed from `previous` to `current`.
    ///
    /// - Complexity: O(n) for the n items of the two states.
    init(from previous: GridSnapshot, to current: GridSnapshot) {
        snapshot = current
        isInitial = false
        settingsChanged = previous.configuration != current.configuration || previous.defaultSize != current.defaultSize
            || previous.kind != current.kind
        var resized: [GridIndexPath] = [], moved: [GridIndexPath] = [], recounted: [Int] = []
        let oldCounts = previous.itemCounts, newCounts = current.itemCounts
        for section in 0..<max(oldCounts.count, newCounts.count) {
            let oldCount = section < oldCounts.count ? oldCounts[section] : -1
            let newCount = section < newCounts.count ? newCounts[section] : -1
            if oldCount != newCount { recounted.append(section) }
            guard current.kind == .tiles, previous.kind == .tiles else { continue }
            for item in 0..<max(0, min(oldCount, newCount)) {
                let path = GridIndexPath(item: item, section: section)
                let before = previous.layout.sections[section], after = current.layout.sections[section]
                if before.sizes[item] != after.sizes[item] { resized.append(path) }
                if before[item] != after[item] { moved.append(path) }
            }
        }
        self.resized = resized
        self.moved = moved
        recountedSections = recounted
        let oldKeys = previous.normalizedItemKeys, newKeys = current.normalizedItemKeys
        rekeyedSections = (0..<min(oldCounts.count, newCounts.count)).filter { oldKeys[$0] != newKeys[$0] }
    }
}
