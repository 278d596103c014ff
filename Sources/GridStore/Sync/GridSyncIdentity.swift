import GridLayout

/// Who a grid's sections and items are to sync: each one's sync id and its place among the
/// others, as ``GridDocument`` carries them (`"sync":{"id":…,"order":…}`).
///
/// A document exported from a grid that syncs carries them; imported into a database where
/// the grid has no sync state, the grid starts its sync state with them, so it syncs with the
/// exporter's peers item by item, as the same items: every change a peer made wins over the
/// document's values, which are the grid as it was taken, not changes.
public struct GridSyncIdentity: Sendable, Hashable {
    /// One section's or item's sync id (16 hexadecimal digits) and order key.
    public struct Entry: Sendable, Hashable {
        public var id: String
        public var order: String

        public init(id: String, order: String) {
            self.id = id
            self.order = order
        }
    }

    /// The sections', in order.
    public var sections: [Entry]
    /// Each section's items', in order.
    public var items: [[Entry]]
    /// The grid's revision they are of; `nil` when not known (read from a document).
    public var revision: Int?

    public init(sections: [Entry], items: [[Entry]], revision: Int? = nil) {
        self.sections = sections
        self.items = items
        self.revision = revision
    }

    /// What is wrong with the identity for `content`, as a sentence; `nil` when nothing is: an
    /// entry for every section and item of a grid of tiles, each id and order key well formed,
    /// no id twice, and a section's items (and the sections) in the order of their keys, then
    /// ids (two replicas that appended at once give two tiles one key).
    func problem(for content: GridContent) -> String? {
        guard content.honeycomb == nil else { return "a honeycomb's document carries no sync ids" }
        guard sections.count == content.sections.count, items.map(\.count) == content.sections.map(\.count) else {
            return "it gives sync ids for \(items.map(\.count)) items in \(sections.count) sections, not for every item of the grid"
        }
        var seen = Set<SyncEntityID>()
        for list in [sections] + items {
            var previous: (order: OrderKey, id: SyncEntityID)?
            for entry in list {
                guard let id = SyncEntityID(entry.id) else { return "'\(SyncError.excerpt(entry.id))' is not a sync id (16 hexadecimal digits)" }
                guard seen.insert(id).inserted else { return "sync id \(entry.id) is given twice" }
                guard let order = OrderKey(entry.order) else { return "'\(SyncError.excerpt(entry.order))' is not an order key" }
                if let previous, !(previous < (order, id)) {
                    return "the order keys of a section's items must ascend, ties by id ('\(entry.order)' after '\(previous.order)')"
                }
                previous = (order, id)
            }
        }
        return nil
    }
}

extension ReplicatedGrid {
    /// The state of a grid taken from a document carrying `identity`, as `replica`: its
    /// sections and items with the document's ids and places, every value written at
    /// ``HybridTime/origin``, so every change a peer made wins over them.
    init(taking content: GridContent, identity: GridSyncIdentity, replica: ReplicaID) {
        let stamp = SyncStamp(time: .origin, replica: replica)
        if content.columns != Self.defaults.columns { options.columns.write(content.columns, at: stamp) }
        if content.direction != Self.defaults.direction { options.direction.write(content.direction, at: stamp) }
        if content.defaultSize != Self.defaults.defaultSize { options.defaultSize.write(content.defaultSize, at: stamp) }
        for (index, entry) in identity.sections.enumerated() {
            let sectionID = SyncEntityID(entry.id)!
            var section = Section()
            section.order.write(OrderKey(entry.order)!, at: stamp)
            sections[sectionID] = section
            let keys = index < content.keys.count ? content.keys[index] : []
            for (position, item) in identity.items[index].enumerated() {
                var register = Item()
                register.place.write(Place(section: sectionID, order: OrderKey(item.order)!), at: stamp)
                if let size = content.sections[index][position] { register.size.write(size, at: stamp) }
                if !keys.isEmpty, let key = keys[position] { register.key.write(key, at: stamp) }
                items[SyncEntityID(item.id)!] = register
            }
        }
        versions.advance(replica, to: .origin)
    }

    /// The identity of the grid the registers describe, as a document carries it.
    func identity(in layout: Layout) -> GridSyncIdentity {
        GridSyncIdentity(
            sections: layout.sectionIDs.map { GridSyncIdentity.Entry(id: $0.description, order: sections[$0]!.order.winner!.value.description) },
            items: layout.itemIDs.map { ids in
                ids.map { GridSyncIdentity.Entry(id: $0.description, order: items[$0]!.place.winner!.value.order.description) }
            })
    }
}

extension Grid {
    /// The sync ids and places of the grid's sections and items, for a document
    /// (``GridDocument/encode(_:syncIdentity:)``); `nil` when the grid never synced here, or is a honeycomb.
    public func syncIdentity() throws(GridError) -> GridSyncIdentity? {
        try GridError.catching {
            try database.storageRead { transaction in
                guard let header = try transaction.header(named: name)?.header(), header.honeycomb == nil,
                      try transaction.syncState(gridID: header.id) != nil else { return nil }
                let side = try SyncSide.prepare(name, in: transaction, database: database, minting: false)
                var identity = side.state.identity(in: side.layout)
                identity.revision = side.stored?.snapshot.revision
                return identity
            }
        }
    }

    /// Replaces the grid's settings and sizes with a document's, as ``replaceContent(_:)``
    /// does, in one transaction, creating the grid if it is missing. When the document carries
    /// a ``GridSyncIdentity`` and the grid has no sync state here, the grid's sync state starts
    /// with it: the grid then syncs with the exporter's peers as the same sections and items.
    ///
    /// - Throws: ``GridError`` as ``replaceContent(_:)`` does; ``GridError/sync(_:)`` of kind
    ///   ``SyncError/Kind/malformed`` for an identity that does not fit the content.
    @discardableResult
    public func importDocument(_ document: GridDocument.Decoded, operation: String? = nil) throws(GridError) -> GridSnapshot {
        if let identity = document.syncIdentity, let problem = identity.problem(for: document.content) {
            throw .sync(SyncError(.malformed, "the document's sync ids do not fit its grid: \(problem)"))
        }
        let result = try GridError.catching {
            try database.storageWrite { transaction -> (Int64, GridSnapshot) in
                let header = try transaction.header(named: name)?.header()
                let synced = try header.map { try transaction.syncState(gridID: $0.id) != nil } ?? false
                var seen: GridSnapshot?
                let changed = try change(in: transaction, record: HistoryRecord(operation: operation), caching: false, seen: &seen) { editor, _, _ in
                    try editor.replaceContent(document.content)
                }
                if let identity = document.syncIdentity, !synced {
                    try SyncSide.take(changed.1, identity: identity, gridID: changed.0, in: transaction, database: database)
                }
                return changed
            }
        }
        return result.1
    }
}

extension SyncSide {
    /// Starts the sync state of the grid `snapshot` from a document's identity, as a new replica.
    static func take(_ snapshot: GridSnapshot, identity: GridSyncIdentity, gridID: Int64, in transaction: any GridStorageTransaction,
                     database: GridDatabase) throws {
        let replica = ReplicaID.random()
        let state = ReplicatedGrid(taking: snapshot.content, identity: identity, replica: replica)
        var side = SyncSide(name: snapshot.name, replica: replica,
                            databaseReplica: try currentReplica(in: transaction, database: database, minting: true),
                            stored: (gridID, snapshot), state: state, clock: HybridClock(latest: .origin), layout: try state.validate(),
                            isChanged: true, now: try transaction.clockMilliseconds(), sent: .zero)
        try side.store(in: transaction, database: database, origin: nil, sending: false)
    }
}
