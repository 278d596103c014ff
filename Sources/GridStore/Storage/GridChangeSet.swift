import GridLayout

/// Exactly the rows one change writes: computed by the engine from the states before and
/// after, written by a storage backend in one transaction.
///
/// Every key starts with the grid; the grid itself is the id the backend passes back.
/// A backend writes the grid row (``settings``), then the steps of ``rowSteps``, in their order.
package struct GridChangeSet: Sendable {
    /// One step of writing a change's rows after the grid row.
    package enum RowStep: Sendable, Equatable {
        /// Delete every placement chunk of the grid (it became a honeycomb, or all are rewritten).
        case removeAllChunks
        /// Delete the sections from this one on, with their sizes, keys and chunks.
        case removeSections(from: Int)
        /// Insert or replace the sections of ``itemCounts``.
        case itemCounts
        /// Write the sizes: the size chunks of ``sizeChunkEdits()``, or each changed section's
        /// sizes from ``forEachSectionOfNewSizes(_:)``.
        case sizes
        /// Delete the keys of ``keyTruncations``, then insert ``keyInserts``.
        case keys
        /// Delete the chunks of ``chunkTruncations``, then write ``chunkUpserts``.
        case chunks
        /// Write ``honeycomb``, ``honeycombTruncation`` and ``honeycombUpserts``.
        case honeycomb
    }

    /// The steps that write the change's rows after the grid row, in the one order every
    /// backend follows. Writes to one key never appear twice, so the order only has to respect
    /// the foreign keys (sections before their sizes, keys and chunks) and the uniqueness of
    /// item keys (every key deletion before any insertion).
    package var rowSteps: [RowStep] {
        var steps: [RowStep] = []
        if removesAllChunks { steps.append(.removeAllChunks) }
        if let firstRemovedSection { steps.append(.removeSections(from: firstRemovedSection)) }
        if !itemCounts.isEmpty { steps.append(.itemCounts) }
        steps += [.sizes, .keys, .chunks, .honeycomb]
        return steps
    }

    /// The grid row's values after the change.
    package struct Settings: Sendable, Equatable {
        package var columns: Int
        package var direction: ScrollDirection
        package var defaultSize: TileSize
        package var revision: Int
        package var kind: GridKind
    }

    /// One explicit size to insert or replace.
    ///
    /// Stored in 12 bytes (a section and an item fit 32 bits: see ``GridLimits``), since an
    /// import writes one per item.
    package struct SizeRow: Sendable, Equatable {
        private let storedSection: Int32
        private let storedItem: Int32
        package let size: TileSize

        package init(section: Int, item: Int, size: TileSize) {
            storedSection = Int32(section)
            storedItem = Int32(item)
            self.size = size
        }

        package var section: Int { Int(storedSection) }
        package var item: Int { Int(storedItem) }
    }

    /// One item key to insert.
    package struct KeyRow: Sendable, Equatable {
        package var section: Int
        package var item: Int
        package var key: String
    }

    /// One placement chunk to insert or replace; ``GridChangeSet/withText(of:_:)`` writes its JSON text.
    package struct ChunkRow: Sendable, Equatable {
        package var section: Int
        package var firstItem: Int
    }

    /// One honeycomb item's placement to insert or replace.
    package struct HoneycombRow: Sendable, Equatable {
        package var item: Int
        package var cell: HexCoordinate
        package var frame: LayoutRect
    }

    /// What happens to the grid's row in `honeycombs`.
    package enum HoneycombChange: Sendable, Equatable {
        /// Insert or replace it.
        case set(HoneycombConfiguration)
        /// Delete it with the grid's honeycomb placements.
        case remove
    }

    /// The grid row after the change.
    package var settings: Settings
    /// Delete the tile placement chunks of every section (the grid became a honeycomb).
    package var removesAllChunks = false
    /// Delete sections from this one on, with their sizes, keys and chunks.
    package var firstRemovedSection: Int?
    /// Sections whose item count is set (inserted or replaced).
    package var itemCounts: [(section: Int, count: Int)] = []
    /// Explicit sizes removed (the item has the default size again): what the size chunks to
    /// rewrite are found from.
    var sizeDeletions: [(section: Int, item: Int)] = []
    /// Delete every explicit size of `section` from `item` on (items were removed).
    var sizeTruncations: [(section: Int, item: Int)] = []
    /// Explicit sizes inserted or replaced.
    var sizeUpserts: [SizeRow] = []
    /// Delete every key of `section` from `item` on.
    package var keyTruncations: [(section: Int, item: Int)] = []
    /// Item keys inserted (after every truncation).
    package var keyInserts: [KeyRow] = []
    /// Delete every chunk of `section` whose first item is `firstItem` or later.
    package var chunkTruncations: [(section: Int, firstItem: Int)] = []
    /// Chunks inserted or replaced.
    package var chunkUpserts: [ChunkRow] = []
    /// The packed sections the chunks in ``chunkUpserts`` are encoded from, when written: a
    /// million-item import would otherwise hold 25 MB of text at once.
    /// By section index.
    private var chunkSections: [TileGridSection<DensePacking>?] = []
    /// The explicit sizes after the change of each section with size changes (by section
    /// index), which size chunks (see ``SizeChunks``) are written from.
    private var sizeSections: [[TileSize?]?] = []
    /// The honeycomb row's change, if any.
    package var honeycomb: HoneycombChange?
    /// Honeycomb placements inserted or replaced.
    package var honeycombUpserts: [HoneycombRow] = []
    /// Delete honeycomb placements from this item on.
    package var honeycombTruncation: Int?

    /// The changes that turn the stored `old` state into `new`, looking only where `changes` says.
    ///
    /// - Parameter old: The stored state, or `nil` for a grid being inserted.
    /// - Complexity: O(*k*) for the *k* items from each section's first changed item on.
    package init(old: GridSnapshot?, new: GridSnapshot, changes: GridChanges) {
        settings = Settings(columns: new.columns, direction: new.direction, defaultSize: new.defaultSize,
                            revision: new.revision, kind: new.kind)
        removesAllChunks = old?.kind == .tiles && new.kind == .honeycomb
        addSections(old: old, new: new, changes: changes)
        addHoneycomb(old: old, new: new)
    }

    /// The changes that insert `snapshot` whole.
    package init(inserting snapshot: GridSnapshot) {
        var changes = GridChanges()
        changes.markSections(from: 0)
        self.init(old: nil, new: snapshot, changes: changes)
    }

    /// Makes the change replace every placement chunk of the grid with `new`'s, rather than only
    /// those that differ from the state before: for when the stored chunks are not what that
    /// state says they are (edited by hand).
    package mutating func rewriteAllChunks(of new: GridSnapshot) {
        guard new.kind == .tiles else { return }
        removesAllChunks = true
        chunkTruncations = []
        chunkUpserts = []
        for (index, section) in new.layout.sections.enumerated() {
            addChunks(section: index, from: 0, old: nil, new: section)
        }
    }

    /// Whether the change leaves every row of `old` as it was, the revision aside: such a change
    /// is not written, so it neither adds a revision nor wakes observers.
    package func leavesUnchanged(_ old: GridSnapshot) -> Bool {
        settings.columns == old.columns && settings.direction == old.direction
            && settings.defaultSize == old.defaultSize && settings.kind == old.kind
            && !removesAllChunks && firstRemovedSection == nil && itemCounts.isEmpty
            && sizeDeletions.isEmpty && sizeTruncations.isEmpty && sizeUpserts.isEmpty
            && keyTruncations.isEmpty && keyInserts.isEmpty
            && chunkTruncations.isEmpty && chunkUpserts.isEmpty
            && honeycomb == nil && honeycombUpserts.isEmpty && honeycombTruncation == nil
    }

    /// Whether the change writes the chunk of `section` that starts at `firstItem`.
    package func rewrites(section: Int, firstItem: Int) -> Bool {
        if removesAllChunks { return true }
        // Chunks are added section by section, in item order.
        var low = 0, high = chunkUpserts.count
        while low < high {
            let middle = (low + high) / 2
            let chunk = chunkUpserts[middle]
            if (chunk.section, chunk.firstItem) < (section, firstItem) { low = middle + 1 } else { high = middle }
        }
        return low < chunkUpserts.count && chunkUpserts[low].section == section && chunkUpserts[low].firstItem == firstItem
    }

    /// Calls `body` with the JSON text of one chunk to write, valid only during the call.
    ///
    /// Not generic, so that a backend in another module calls the packed-grid code specialized here.
    package func withText(of chunk: ChunkRow, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try PlacementChunks.withText(chunk.firstItem / PlacementChunks.size, of: chunkSections[chunk.section]!, body)
    }

    /// The JSON text of one chunk to write.
    package func text(of chunk: ChunkRow) -> [UInt8] {
        var text: [UInt8] = []
        withText(of: chunk) { text = Array($0) }
        return text
    }

    /// The explicit sizes of `section` after the change, for a section the change gives sizes to
    /// (empty for any other): what a backend that stores a section's sizes together writes.
    package func explicitSizes(afterChangeOfSection section: Int) -> [TileSize?] {
        sizeSections.value(ofSection: section) ?? []
    }

    /// Calls `body` with each section the change gives sizes to, in order, and its explicit
    /// sizes after the change: what a backend that keeps a section's sizes whole writes.
    package func forEachSectionOfNewSizes(_ body: (Int, [TileSize?]) throws -> Void) rethrows {
        for (section, sizes) in sizeSections.enumerated() { if let sizes { try body(section, sizes) } }
    }

    // MARK: Sections

    private mutating func addSections(old: GridSnapshot?, new: GridSnapshot, changes: GridChanges) {
        let oldCount = old?.explicitSizes.count ?? 0
        let newCount = new.explicitSizes.count
        if newCount < oldCount { firstRemovedSection = newCount }
        for section in 0..<newCount {
            if let first = changes.firstChangedKey(inSection: section) {
                addKeys(section: section, from: first,
                        old: section < oldCount ? old?.itemKeys[section] ?? [] : [], new: new.itemKeys[section])
            }
            guard let first = changes.firstChangedItem(inSection: section) else { continue }
            let oldSizes = section < oldCount ? old?.explicitSizes[section] : nil
            let newSizes = new.explicitSizes[section]
            if oldSizes?.count != newSizes.count {
                itemCounts.append((section, newSizes.count))
            }
            addSizes(section: section, from: first, old: oldSizes ?? [], new: newSizes)
            sizeSections.setValue(newSizes, ofSection: section)
            // A honeycomb's placements are its own (see addHoneycomb); it has no tile chunks.
            guard new.kind == .tiles else { continue }
            addChunks(section: section, from: first,
                      old: section < oldCount && old?.kind == .tiles ? old?.layout.sections[section] : nil,
                      new: new.layout.sections[section])
        }
    }

    /// The explicit sizes that differ from item `first` on.
    private mutating func addSizes(section: Int, from first: Int, old: [TileSize?], new: [TileSize?]) {
        let shared = min(old.count, new.count)
        if first < shared {
            for item in first..<shared where old[item] != new[item] {
                if let size = new[item] {
                    sizeUpserts.append(SizeRow(section: section, item: item, size: size))
                } else {
                    sizeDeletions.append((section, item))
                }
            }
        }
        if old.count > new.count {
            sizeTruncations.append((section, new.count))
        }
        for item in max(first, shared)..<max(new.count, max(first, shared)) {
            if let size = new[item] { sizeUpserts.append(SizeRow(section: section, item: item, size: size)) }
        }
    }

    /// The keys that differ from item `first` on: those stored from the first difference on are
    /// deleted, and the new ones from there on inserted.
    private mutating func addKeys(section: Int, from first: Int, old: [String?], new: [String?]) {
        let end = max(old.count, new.count)
        var item = first
        while item < end, (item < old.count ? old[item] : nil) == (item < new.count ? new[item] : nil) { item += 1 }
        guard item < end else { return }
        if item < old.count { keyTruncations.append((section, item)) }
        while item < new.count {
            if let key = new[item] { keyInserts.append(KeyRow(section: section, item: item, key: key)) }
            item += 1
        }
    }

    /// The placement chunks that differ from the one holding item `first` on.
    private mutating func addChunks(section: Int, from first: Int, old: TileGridSection<DensePacking>?,
                                    new: TileGridSection<DensePacking>) {
        let newChunks = PlacementChunks.count(forItems: new.count)
        let oldChunks = PlacementChunks.count(forItems: old?.count ?? 0)
        if oldChunks > newChunks {
            chunkTruncations.append((section, newChunks * PlacementChunks.size))
        }
        var chunk = PlacementChunks.chunk(of: first)
        if chunk < newChunks { chunkSections.setValue(new, ofSection: section) }
        while chunk < newChunks {
            if !PlacementChunks.isUnchanged(chunk, old: old, new: new) {
                chunkUpserts.append(ChunkRow(section: section, firstItem: chunk * PlacementChunks.size))
            }
            chunk += 1
        }
    }

    // MARK: Honeycomb

    /// The honeycomb geometry and the placements that differ item by item. (Growing the outer
    /// ring can widen the content, which moves every frame; then every row is rewritten.)
    private mutating func addHoneycomb(old: GridSnapshot?, new: GridSnapshot) {
        if old?.honeycomb != new.honeycomb {
            honeycomb = new.honeycomb.map { .set($0) } ?? .remove
        }
        guard let layout = new.honeycombLayout else { return }
        let previous = old?.honeycombLayout
        let oldFrames = previous?.frames() ?? []
        let oldCells = previous?.cells() ?? []
        let frames = layout.frames()
        let cells = layout.cells()
        for item in 0..<layout.itemCount {
            if item < oldFrames.count && oldFrames[item] == frames[item] && oldCells[item] == cells[item] { continue }
            honeycombUpserts.append(HoneycombRow(item: item, cell: cells[item], frame: frames[item]))
        }
        if oldFrames.count > layout.itemCount {
            honeycombTruncation = layout.itemCount
        }
    }
}
