import GridLayout

extension ReplicatedGrid {
    /// Writes what a change made on this replica did, given as the edits its history entry
    /// keeps, at `stamp`: each edit becomes writes of the registers it touched, on the items
    /// and sections `layout` says were at its index paths. `layout` is this state's layout
    /// before the change, and is kept in step with the edits.
    ///
    /// - Throws: ``GridError/corrupted(_:)`` when an edit names an item or a section that does
    ///   not exist (a history that does not match the grid).
    mutating func record(_ edits: [GridEdit], at stamp: SyncStamp, layout: inout Layout,
                         ids generator: inout some RandomNumberGenerator) throws(GridError) {
        // The state and layout move into the recorder and back, rather than being copied: a
        // copy of a grid's registers for each history entry made syncing 1,000 toggles O(n²).
        var recorder = EditRecorder(state: ReplicatedGrid(), layout: ReplicatedGrid.Layout(content: GridContent(columns: 1, sections: []),
                                                                                            sectionIDs: [], itemIDs: []),
                                    stamp: stamp)
        swap(&recorder.state, &self)
        swap(&recorder.layout, &layout)
        defer {
            swap(&recorder.state, &self)
            swap(&recorder.layout, &layout)
            versions.advance(stamp.replica, to: stamp.time)
        }
        for edit in edits { try recorder.record(edit, ids: &generator) }
    }
}

/// Turns positional edits into register writes; see ``ReplicatedGrid/record(_:at:layout:ids:)``.
private struct EditRecorder {
    var state: ReplicatedGrid
    var layout: ReplicatedGrid.Layout
    let stamp: SyncStamp

    mutating func record(_ edit: GridEdit, ids: inout some RandomNumberGenerator) throws(GridError) {
        switch edit {
        case .size(let path, _, let to):
            state.items[try itemID(at: path)]!.size.write(to, at: stamp)
        case .defaultSize(_, let to):
            state.options.defaultSize.write(to, at: stamp)
        case .columns(_, let to):
            state.options.columns.write(to, at: stamp)
        case .direction(_, let to):
            state.options.direction.write(to, at: stamp)
        case .itemCount(let section, let from, let to, let tail):
            guard section >= 0, section < layout.itemIDs.count, layout.itemIDs[section].count == from else {
                throw mismatch("section \(section) of \(from) items")
            }
            if to > from {
                for offset in 0..<(to - from) {
                    try insertItem(in: section, at: from + offset, size: offset < tail.sizes.count ? tail.sizes[offset] : nil,
                                   key: offset < tail.keys.count ? tail.keys[offset] : nil, ids: &ids)
                }
            } else {
                for item in stride(from: from - 1, through: to, by: -1) {
                    try deleteItem(at: GridIndexPath(item: item, section: section))
                }
            }
        case .insert(let path, let size, let key):
            try insertItem(in: path.section, at: path.item, size: size, key: key, ids: &ids)
        case .delete(let path, _, _):
            try deleteItem(at: path)
        case .move(let from, let to):
            let id = try itemID(at: from)
            guard to.section >= 0, to.section < layout.itemIDs.count, to.item >= 0,
                  to.item <= layout.itemIDs[to.section].count - (to.section == from.section ? 1 : 0) else {
                throw mismatch("item \(to.item) of section \(to.section)")
            }
            layout.itemIDs[from.section].remove(at: from.item)
            keepSectionIfEmptied(from.section)
            let place = try placeForInsertion(in: to.section, at: to.item, ids: &ids)
            state.items[id]!.place.write(place, at: stamp)
            layout.itemIDs[to.section].insert(id, at: to.item)
        case .insertSection(let index, let contents):
            try insertSection(at: index, contents, ids: &ids)
        case .removeSection(let index, _):
            try removeSection(at: index)
        case .key(let path, _, let to):
            state.items[try itemID(at: path)]!.key.write(to, at: stamp)
        case .section(let index, _, let to):
            guard index >= 0, index < layout.itemIDs.count else { throw mismatch("section \(index)") }
            try replaceSection(index, with: to, ids: &ids)
        case .content(_, let to):
            try replaceContent(with: to, ids: &ids)
        }
    }

    // MARK: Items

    private func itemID(at path: GridIndexPath) throws(GridError) -> SyncEntityID {
        guard path.section >= 0, path.section < layout.itemIDs.count, path.item >= 0,
              path.item < layout.itemIDs[path.section].count else {
            throw mismatch("item \(path.item) of section \(path.section)")
        }
        return layout.itemIDs[path.section][path.item]
    }

    private func mismatch(_ what: String) -> GridError {
        .corrupted("the history names \(what), which the grid did not have then")
    }

    /// An id for a new item: its key's, unless an item that exists holds it; else a random one no item has.
    private func newItemID(key: String?, ids: inout some RandomNumberGenerator) -> SyncEntityID {
        if let key {
            let id = SyncEntityID.item(key: key)
            if let item = state.items[id], item.alive.value(or: true), item.place.winner != nil {
                // Taken by an item that exists (it had the key, or was given it and lost it).
            } else {
                return id
            }
        }
        var id = SyncEntityID.random(using: &ids)
        while state.items[id] != nil { id = SyncEntityID.random(using: &ids) }
        return id
    }

    private mutating func insertItem(in section: Int, at index: Int, size: TileSize?, key: String?,
                                     ids: inout some RandomNumberGenerator) throws(GridError) {
        guard section >= 0, section < layout.itemIDs.count, index >= 0, index <= layout.itemIDs[section].count else {
            throw mismatch("item \(index) of section \(section)")
        }
        let id = newItemID(key: key, ids: &ids)
        let place = try placeForInsertion(in: section, at: index, ids: &ids)
        makeItem(id, place: place, size: size, key: key)
        layout.itemIDs[section].insert(id, at: index)
    }

    /// Writes a new item's registers. A random id is new to every replica, so only what
    /// differs from a register never written is written; a key's id may have been an item
    /// before, on any replica, so everything is.
    private mutating func makeItem(_ id: SyncEntityID, place: ReplicatedGrid.Place, size: TileSize?, key: String?) {
        let fresh = key.map { SyncEntityID.item(key: $0) != id } ?? true
        var item = state.items[id] ?? ReplicatedGrid.Item()
        item.place.write(place, at: stamp)
        if size != nil || !fresh { item.size.write(size, at: stamp) }
        if key != nil || !fresh { item.key.write(key, at: stamp) }
        if !fresh { item.alive.write(true, at: stamp) }
        state.items[id] = item
    }

    private mutating func deleteItem(at path: GridIndexPath) throws(GridError) {
        let id = try itemID(at: path)
        state.items[id]!.alive.write(false, at: stamp)
        layout.itemIDs[path.section].remove(at: path.item)
        keepSectionIfEmptied(path.section)
    }

    /// A section removed on another replica stays while an item is placed in it; when this
    /// replica takes its last item out, it has seen the section, so the section is kept.
    private mutating func keepSectionIfEmptied(_ section: Int) {
        guard layout.itemIDs[section].isEmpty, section < layout.sectionIDs.count,
              state.sections[layout.sectionIDs[section]]?.alive.value(or: true) == false else { return }
        state.sections[layout.sectionIDs[section]]!.alive.write(true, at: stamp)
    }

    /// The place for an item inserted at `index` of the laid-out section `section`: between its
    /// neighbours there. Neighbours with one key (inserted at one place on two replicas) get
    /// keys of their own first; a key that would grow too long makes the section's keys be
    /// written again, evenly spaced.
    private mutating func placeForInsertion(in section: Int, at index: Int,
                                            ids: inout some RandomNumberGenerator) throws(GridError) -> ReplicatedGrid.Place {
        let row = layout.itemIDs[section]
        let previous = index > 0 ? state.items[row[index - 1]]!.place.winner!.value : nil
        let next = index < row.count ? state.items[row[index]]!.place.winner!.value : nil
        let sectionID: SyncEntityID
        if !state.isHoneycomb {
            sectionID = layout.sectionIDs[section]
        } else if let neighbour = previous ?? next {
            sectionID = neighbour.section
        } else if let first = layout.sectionIDs.first {
            sectionID = first
        } else {
            sectionID = newSection(order: OrderKey.spaced(0), ids: &ids)
            layout.sectionIDs = [sectionID]
        }
        let lower = previous?.section == sectionID ? previous!.order : nil
        var upper = next?.section == sectionID ? next!.order : nil
        if let lower, let bound = upper, bound <= lower {
            // The items from `index` on that share the previous item's key move up past it.
            var end = index
            while end < row.count, let place = state.items[row[end]]!.place.winner?.value,
                  place.section == sectionID, place.order <= lower {
                end += 1
            }
            let following = end < row.count ? state.items[row[end]]!.place.winner!.value : nil
            upper = following?.section == sectionID ? following!.order : nil
            var key = OrderKey.between(lower, upper)
            let chosen = key
            for position in index..<end {
                key = OrderKey.between(key, upper)
                state.items[row[position]]!.place.write(ReplicatedGrid.Place(section: sectionID, order: key), at: stamp)
            }
            if key.text.count <= OrderKey.maximumLength { return ReplicatedGrid.Place(section: sectionID, order: chosen) }
            return respace(section, sectionID: sectionID, leavingRoomAt: index)
        }
        let key = OrderKey.between(lower, upper)
        if key.text.count <= OrderKey.maximumLength { return ReplicatedGrid.Place(section: sectionID, order: key) }
        return respace(section, sectionID: sectionID, leavingRoomAt: index)
    }

    /// Writes evenly spaced keys for the items of the laid-out section `section` placed in
    /// `sectionID`, leaving the place of `index` free, and returns that place.
    private mutating func respace(_ section: Int, sectionID: SyncEntityID, leavingRoomAt index: Int) -> ReplicatedGrid.Place {
        var position = 0
        var free: OrderKey?
        for (offset, id) in layout.itemIDs[section].enumerated() {
            if offset == index { free = .spaced(position); position += 1 }
            guard state.items[id]!.place.winner?.value.section == sectionID else { continue }
            state.items[id]!.place.write(ReplicatedGrid.Place(section: sectionID, order: .spaced(position)), at: stamp)
            position += 1
        }
        return ReplicatedGrid.Place(section: sectionID, order: free ?? .spaced(position))
    }

    // MARK: Sections

    private mutating func newSection(order: OrderKey, ids: inout some RandomNumberGenerator) -> SyncEntityID {
        var id = SyncEntityID.random(using: &ids)
        while state.sections[id] != nil { id = SyncEntityID.random(using: &ids) }
        var section = ReplicatedGrid.Section()
        section.order.write(order, at: stamp)
        state.sections[id] = section
        return id
    }

    private func sectionOrder(_ index: Int) -> OrderKey {
        state.sections[layout.sectionIDs[index]]!.order.winner!.value
    }

    private mutating func insertSection(at index: Int, _ contents: GridEdit.SectionContents,
                                        ids: inout some RandomNumberGenerator) throws(GridError) {
        guard index >= 0, index <= layout.sectionIDs.count, !state.isHoneycomb else { throw mismatch("section \(index)") }
        let lower = index > 0 ? sectionOrder(index - 1) : nil
        var upper = index < layout.sectionIDs.count ? sectionOrder(index) : nil
        var tooLong = false
        if let lower, let bound = upper, bound <= lower {
            var end = index
            while end < layout.sectionIDs.count, sectionOrder(end) <= lower { end += 1 }
            upper = end < layout.sectionIDs.count ? sectionOrder(end) : nil
            var key = OrderKey.between(lower, upper)
            for position in index..<end {
                key = OrderKey.between(key, upper)
                state.sections[layout.sectionIDs[position]]!.order.write(key, at: stamp)
            }
            tooLong = key.text.count > OrderKey.maximumLength
        }
        var order = OrderKey.between(lower, upper)
        if tooLong || order.text.count > OrderKey.maximumLength {
            // The sections' keys are written again, evenly spaced, leaving the new one's place free.
            for (position, section) in layout.sectionIDs.enumerated() {
                state.sections[section]!.order.write(.spaced(position < index ? position : position + 1), at: stamp)
            }
            order = .spaced(index)
        }
        let id = newSection(order: order, ids: &ids)
        layout.sectionIDs.insert(id, at: index)
        layout.itemIDs.insert([], at: index)
        for (position, size) in contents.sizes.enumerated() {
            try insertItem(in: index, at: position, size: size, key: position < contents.keys.count ? contents.keys[position] : nil, ids: &ids)
        }
    }

    private mutating func removeSection(at index: Int) throws(GridError) {
        guard index >= 0, index < layout.sectionIDs.count, !state.isHoneycomb else { throw mismatch("section \(index)") }
        state.sections[layout.sectionIDs[index]]!.alive.write(false, at: stamp)
        for id in layout.itemIDs[index] { state.items[id]!.alive.write(false, at: stamp) }
        layout.sectionIDs.remove(at: index)
        layout.itemIDs.remove(at: index)
    }

    /// Makes the laid-out section `index` hold `contents`: an item whose key it held keeps its
    /// id, items without keys are matched in order, the rest are deleted or new. Items already
    /// in order keep their places; the others get places between them.
    ///
    /// - Parameters:
    ///   - keyed: The items to match by key, by the key they show: by default the section's own;
    ///     an import matches keys over the whole grid, so an item moved to another section keeps its id.
    ///   - claimed: Items another section of the import takes by key: not deleted here.
    ///   - showing: Every item that shows a key (by default, those of ``keyed``): an item
    ///     matched in order is one without.
    private mutating func replaceSection(_ index: Int, with contents: GridEdit.SectionContents,
                                         keyed: [String: SyncEntityID]? = nil, claimed: Set<SyncEntityID> = [],
                                         showing: Set<SyncEntityID>? = nil, ids: inout some RandomNumberGenerator) throws(GridError) {
        let old = layout.itemIDs[index]
        var byKey = keyed ?? Self.shownKeys(of: state, inSection: index)
        let showing = showing ?? Set(byKey.values)
        var keyless: [SyncEntityID] = []
        for id in old where !showing.contains(id) && !claimed.contains(id) { keyless.append(id) }
        var nextKeyless = 0
        let count = contents.sizes.count
        var reused = [SyncEntityID?](repeating: nil, count: count)
        for position in 0..<count {
            if position < contents.keys.count, let key = contents.keys[position] {
                reused[position] = byKey.removeValue(forKey: key)
            } else if nextKeyless < keyless.count {
                reused[position] = keyless[nextKeyless]
                nextKeyless += 1
            }
        }
        let kept = Set(reused.compactMap { $0 })
        for id in old where !kept.contains(id) && !claimed.contains(id) { state.items[id]!.alive.write(false, at: stamp) }
        let sectionID: SyncEntityID
        if let first = layout.sectionIDs.indices.contains(index) ? layout.sectionIDs[index] : nil {
            sectionID = first
        } else {
            sectionID = newSection(order: OrderKey.spaced(0), ids: &ids)
            layout.sectionIDs = [sectionID]
        }
        // Items already placed in the section in increasing order keep their places.
        var places = [OrderKey?](repeating: nil, count: count)
        var last: OrderKey?
        for position in 0..<count {
            guard let id = reused[position], let place = state.items[id]!.place.winner?.value,
                  place.section == sectionID, last.map({ place.order > $0 }) ?? true else { continue }
            places[position] = place.order
            last = place.order
        }
        var newIDs: [SyncEntityID] = []
        newIDs.reserveCapacity(count)
        var lower: OrderKey?
        var respaced = false
        for position in 0..<count {
            let key = position < contents.keys.count ? contents.keys[position] : nil
            let size = contents.sizes[position]
            let order: OrderKey
            if let kept = places[position] {
                order = kept
            } else {
                let upper = places[(position + 1)...].lazy.compactMap { $0 }.first
                order = OrderKey.between(lower, upper)
                if order.text.count > OrderKey.maximumLength { respaced = true }
            }
            lower = order
            let place = ReplicatedGrid.Place(section: sectionID, order: order)
            if let id = reused[position] {
                if places[position] == nil { state.items[id]!.place.write(place, at: stamp) }
                state.items[id]!.size.update(size, at: stamp, unwritten: nil)
                state.items[id]!.key.update(key, at: stamp, unwritten: nil)
                newIDs.append(id)
            } else {
                let id = newItemID(key: key, ids: &ids)
                makeItem(id, place: place, size: size, key: key)
                newIDs.append(id)
            }
        }
        // Items taken from other sections (an import matches keys over the whole grid) leave them.
        let moved = Set(newIDs).subtracting(old)
        if !moved.isEmpty {
            for other in layout.itemIDs.indices where other != index { layout.itemIDs[other].removeAll { moved.contains($0) } }
        }
        layout.itemIDs[index] = newIDs
        keepSectionIfEmptied(index)
        if respaced {
            for (position, id) in newIDs.enumerated() {
                state.items[id]!.place.write(ReplicatedGrid.Place(section: sectionID, order: .spaced(position)), at: stamp)
            }
        }
    }

    /// The key each item of a laid-out section shows (the one the layout gives it), by key.
    private static func shownKeys(of state: ReplicatedGrid, inSection section: Int? = nil) -> [String: SyncEntityID] {
        let laidOut = state.layout()
        var shown: [String: SyncEntityID] = [:]
        for (index, keys) in laidOut.content.keys.enumerated() where section == nil || section == index {
            for (item, key) in keys.enumerated() { if let key { shown[key] = laidOut.itemIDs[index][item] } }
        }
        return shown
    }

    private mutating func replaceContent(with content: GridContent, ids: inout some RandomNumberGenerator) throws(GridError) {
        let sectionsBefore = layout.sectionIDs
        // Keyed items are matched over the whole grid: one the import moves to another section keeps its id.
        let keyed = Self.shownKeys(of: state)
        let claimed = Set(content.keys.flatMap { $0 }.compactMap { $0.flatMap { keyed[$0] } })
        let showing = Set(keyed.values)
        let defaults = ReplicatedGrid.defaults
        state.options.columns.update(content.columns, at: stamp, unwritten: defaults.columns)
        state.options.direction.update(content.direction, at: stamp, unwritten: defaults.direction)
        state.options.defaultSize.update(content.defaultSize, at: stamp, unwritten: defaults.defaultSize)
        state.options.honeycomb.update(content.honeycomb, at: stamp, unwritten: nil)
        // A honeycomb lays out every item in one section, and tiles lay out sections: the
        // sections are laid out again for the new kind before they are matched.
        layout = state.layout()
        if content.honeycomb != nil {
            // A honeycomb has one section: the others' items move into the first.
            for id in sectionsBefore where id != layout.sectionIDs.first { state.sections[id]!.alive.write(false, at: stamp) }
        }
        func contents(_ section: Int) -> GridEdit.SectionContents {
            GridEdit.SectionContents(sizes: content.sections[section], keys: section < content.keys.count ? content.keys[section] : [])
        }
        let common = min(layout.itemIDs.count, content.sections.count)
        var remaining = keyed
        for section in 0..<content.sections.count {
            // A new section is added empty, then filled as the others are.
            if section >= common { try insertSection(at: section, .plain(0), ids: &ids) }
            let sectionKeys = Set(contents(section).keys.compactMap { $0 })
            let taken = remaining.filter { sectionKeys.contains($0.key) }
            for key in taken.keys { remaining[key] = nil }
            try replaceSection(section, with: contents(section), keyed: taken, claimed: claimed, showing: showing, ids: &ids)
        }
        if layout.itemIDs.count > content.sections.count {
            for section in (content.sections.count..<layout.itemIDs.count).reversed() { try removeSection(at: section) }
        }
    }
}
