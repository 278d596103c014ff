import GridLayout

extension ReplicatedGrid {
    /// The registers whose values differ from `old`'s, as changes from `old` to this state:
    /// what a change of a synced grid wrote (see ``RegisterChange``). Items and sections follow
    /// in the order of their ids.
    ///
    /// - Complexity: O(*n* log *n*) for the *n* items and sections of this state.
    func registerChanges(from old: ReplicatedGrid) -> [RegisterChange] {
        var changes: [RegisterChange] = []
        func note(_ entity: SyncEntityID?, _ before: RegisterChange.Value, _ after: RegisterChange.Value) {
            if before != after { changes.append(RegisterChange(entity: entity, before: before, after: after)) }
        }
        let defaults = Self.defaults
        note(nil, .columns(old.options.columns.value(or: defaults.columns)), .columns(options.columns.value(or: defaults.columns)))
        note(nil, .direction(old.options.direction.value(or: defaults.direction)), .direction(options.direction.value(or: defaults.direction)))
        note(nil, .defaultSize(old.options.defaultSize.value(or: defaults.defaultSize)),
             .defaultSize(options.defaultSize.value(or: defaults.defaultSize)))
        note(nil, .honeycomb(old.options.honeycomb.value(or: nil)), .honeycomb(options.honeycomb.value(or: nil)))
        for (id, section) in sections.sorted(by: { $0.key < $1.key }) {
            let before = old.sections[id]
            if before == section { continue }
            guard let order = section.order.winner?.value else { continue }
            guard let was = before?.order.winner?.value else {
                // A section the change made: undo removes it, redo brings it back.
                if section.alive.value(or: true) { note(id, .sectionAlive(false), .sectionAlive(true)) }
                continue
            }
            note(id, .sectionOrder(was), .sectionOrder(order))
            note(id, .sectionAlive(before!.alive.value(or: true)), .sectionAlive(section.alive.value(or: true)))
        }
        for (id, item) in items.sorted(by: { $0.key < $1.key }) {
            let before = old.items[id]
            if before == item { continue }
            guard let place = item.place.winner?.value else { continue }
            guard let was = before?.place.winner?.value else {
                // An item the change made: undo deletes it, redo brings it back.
                if item.alive.value(or: true) { note(id, .alive(false), .alive(true)) }
                continue
            }
            note(id, .place(was), .place(place))
            note(id, .size(before!.size.value(or: nil)), .size(item.size.value(or: nil)))
            note(id, .key(before!.key.value(or: nil)), .key(item.key.value(or: nil)))
            note(id, .alive(before!.alive.value(or: true)), .alive(item.alive.value(or: true)))
        }
        return changes
    }

    /// The value the register of `like` holds now, as the grid shows it; `nil` when its item or
    /// section is not in the state.
    func currentValue(like value: RegisterChange.Value, of entity: SyncEntityID?) -> RegisterChange.Value? {
        let defaults = Self.defaults
        switch value {
        case .columns: return .columns(options.columns.value(or: defaults.columns))
        case .direction: return .direction(options.direction.value(or: defaults.direction))
        case .defaultSize: return .defaultSize(options.defaultSize.value(or: defaults.defaultSize))
        case .honeycomb: return .honeycomb(options.honeycomb.value(or: nil))
        case .sectionOrder, .sectionAlive:
            guard let entity, let section = sections[entity], let order = section.order.winner?.value else { return nil }
            if case .sectionOrder = value { return .sectionOrder(order) }
            return .sectionAlive(section.alive.value(or: true))
        case .place, .size, .key, .alive:
            guard let entity, let item = items[entity], let place = item.place.winner?.value else { return nil }
            switch value {
            case .place: return .place(place)
            case .size: return .size(item.size.value(or: nil))
            case .key: return .key(item.key.value(or: nil))
            default: return .alive(item.alive.value(or: true))
            }
        }
    }

    /// Writes `value` to its register of `entity` at `stamp`.
    private mutating func write(_ value: RegisterChange.Value, of entity: SyncEntityID?, at stamp: SyncStamp) {
        switch value {
        case .columns(let columns): options.columns.write(columns, at: stamp)
        case .direction(let direction): options.direction.write(direction, at: stamp)
        case .defaultSize(let size): options.defaultSize.write(size, at: stamp)
        case .honeycomb(let honeycomb): options.honeycomb.write(honeycomb, at: stamp)
        case .sectionOrder(let order): sections[entity!]!.order.write(order, at: stamp)
        case .sectionAlive(let alive): sections[entity!]!.alive.write(alive, at: stamp)
        case .place(let place): items[entity!]!.place.write(place, at: stamp)
        case .size(let size): items[entity!]!.size.write(size, at: stamp)
        case .key(let key): items[entity!]!.key.write(key, at: stamp)
        case .alive(let alive): items[entity!]!.alive.write(alive, at: stamp)
        }
    }

    /// Takes `changes` back (writing each register's value before where it still holds the
    /// value after), or with `redo` makes them again (the value after where it holds the value
    /// before), at `stamp`. A register another write changed since keeps that change; one that
    /// holds the change's value is taken back, whoever wrote that value last (a peer that
    /// deleted the tile too does not keep it deleted). A tile deleted since keeps its place, size
    /// and key as they are, unless the change brings it back first. A place in a section the
    /// state does not hold (a text edited by hand) is not written.
    ///
    /// - Returns: How many registers were written.
    /// - Complexity: O(*c*) for the *c* changes.
    @discardableResult
    mutating func takeBack(_ changes: [RegisterChange], redo: Bool, at stamp: SyncStamp) -> Int {
        var written = 0
        for change in redo ? changes : changes.reversed() {
            let (from, to) = redo ? (change.before, change.after) : (change.after, change.before)
            guard from != to, currentValue(like: to, of: change.entity) == from else { continue }
            // A tile deleted since keeps its values: only its existence is taken back.
            if let id = change.entity, items[id]?.alive.value(or: true) == false {
                guard case .alive(_) = to else { continue }
            }
            if case .place(let place) = to, sections[place.section]?.order.winner == nil { continue }
            write(to, of: change.entity, at: stamp)
            written += 1
        }
        if written > 0 { versions.advance(stamp.replica, to: stamp.time) }
        return written
    }
}
