import GridLayout

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
        try side.store(in: transaction, origin: nil, sending: false)
    }
}
