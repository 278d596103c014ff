import GridLayout

/// The tile sizes the original iOS layout (ugrid) saved in an app's `UserDefaults`, read for
/// moving them into a ``GridSizeRepository`` at an app's first launch with gridstore.
///
/// The original kept each size under a key `r:<row>_s:<section>_grid_item_size` with the value
/// `grid_size_small`, `grid_size_middle` or `grid_size_big`, and never deleted keys, so an old
/// domain holds sizes of items that no longer exist: give the app's item counts and the keys
/// past them are dropped. Other keys are counted and left alone; a size key with an unusable
/// value is skipped and named in ``skippedKeys``.
///
/// ```swift
/// let defaults = LegacyDefaults(UserDefaults.standard.dictionaryRepresentation(), itemCounts: [20, 4])
/// let snapshot = try repository.importLegacyDefaults(defaults)  // one change: all or nothing
/// ```
///
/// One count applies to every section the grid has or a size names; give one count per section
/// to say how many sections the app has (the keys of any other section are then dropped).
public struct LegacyDefaults: Sendable {
    /// The sizes to set, by item.
    public let sizes: [GridIndexPath: TileSize]
    /// The app's item count of each section, or one count for every section; `nil` when not given.
    public let itemCounts: [Int]?
    /// How many keys were not size keys.
    public let otherKeyCount: Int
    /// How many size keys named an item past the app's item counts.
    public let droppedKeyCount: Int
    /// The size keys whose value is not one of the three sizes, sorted.
    public let skippedKeys: [String]

    /// Reads the sizes from a domain's values: what `UserDefaults.dictionaryRepresentation()`
    /// returns, or `UserDefaults(suiteName:)`'s for another domain.
    ///
    /// - Parameter itemCounts: The app's item count of each section, or one for every section;
    ///   keys past them are dropped, and importing sets the grid's counts to them.
    ///
    /// - Precondition: `itemCounts`, when given, is not empty and holds no negative count.
    public init(_ values: [String: Any], itemCounts: [Int]? = nil) {
        self.init(values.map { (key: $0.key, value: ($0.value as? String).map(PropertyListValue.string)) }, itemCounts: itemCounts)
    }

    /// Reads the sizes from a property list's bytes, XML or binary: an app's preferences file
    /// (`Library/Preferences/<bundle id>.plist`).
    ///
    /// - Throws: ``LegacyDefaultsError`` when the bytes are not a property list of a dictionary.
    public init(propertyList bytes: [UInt8], itemCounts: [Int]? = nil) throws(LegacyDefaultsError) {
        let root: PropertyListValue
        do {
            root = try PropertyListReader.read(bytes)
        } catch {
            throw LegacyDefaultsError(reason: "not a valid property list: \(error)")
        }
        guard case .dictionary(let entries) = root else { throw LegacyDefaultsError(reason: "a property list without a dictionary of UserDefaults keys") }
        self.init(entries.map { (key: $0.key, value: Optional($0.value)) }, itemCounts: itemCounts)
    }

    private init(_ entries: [(key: String, value: PropertyListValue?)], itemCounts: [Int]?) {
        precondition(itemCounts.map { !$0.isEmpty && $0.allSatisfy { $0 >= 0 } } ?? true,
                     "item counts are one count, or one per section, none negative")
        var sizes: [GridIndexPath: TileSize] = [:]
        var other = 0, dropped = 0
        var skipped: [String] = []
        for (key, value) in entries {
            guard let path = LegacySizeKey.indexPath(of: key) else {
                other += 1
                continue
            }
            guard case .string(let text)? = value, let size = LegacySizeKey.size(named: text) else {
                skipped.append(key)
                continue
            }
            if let limit = Self.itemLimit(itemCounts, section: path.section), path.item >= limit {
                dropped += 1
                continue
            }
            sizes[path] = size
        }
        self.sizes = sizes
        self.itemCounts = itemCounts
        otherKeyCount = other
        droppedKeyCount = dropped
        skippedKeys = skipped.sorted()
    }

    /// The item count `itemCounts` gives `section`, if any: past a list, a section has none.
    static func itemLimit(_ itemCounts: [Int]?, section: Int) -> Int? {
        guard let itemCounts else { return nil }
        if itemCounts.count == 1 { return itemCounts[0] }
        return section < itemCounts.count ? itemCounts[section] : 0
    }

    /// Makes `editor`'s grid hold these sizes: with ``itemCounts``, exactly the app's sections
    /// and items (one count: every section the grid or the sizes have), else at least the
    /// sections and items the sizes name.
    ///
    /// - Returns: What changed besides the sizes, in words (`added section 1`, `grew section 1
    ///   to 15 items`, `shrank section 0 to 4 items`, `removed section 2`).
    public func apply(to editor: inout GridEditor) throws(GridError) -> [String] {
        if editor.snapshot.kind == .honeycomb { throw .notTiles(operation: "have sizes", grid: editor.snapshot.name) }
        if let far = sizes.keys.filter({ $0.item >= GridLimits.maximumItems || $0.section >= GridLimits.maximumSections })
            .min(by: { ($0.section, $0.item) < ($1.section, $1.item) }) {
            let item = far.item == Int.max ? "past \(Int.max)" : "\(far.item)"
            let section = far.section == Int.max ? "past \(Int.max)" : "\(far.section)"
            throw .limitExceeded("a size key names item \(item) of section \(section); a grid holds at most "
                                 + "\(GridLimits.maximumItems) items in at most \(GridLimits.maximumSections) sections")
        }
        var notes: [String] = []
        let needed = sizes.keys.reduce(into: [Int: Int]()) { $0[$1.section] = max($0[$1.section] ?? 0, $1.item + 1) }
        var sectionCount = max(editor.snapshot.itemCounts.count, (needed.keys.max() ?? -1) + 1)
        if let itemCounts, itemCounts.count > 1 { sectionCount = itemCounts.count }
        for section in 0..<sectionCount {
            if section >= editor.snapshot.itemCounts.count {
                _ = try editor.appendSection(itemCount: 0)
                notes.append("added section \(section)")
            }
            let current = editor.snapshot.itemCounts[section]
            let wanted = Self.itemLimit(itemCounts, section: section) ?? max(current, needed[section] ?? 0)
            if wanted != current {
                try editor.setItemCount(wanted, inSection: section)
                notes.append("\(wanted > current ? "grew" : "shrank") section \(section) to \(wanted) items")
            }
        }
        while editor.snapshot.itemCounts.count > sectionCount {
            let last = editor.snapshot.itemCounts.count - 1
            try editor.removeSection(at: last)
            notes.append("removed section \(last)")
        }
        try editor.setSizes(sizes.lazy.map { ($0.key, Optional($0.value)) })
        return notes
    }
}

/// Why a property list could not be read for its sizes.
public struct LegacyDefaultsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words.
    public let reason: String

    public var description: String { reason }
}

extension GridSizeRepository {
    /// Sets the sizes `defaults` holds, and with its item counts the grid's sections and items,
    /// in one change: all or nothing, with the same rules as `gridstore import-defaults`.
    ///
    /// - Returns: The grid after the change.
    /// - Throws: ``GridError`` when the sizes do not fit the grid (nothing is changed then).
    @discardableResult
    public func importLegacyDefaults(_ defaults: LegacyDefaults) throws(GridError) -> GridSnapshot {
        try editing { editor in _ = try defaults.apply(to: &editor) }
    }
}
