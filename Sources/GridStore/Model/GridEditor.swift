import GridLayout

/// The changes one transaction makes to a grid.
///
/// ``Grid/update(operation:_:)`` hands an editor to a closure; every edit checks its input and
/// throws ``GridError`` before changing anything, and the tiles are re-packed from the
/// first item each edit affects. When the closure returns, everything it did is saved
/// in one transaction and the revision grows by one.
///
/// ```swift
/// let snapshot = try grid.update { editor in
///     try editor.toggle(at: GridIndexPath(item: 3))
///     try editor.insertItem(at: GridIndexPath(item: 0), size: .big)
/// }
/// ```
public struct GridEditor: Sendable {
    /// The grid as edited so far.
    public private(set) var snapshot: GridSnapshot

    /// What the edits touched.
    private(set) var changes = GridChanges()

    /// Every edit made, in order, with what it replaced: what the history keeps.
    private(set) var edits: [GridEdit] = []

    /// Whether each edit re-packs the layout; when `false`, ``snapshot``'s layout is left
    /// empty and ``packedSnapshot`` packs once at the end.
    private let packs: Bool

    init(_ snapshot: GridSnapshot) {
        self.snapshot = snapshot
        packs = true
    }

    /// An editor of `snapshot` that packs once, when asked for ``packedSnapshot``, rather than
    /// at every edit: for replaying many edits, as rebuilding an older revision does.
    init(packingOnceAtTheEnd snapshot: GridSnapshot) {
        var unpacked = snapshot
        unpacked.layout = TileGrid(configuration: snapshot.configuration, sections: [])
        self.snapshot = unpacked
        packs = false
    }

    /// Keeps `edit` for the history; an editor that packs once at the end rebuilds a state and
    /// keeps none.
    private mutating func record(_ edit: GridEdit) {
        if packs { edits.append(edit) }
    }

    /// The edited grid, packed.
    var packedSnapshot: GridSnapshot {
        guard !packs else { return snapshot }
        return GridSnapshot(name: snapshot.name, revision: snapshot.revision, configuration: snapshot.configuration,
                            defaultSize: snapshot.defaultSize, explicitSizes: snapshot.explicitSizes,
                            keys: snapshot.itemKeys, honeycomb: snapshot.honeycomb)
    }

    // MARK: Sizes

    /// Cycles the item's size small → middle → big → small. The item keeps a size of its own,
    /// except when the cycle reaches the default size: then it has the default again, so a full
    /// cycle leaves the grid as it was (and, in one change, writes nothing).
    ///
    /// - Returns: The new size.
    @discardableResult
    public mutating func toggle(at path: GridIndexPath) throws(GridError) -> TileSize {
        let size = try snapshot.size(at: path).toggled()
        try setSize(size == snapshot.defaultSize ? nil : size, at: path)
        return size
    }

    /// Sets the item's size; `nil` removes its own size so it has the default again.
    public mutating func setSize(_ size: TileSize?, at path: GridIndexPath) throws(GridError) {
        try requireTiles("have sizes")
        try snapshot.validate(path)
        record(.size(path, from: snapshot.explicitSizes[path.section][path.item], to: size))
        snapshot.explicitSizes[path.section][path.item] = size
        let effective = size ?? snapshot.defaultSize
        if packs && snapshot.layout.size(at: path) != effective {
            snapshot.layout.setSize(effective, at: path)
        }
        changes.markItems(from: path.item, inSection: path.section)
    }

    /// Sets many sizes at once, re-packing each section once from its first changed item.
    public mutating func setSizes(_ sizes: some Sequence<(GridIndexPath, TileSize?)>) throws(GridError) {
        try requireTiles("have sizes")
        var firstChanged: [Int: Int] = [:]
        var updates: [(GridIndexPath, TileSize?)] = []
        for (path, size) in sizes {
            try snapshot.validate(path)
            updates.append((path, size))
            firstChanged[path.section] = min(firstChanged[path.section] ?? path.item, path.item)
        }
        for (path, size) in updates {
            record(.size(path, from: snapshot.explicitSizes[path.section][path.item], to: size))
            snapshot.explicitSizes[path.section][path.item] = size
        }
        for (section, first) in firstChanged {
            guard packs else {
                changes.markItems(from: first, inSection: section)
                continue
            }
            let effective = snapshot.explicitSizes[section][first...].map { $0 ?? snapshot.defaultSize }
            snapshot.layout.replaceItems(first..<snapshot.explicitSizes[section].count, inSection: section, with: effective)
            changes.markItems(from: first, inSection: section)
        }
    }

    /// Removes every item's own size, so all have the default size.
    public mutating func resetSizes() throws(GridError) {
        try requireTiles("reset sizes")
        for (section, sizes) in snapshot.explicitSizes.enumerated() {
            for (item, size) in sizes.enumerated() where size != nil {
                record(.size(GridIndexPath(item: item, section: section), from: size, to: nil))
            }
        }
        for section in snapshot.explicitSizes.indices {
            snapshot.explicitSizes[section] = Array(repeating: nil, count: snapshot.explicitSizes[section].count)
        }
        relayout()
        changes.markSections(from: 0)
    }

    /// Sets the size of items that have none of their own.
    public mutating func setDefaultSize(_ size: TileSize) throws(GridError) {
        try requireTiles("have a default size")
        record(.defaultSize(from: snapshot.defaultSize, to: size))
        snapshot.defaultSize = size
        relayout()
        changes.markSettings()
    }

    /// Exchanges the sizes of two items, as the original's drag and drop did.
    public mutating func swapItems(_ first: GridIndexPath, _ second: GridIndexPath) throws(GridError) {
        try requireTiles("swap sizes")
        try snapshot.validate(first)
        try snapshot.validate(second)
        let firstSize = snapshot.explicitSizes[first.section][first.item]
        let secondSize = snapshot.explicitSizes[second.section][second.item]
        try setSize(secondSize, at: first)
        try setSize(firstSize, at: second)
    }

    // MARK: Settings

    /// Sets the column count; 4 makes the type `less`, 6 makes it `more`.
    public mutating func setColumns(_ columns: Int) throws(GridError) {
        try requireTiles("change its columns or type")
        let configuration: GridConfiguration
        do {
            configuration = try GridConfiguration(columns: columns, spans: snapshot.configuration.spans,
                                                  direction: snapshot.direction)
        } catch {
            throw .invalidConfiguration(error)
        }
        record(.columns(from: snapshot.columns, to: columns))
        snapshot.layout.reconfigure(configuration)
        changes.markSettings()
    }

    /// Sets the type: 4 columns for `less`, 6 for `more`.
    public mutating func setType(_ type: LayoutType) throws(GridError) {
        try setColumns(type.columns)
    }

    /// Switches between `less` and `more`.
    ///
    /// - Throws: ``GridError/customColumns(_:)`` for a grid with a custom column count.
    @discardableResult
    public mutating func toggleType() throws(GridError) -> LayoutType {
        try requireTiles("change its type")
        guard let type = snapshot.type else { throw .customColumns(snapshot.columns) }
        try setType(type.toggled())
        return type.toggled()
    }

    /// Sets the direction the grid grows in.
    public mutating func setDirection(_ direction: ScrollDirection) throws(GridError) {
        try requireTiles("change its direction")
        let previous = snapshot.direction
        do {
            snapshot.layout.reconfigure(try GridConfiguration(
                columns: snapshot.columns, spans: snapshot.configuration.spans, direction: direction))
        } catch {
            throw .invalidConfiguration(error)
        }
        record(.direction(from: previous, to: direction))
        changes.markSettings()
    }

    // MARK: Items

    /// Sets a section's item count: new items get the default size; removed ones lose theirs.
    public mutating func setItemCount(_ count: Int, inSection section: Int) throws(GridError) {
        try resizeSection(section, to: count, restoring: nil)
    }

    /// Sets every section's item count to a data source's: sections past `counts` are removed,
    /// missing ones appended, and each section grows with items of the default size or loses
    /// its last items. Counts the grid already has change nothing.
    public mutating func setItemCounts(_ counts: [Int]) throws(GridError) {
        for count in counts where count < 0 || count > GridLimits.maximumItems { throw .invalidItemCount(count) }
        guard counts.count <= GridLimits.maximumSections else {
            throw .limitExceeded("a grid has at most \(GridLimits.maximumSections) sections; the counts give \(counts.count)")
        }
        // Shrink first, then grow, so the total is checked against what the counts make.
        while snapshot.explicitSizes.count > counts.count { try removeSection(at: snapshot.explicitSizes.count - 1) }
        for (section, count) in counts.enumerated() where section < snapshot.explicitSizes.count {
            if snapshot.explicitSizes[section].count > count { try setItemCount(count, inSection: section) }
        }
        for (section, count) in counts.enumerated() {
            if section >= snapshot.explicitSizes.count {
                try appendSection(itemCount: count)
            } else if snapshot.explicitSizes[section].count < count {
                try setItemCount(count, inSection: section)
            }
        }
    }

    /// Sets a section's item count; the items added get the sizes and keys of `tail` when given.
    mutating func resizeSection(_ section: Int, to count: Int, restoring tail: GridEdit.SectionContents?) throws(GridError) {
        try snapshot.validate(section: section)
        let current = snapshot.explicitSizes[section].count
        guard count >= 0, count <= GridLimits.maximumItems else { throw .invalidItemCount(count) }
        try checkTotal(adding: count - current)
        if let tail, tail.sizes.count != max(0, count - current) || (!tail.keys.isEmpty && tail.keys.count != tail.sizes.count) {
            throw .corrupted("a history entry restores \(tail.sizes.count) items to section \(section), which grows by \(count - current)")
        }
        if let tail, count > current {
            for key in tail.keys.compactMap({ $0 }) { try checkNewKey(key) }
        }
        let keysBefore = snapshot.itemKeys[section]
        let removed = count < current
            ? GridEdit.SectionContents(sizes: Array(snapshot.explicitSizes[section][count...]),
                                       keys: keysBefore.isEmpty ? [] : Array(keysBefore[count...]))
            : tail ?? .plain(count - current)
        record(.itemCount(section: section, from: current, to: count, tail: removed))
        if !snapshot.itemKeys[section].isEmpty {
            if count < current {
                snapshot.itemKeys[section].removeSubrange(count...)
            } else {
                snapshot.itemKeys[section].append(contentsOf: repeatElement(nil, count: count - current))
            }
            changes.markKeys(from: min(count, current), inSection: section)
        }
        if count < current {
            snapshot.explicitSizes[section].removeSubrange(count...)
            if packs { snapshot.layout.replaceItems(count..<current, inSection: section, with: []) }
        } else if count > current, let tail {
            snapshot.explicitSizes[section].append(contentsOf: tail.sizes)
            if !tail.keys.isEmpty {
                materializeKeys(inSection: section)
                snapshot.itemKeys[section].replaceSubrange(current..<count, with: tail.keys)
                changes.markKeys(from: current, inSection: section)
            }
            if packs { snapshot.layout.replaceItems(current..<current, inSection: section, with: tail.sizes.map { $0 ?? snapshot.defaultSize }) }
        } else if count > current {
            snapshot.explicitSizes[section].append(contentsOf: repeatElement(nil, count: count - current))
            if packs { snapshot.layout.replaceItems(current..<current, inSection: section,
                                         with: Array(repeating: snapshot.defaultSize, count: count - current)) }
        }
        changes.markItems(from: min(count, current), inSection: section)
    }

    /// Inserts an item at `path`, moving later items of the section up by one.
    ///
    /// `path.item` may equal the section's item count, to append.
    ///
    /// - Parameters:
    ///   - size: The new item's own size, or `nil` for the default size.
    ///   - key: The new item's key, or `nil` for none.
    /// - Throws: ``GridError/duplicateKey(_:_:)`` when another item has the key.
    public mutating func insertItem(at path: GridIndexPath, size: TileSize? = nil, key: String? = nil) throws(GridError) {
        let key = key.map(GridLimits.canonical)
        if size != nil { try requireTiles("have sizes") }
        try snapshot.validate(section: path.section)
        let count = snapshot.explicitSizes[path.section].count
        guard path.item >= 0, path.item <= count else { throw .itemOutOfRange(path, itemCount: count, allowsEnd: true) }
        try checkTotal(adding: 1)
        if let key { try checkNewKey(key) }
        record(.insert(path, size: size, key: key))
        if key != nil || !snapshot.itemKeys[path.section].isEmpty {
            materializeKeys(inSection: path.section)
            snapshot.itemKeys[path.section].insert(key, at: path.item)
            changes.markKeys(from: path.item, inSection: path.section)
        }
        snapshot.explicitSizes[path.section].insert(size, at: path.item)
        if packs { snapshot.layout.insertItem(size ?? snapshot.defaultSize, at: path) }
        changes.markItems(from: path.item, inSection: path.section)
    }

    /// Deletes the item at `path`, moving later items of the section down by one.
    public mutating func deleteItem(at path: GridIndexPath) throws(GridError) {
        try snapshot.validate(path)
        record(.delete(path, size: snapshot.explicitSizes[path.section][path.item], key: try snapshot.key(at: path)))
        if !snapshot.itemKeys[path.section].isEmpty {
            snapshot.itemKeys[path.section].remove(at: path.item)
            changes.markKeys(from: path.item, inSection: path.section)
        }
        snapshot.explicitSizes[path.section].remove(at: path.item)
        if packs { snapshot.layout.removeItem(at: path) }
        changes.markItems(from: path.item, inSection: path.section)
    }

    /// Moves the item at `source` to `destination` (its index path after the move), with its size.
    public mutating func moveItem(from source: GridIndexPath, to destination: GridIndexPath) throws(GridError) {
        try requireTiles("move items, which all look alike in it")
        try snapshot.validate(source)
        try snapshot.validate(section: destination.section)
        let count = snapshot.explicitSizes[destination.section].count
        let last = source.section == destination.section ? count - 1 : count
        guard destination.item >= 0, destination.item <= last else {
            throw .itemOutOfRange(destination, itemCount: count, allowsEnd: source.section != destination.section)
        }
        record(.move(from: source, to: destination))
        if !snapshot.itemKeys[source.section].isEmpty || !snapshot.itemKeys[destination.section].isEmpty {
            materializeKeys(inSection: source.section)
            materializeKeys(inSection: destination.section)
            let key = snapshot.itemKeys[source.section].remove(at: source.item)
            snapshot.itemKeys[destination.section].insert(key, at: destination.item)
            changes.markKeys(from: source.item, inSection: source.section)
            changes.markKeys(from: destination.item, inSection: destination.section)
        }
        let size = snapshot.explicitSizes[source.section].remove(at: source.item)
        snapshot.explicitSizes[destination.section].insert(size, at: destination.item)
        if packs { snapshot.layout.moveItem(from: source, to: destination) }
        if source.section == destination.section {
            changes.markItems(from: min(source.item, destination.item), inSection: source.section)
        } else {
            changes.markItems(from: source.item, inSection: source.section)
            changes.markItems(from: destination.item, inSection: destination.section)
        }
    }

    // MARK: Sections

    /// Adds a section of `itemCount` items with the default size at the end.
    ///
    /// - Returns: The new section's index.
    @discardableResult
    public mutating func appendSection(itemCount: Int) throws(GridError) -> Int {
        try requireTiles("have more sections")
        guard itemCount >= 0, itemCount <= GridLimits.maximumItems else { throw .invalidItemCount(itemCount) }
        guard snapshot.explicitSizes.count < GridLimits.maximumSections else {
            throw .limitExceeded("a grid has at most \(GridLimits.maximumSections) sections")
        }
        try checkTotal(adding: itemCount)
        let index = snapshot.explicitSizes.count
        record(.insertSection(index, .plain(itemCount)))
        snapshot.explicitSizes.append(Array(repeating: nil, count: itemCount))
        snapshot.itemKeys.append([])
        if packs { snapshot.layout.insertSection(Array(repeating: snapshot.defaultSize, count: itemCount), at: index) }
        changes.markSections(from: index)
        return index
    }

    /// Removes a section with its items; later sections move down by one.
    public mutating func removeSection(at section: Int) throws(GridError) {
        try requireTiles("have its section removed")
        try snapshot.validate(section: section)
        record(.removeSection(section, GridEdit.SectionContents(sizes: snapshot.explicitSizes[section],
                                                                      keys: snapshot.normalizedItemKeys[section])))
        snapshot.explicitSizes.remove(at: section)
        snapshot.itemKeys.remove(at: section)
        if packs { snapshot.layout.removeSection(at: section) }
        changes.markSections(from: section)
    }

    /// Replaces the settings and every section's sizes, as an import does.
    public mutating func replaceContent(_ content: GridContent) throws(GridError) {
        let replacement = try GridSnapshot(name: snapshot.name, revision: snapshot.revision, content: content, packing: packs)
        record(.content(from: snapshot.content, to: replacement.content))
        snapshot = replacement
        changes.markSettings()
    }

    // MARK: Keys

    /// Gives the item at `path` the key `key`, or takes its key away with `nil`.
    ///
    /// - Throws: ``GridError/invalidKey(_:reason:)``, or ``GridError/duplicateKey(_:_:)`` when
    ///   another item has the key.
    public mutating func setKey(_ key: String?, at path: GridIndexPath) throws(GridError) {
        let key = key.map(GridLimits.canonical)
        try snapshot.validate(path)
        if let key {
            try GridLimits.validate(key: key)
            if let holder = snapshot.indexPath(forKey: key), holder != path { throw .duplicateKey(key, holder) }
        }
        let previous = try snapshot.key(at: path)
        guard previous != key else { return }
        record(.key(path, from: previous, to: key))
        materializeKeys(inSection: path.section)
        snapshot.itemKeys[path.section][path.item] = key
        if !snapshot.itemKeys[path.section].contains(where: { $0 != nil }) { snapshot.itemKeys[path.section] = [] }
        changes.markKeys(from: path.item, inSection: path.section)
    }

    /// Makes `section` hold exactly the items with `keys`, in that order: an item whose key the
    /// section holds already keeps its size, a new key gets an item of the default size, and
    /// items whose key is not listed (or that have no key) are removed.
    ///
    /// - Throws: ``GridError/invalidKey(_:reason:)``; ``GridError/repeatedKey(_:)`` when a key is
    ///   listed twice; ``GridError/duplicateKey(_:_:)`` when one belongs to an item of another section.
    public mutating func setItems(keys: [String], inSection section: Int) throws(GridError) {
        let keys = keys.map(GridLimits.canonical)
        try snapshot.validate(section: section)
        let current = snapshot.explicitSizes[section].count
        guard keys.count <= GridLimits.maximumItems else { throw .invalidItemCount(keys.count) }
        try checkTotal(adding: keys.count - current)
        var sizeByKey: [String: TileSize?] = [:]
        for (item, key) in snapshot.itemKeys[section].enumerated() {
            if let key { sizeByKey[key] = snapshot.explicitSizes[section][item] }
        }
        var listed: [String: Int] = [:]
        listed.reserveCapacity(keys.count)
        for (item, key) in keys.enumerated() {
            try GridLimits.validate(key: key)
            if listed.updateValue(item, forKey: key) != nil { throw .repeatedKey(key) }
        }
        for (other, otherKeys) in snapshot.itemKeys.enumerated() where other != section {
            for (item, key) in otherKeys.enumerated() {
                if let key, listed[key] != nil { throw .duplicateKey(key, GridIndexPath(item: item, section: other)) }
            }
        }
        let oldKeys = snapshot.itemKeys[section]
        var first = 0
        while first < min(current, keys.count), !oldKeys.isEmpty, oldKeys[first] == keys[first] { first += 1 }
        guard first < max(current, keys.count) else { return }
        let sizes: [TileSize?] = keys.map { sizeByKey[$0] ?? nil }
        record(.section(section, from: GridEdit.SectionContents(sizes: snapshot.explicitSizes[section],
                                                                      keys: snapshot.normalizedItemKeys[section]),
                              to: GridEdit.SectionContents(sizes: sizes, keys: keys)))
        snapshot.explicitSizes[section] = sizes
        snapshot.itemKeys[section] = keys
        if packs { snapshot.layout.replaceItems(first..<current, inSection: section,
                                     with: sizes[first...].map { $0 ?? snapshot.defaultSize }) }
        changes.markItems(from: first, inSection: section)
        changes.markKeys(from: first, inSection: section)
    }

    /// Cycles the size of the item with the key `key`, as ``toggle(at:)`` does.
    ///
    /// - Returns: The new size.
    /// - Throws: ``GridError/keyNotFound(_:grid:)`` when no item has the key.
    @discardableResult
    public mutating func toggle(forKey key: String) throws(GridError) -> TileSize {
        try toggle(at: snapshot.requireIndexPath(forKey: key))
    }

    /// Sets the size of the item with the key `key`; `nil` gives it the default size again.
    ///
    /// - Throws: ``GridError/keyNotFound(_:grid:)`` when no item has the key.
    public mutating func setSize(_ size: TileSize?, forKey key: String) throws(GridError) {
        try setSize(size, at: snapshot.requireIndexPath(forKey: key))
    }

    // MARK: History

    /// Inserts a section with `contents` at `index`, as undoing its removal does.
    mutating func insertSection(_ contents: GridEdit.SectionContents, at index: Int) throws(GridError) {
        try requireTiles("have more sections")
        guard index >= 0, index <= snapshot.explicitSizes.count else {
            throw .sectionOutOfRange(index, sectionCount: snapshot.explicitSizes.count)
        }
        guard snapshot.explicitSizes.count < GridLimits.maximumSections else {
            throw .limitExceeded("a grid has at most \(GridLimits.maximumSections) sections")
        }
        try checkTotal(adding: contents.sizes.count)
        try checkContents(contents)
        record(.insertSection(index, contents))
        snapshot.explicitSizes.insert(contents.sizes, at: index)
        snapshot.itemKeys.insert(contents.keys.contains { $0 != nil } ? contents.keys : [], at: index)
        if packs { snapshot.layout.insertSection(contents.sizes.map { $0 ?? snapshot.defaultSize }, at: index) }
        changes.markSections(from: index)
    }

    /// Replaces section `index`'s items with `contents`, as undoing ``setItems(keys:inSection:)`` does.
    mutating func replaceSection(_ index: Int, with contents: GridEdit.SectionContents) throws(GridError) {
        try snapshot.validate(section: index)
        let current = snapshot.explicitSizes[index].count
        try checkTotal(adding: contents.sizes.count - current)
        let previous = GridEdit.SectionContents(sizes: snapshot.explicitSizes[index], keys: snapshot.normalizedItemKeys[index])
        // The section's own keys are being replaced, so only other sections' keys can collide.
        snapshot.itemKeys[index] = []
        do {
            try checkContents(contents)
        } catch {
            snapshot.itemKeys[index] = previous.keys
            throw error
        }
        record(.section(index, from: previous, to: contents))
        snapshot.explicitSizes[index] = contents.sizes
        snapshot.itemKeys[index] = contents.keys.contains { $0 != nil } ? contents.keys : []
        if packs { snapshot.layout.replaceItems(0..<current, inSection: index, with: contents.sizes.map { $0 ?? snapshot.defaultSize }) }
        changes.markItems(from: 0, inSection: index)
        changes.markKeys(from: 0, inSection: index)
    }

    /// Throws unless `contents` has a key list of the right length, of valid keys no other item has.
    private func checkContents(_ contents: GridEdit.SectionContents) throws(GridError) {
        guard contents.keys.isEmpty || contents.keys.count == contents.sizes.count else {
            throw .corrupted("a history entry gives \(contents.keys.count) keys to \(contents.sizes.count) items")
        }
        var seen = Set<String>()
        for key in contents.keys.compactMap({ $0 }) {
            try checkNewKey(key)
            guard seen.insert(key).inserted else { throw .repeatedKey(key) }
        }
    }

    // MARK: Helpers

    /// Throws unless `key` is valid and no item has it.
    private func checkNewKey(_ key: String) throws(GridError) {
        try GridLimits.validate(key: key)
        if let holder = snapshot.indexPath(forKey: key) { throw .duplicateKey(key, holder) }
    }

    /// Gives `section` one key entry per item, so that one can be set.
    private mutating func materializeKeys(inSection section: Int) {
        if snapshot.itemKeys[section].isEmpty {
            snapshot.itemKeys[section] = Array(repeating: nil, count: snapshot.explicitSizes[section].count)
        }
    }

    /// Throws unless the grid is a grid of tiles.
    private func requireTiles(_ operation: String) throws(GridError) {
        if snapshot.honeycomb != nil { throw .notTiles(operation: operation, grid: snapshot.name) }
    }

    private mutating func relayout() {
        guard packs else { return }
        let defaultSize = snapshot.defaultSize
        for (section, sizes) in snapshot.explicitSizes.enumerated() {
            let effective = sizes.map { $0 ?? defaultSize }
            let current = snapshot.layout.sections[section].sizes
            // Both have the same count; re-pack from the first item whose size changed.
            if let first = effective.indices.first(where: { effective[$0] != current[$0] }) {
                snapshot.layout.replaceItems(first..<effective.count, inSection: section, with: Array(effective[first...]))
            }
        }
    }

    private func checkTotal(adding additional: Int) throws(GridError) {
        guard additional > 0 else { return }
        let total = snapshot.totalItemCount
        guard total + additional <= GridLimits.maximumItems else {
            throw .limitExceeded("a grid holds at most \(GridLimits.maximumItems) items; it has \(total), "
                                 + "and this change would make it \(total + additional)")
        }
    }
}

extension GridEditor {
    /// `snapshot` with the edits `body` makes, in memory only: what a change would make, to show
    /// before it is made (an editor's tile being dragged). Nothing is stored.
    public static func preview<E: Error>(_ snapshot: GridSnapshot, _ body: (inout GridEditor) throws(E) -> Void) throws(E) -> GridSnapshot {
        var editor = GridEditor(snapshot)
        try body(&editor)
        return editor.snapshot
    }
}

extension GridEditor {
    /// What `body` makes of `stored`, and of `seen`: the stored state as an instance with a
    /// registered default size sees it (items without a size of their own have that size, so a
    /// toggle cycles from it; see ``GridSizeRepository/register(defaultSize:)``).
    ///
    /// `body` edits `seen`; its edits are then made again, through another editor, on
    /// `stored`, so both re-pack only from the items the edits touch, and the state to store
    /// and its history hold what the edits did to the stored grid.
    ///
    /// - Returns: The state to store, what changed, the edits; and `seen` after the edits,
    ///   unless they set a default size of their own (the registered one then no longer shows).
    static func edit(_ stored: GridSnapshot, seenAs seen: GridSnapshot?, _ body: (inout GridEditor) throws -> Void)
        throws -> (snapshot: GridSnapshot, changes: GridChanges, edits: [GridEdit], seen: GridSnapshot?) {
        guard let seen, seen.defaultSize != stored.defaultSize, stored.kind == .tiles else {
            var editor = GridEditor(stored)
            try body(&editor)
            return (editor.snapshot, editor.changes, editor.edits, nil)
        }
        var seenEditor = GridEditor(seen)
        try body(&seenEditor)
        var editor = GridEditor(stored)
        try editor.apply(seenEditor.edits)
        let stillSeen = seenEditor.snapshot.defaultSize == seen.defaultSize
        return (editor.snapshot, editor.changes, editor.edits, stillSeen ? seenEditor.snapshot : nil)
    }
}
