extension Grid {
    /// Checks every grid's sync state (see docs/sync.md), and with `repairing` mends what it can,
    /// in one transaction: a state that cannot be read (the problem says how to get the grid
    /// again from a peer), and values stamped by a device whose clock was fast, which win over
    /// changes made without seeing them until this database's clock catches up; mended by
    /// writing them again, unchanged, at this database's time, which every replica takes.
    ///
    /// A drop recorded for a grid (`sync_drops`) that cannot be read is a problem of that grid's
    /// name too, mended by deleting the row: it dropped nothing on any peer.
    ///
    /// - Parameter names: The grids to check; `nil` for all. A grid that never synced has no problem.
    public static func checkSyncStates(in database: GridDatabase, names: [String]? = nil,
                                       repairing: Bool = false) throws(GridError) -> [SyncStateCheck] {
        let body = { (transaction: any GridStorageTransaction) throws -> [SyncStateCheck] in
            let wanted = try names?.map(GridLimits.canonical) ?? transaction.grids().map(\.name)
            var checks = try wanted.map { name in
                guard let header = try transaction.header(named: name)?.header() else { throw GridError.gridNotFound(name) }
                let found = try SyncSide.check(name, gridID: header.id, in: transaction, database: database, repairing: repairing)
                return SyncStateCheck(grid: name, problems: found.problems, repaired: found.repaired)
            }
            let every = names == nil
            let drops = try every ? transaction.syncDrops(limit: SyncDrop.maximumStored + 1)
                : wanted.compactMap { try transaction.syncDrop(named: $0) }
            let odd = drops.filter { SyncDrop($0) == nil }
            guard !odd.isEmpty else { return checks }
            // Every row read, so the rows kept are named: a name that is not valid UTF-8 cannot be deleted by name.
            let byName = every && drops.count <= SyncDrop.maximumStored
            if repairing {
                if byName {
                    try transaction.deleteSyncDrops(keeping: drops.filter { SyncDrop($0) != nil }.map(\.name))
                } else {
                    for drop in odd { try transaction.deleteSyncDrop(named: drop.name) }
                }
            }
            var index = Dictionary(checks.enumerated().map { (Array($0.element.grid.utf8), $0.offset) }, uniquingKeysWith: { first, _ in first })
            for drop in odd {
                let problem = "the drop recorded for it (sync_drops) is not one gridstore wrote, so it drops it on no peer"
                    + (repairing ? "" : "; 'gridstore check --repair' deletes the row")
                if let at = index[Array(drop.name.utf8)] {
                    checks[at] = SyncStateCheck(grid: drop.name, problems: checks[at].problems + [problem],
                                                repaired: checks[at].problems.isEmpty ? repairing : checks[at].repaired)
                } else {
                    index[Array(drop.name.utf8)] = checks.count
                    checks.append(SyncStateCheck(grid: drop.name, problems: [problem], repaired: repairing))
                }
            }
            return checks
        }
        return try GridError.catching { try repairing ? database.storageWrite(body) : database.storageRead(body) }
    }
}
