extension GridDatabase {
    /// The most grids dropped after they synced that a sync of every grid reads from one database.
    static let maximumSyncDrops = 100_000

    /// The names whose recorded drops differ between this database and `other`: a sync of every
    /// grid carries each one, whether or not either side still has a grid of the name.
    func differingSyncDrops(with other: GridDatabase) throws -> Set<String> {
        let drops = try [self, other].map { database in
            try database.storageRead { transaction in
                Dictionary(try transaction.syncDrops(limit: Self.maximumSyncDrops).map { ($0.name, $0.versions) },
                           uniquingKeysWith: { first, _ in first })
            }
        }
        return Set(drops[0].keys).union(drops[1].keys).filter { drops[0][$0] != drops[1][$0] }
    }

    /// Carries a drop of the grid `name` that either side recorded to the other, and drops the
    /// grid on each side whose grid it covers (its changes made since its last sync recorded
    /// first, so a change made here after the drop keeps it), each side in one transaction.
    ///
    /// - Returns: `nil` when neither side recorded a drop; else on which side the grid was
    ///   dropped (a dry run: would be), with the drop as both now record it.
    func carrySyncDrop(of name: String, with other: GridDatabase, stored: [StoredSyncSummary?],
                       dryRun: Bool) throws -> (dropped: [Bool], drop: SyncDrop)? {
        let drops = stored.map { $0?.drop.flatMap(SyncDrop.init) }
        guard var drop = drops[0] ?? drops[1] else { return nil }
        if let first = drops[0], let second = drops[1] {
            drop = first
            drop.absorb(second)
        }
        let record = drop.stored(named: name)
        var dropped = [false, false]
        for (index, database) in [self, other].enumerated() {
            // Only a grid whose stored state the drop covers can be the grid dropped.
            let candidate = stored[index]?.revision != nil
                && stored[index]?.state.flatMap { SyncVersionsText.decode($0.versions) }.map(drop.covers) == true
            guard candidate || (!dryRun && stored[index]?.drop != record) else { continue }
            dropped[index] = try database.access(dryRun) { transaction in
                var covered = false
                if candidate {
                    let side = try SyncSide.prepare(name, in: transaction, database: database, minting: !dryRun)
                    covered = side.stored != nil && drop.covers(side.state.versions)
                    if covered, !dryRun { _ = try transaction.deleteGrid(named: name) }
                }
                if !dryRun, stored[index]?.drop != record { try transaction.writeSyncDrop(record) }
                return covered
            }
        }
        return (dropped, drop)
    }
}
