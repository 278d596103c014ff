extension GridDatabase {
    /// Carries the drops of grids that neither side has now, each side in one transaction: both
    /// end recording every drop either could read, so a drop passes through a database that
    /// never had the grid. A row that cannot be read is left where it is, and carried nowhere.
    func carrySyncDrops(named names: Set<String>, rows: [[String: StoredSyncDrop]], with other: GridDatabase) throws {
        let union = names.compactMap { name -> StoredSyncDrop? in
            let drops = [rows[0][name], rows[1][name]].compactMap { $0.flatMap(SyncDrop.init) }
            guard var drop = drops.first else { return nil }
            for more in drops.dropFirst() { drop.absorb(more) }
            return drop.stored(named: name)
        }
        for (index, database) in [self, other].enumerated() {
            let writes = union.filter { rows[index][$0.name] != $0 }
            if writes.isEmpty { continue }
            try database.storageWrite { transaction in
                for drop in writes { try transaction.writeSyncDrop(drop) }
            }
        }
    }

    /// Carries a drop of the grid `name` that either side recorded to the other, and drops the
    /// grid on each side whose grid it covers (its changes made since its last sync recorded
    /// first, so a change made after the drop keeps it), each side in one transaction. A covered
    /// grid is not dropped when the other side holds the grid changed since the drop (it came
    /// back): the two merge, as any two replicas of a grid do.
    ///
    /// - Returns: `nil` when neither side recorded a drop it can read; else on which side the
    ///   grid was dropped (a dry run: would be), on which it came back since the drop, and the drop.
    func carrySyncDrop(of name: String, with other: GridDatabase, stored: [StoredSyncSummary?],
                       dryRun: Bool) throws -> (dropped: [Bool], revived: [Bool], drop: SyncDrop)? {
        let drops = stored.map { $0?.drop.flatMap(SyncDrop.init) }
        guard var drop = drops[0] ?? drops[1] else { return nil }
        if let first = drops[0], let second = drops[1] {
            drop = first
            drop.absorb(second)
        }
        let record = drop.stored(named: name)
        // What each side's grid knows, as stored; a grid that changed since the drop came back.
        let known = stored.map { summary in summary?.revision == nil ? nil : summary?.state.flatMap { SyncVersionsText.decode($0.versions) } }
        let revived = known.map { known in
            known.map { !drop.covers($0) && $0.entries.keys.contains { drop.versions[$0] > .zero } } ?? false
        }
        var dropped = [false, false]
        for (index, database) in [self, other].enumerated() {
            // Only a grid whose stored state the drop covers can be the grid dropped.
            let candidate = known[index].map(drop.covers) == true && !revived[1 - index]
            guard candidate || (!dryRun && stored[index]?.drop != record) else { continue }
            dropped[index] = try database.access(dryRun) { transaction in
                var covered = false
                if candidate {
                    covered = try Self.knowledge(ofGrid: name, in: transaction, minting: !dryRun).map(drop.covers) ?? false
                    if covered, !dryRun { _ = try transaction.deleteGrid(named: name) }
                }
                if !dryRun, stored[index]?.drop != record { try transaction.writeSyncDrop(record) }
                return covered
            }
        }
        return (dropped, revived, drop)
    }

    /// What the grid `name` knows of every replica's changes, its changes made since its last
    /// sync recorded first; `nil` when the grid is not there. A state stored current is taken
    /// from its row, without reading its registers: a grid that shrank from a million tiles
    /// holds millions, which a drop of it has no need to read.
    private static func knowledge(ofGrid name: String, in transaction: any GridStorageTransaction,
                                  minting: Bool) throws -> VersionVector? {
        if let current = try SyncSide.current(GridLimits.canonical(name), in: transaction) { return current.versions }
        let side = try SyncSide.prepare(name, in: transaction, minting: minting)
        return side.stored == nil ? nil : side.state.versions
    }
}
