/// What ``Grid/checkSyncStates(in:names:repairing:)`` found in one grid's sync state.
public struct SyncStateCheck: Codable, Sendable, Hashable {
    /// The grid's name.
    public let grid: String
    /// What is wrong, as sentences; empty when nothing is.
    public let problems: [String]
    /// Whether the problems were mended.
    public let repaired: Bool
}

extension Grid {
    /// Checks every grid's sync state (see docs/sync.md), and with `repairing` mends what it can,
    /// in one transaction: a state that cannot be read (the problem says how to get the grid
    /// again from a peer), and values stamped by a device whose clock was fast, which win over
    /// changes made without seeing them until this database's clock catches up; mended by
    /// writing them again, unchanged, at this database's time, which every replica takes.
    ///
    /// - Parameter names: The grids to check; `nil` for all. A grid that never synced has no problem.
    public static func checkSyncStates(in database: GridDatabase, names: [String]? = nil,
                                       repairing: Bool = false) throws(GridError) -> [SyncStateCheck] {
        let body = { (transaction: any GridStorageTransaction) throws -> [SyncStateCheck] in
            let wanted = try names?.map(GridLimits.canonical) ?? transaction.grids().map(\.name)
            return try wanted.map { name in
                guard let header = try transaction.header(named: name)?.header() else { throw GridError.gridNotFound(name) }
                let found = try SyncSide.check(name, gridID: header.id, in: transaction, database: database, repairing: repairing)
                return SyncStateCheck(grid: name, problems: found.problems, repaired: found.repaired)
            }
        }
        return try GridError.catching { try repairing ? database.storageWrite(body) : database.storageRead(body) }
    }
}

extension SyncSide {
    /// What `gridstore check` finds in a grid's sync state: a state that cannot be read, and
    /// values stamped by a clock that was fast, which win over every change made without seeing
    /// them until this database's clock catches up. With `repairing`, those values are written
    /// again, unchanged, by this grid's replica at this database's time (the sync state alone
    /// changes; the grid keeps its revision); a state that cannot be read is not mended here,
    /// and the problem says how to get the grid again from a peer.
    ///
    /// - Returns: The problems, as sentences, and whether they were mended.
    static func check(_ name: String, gridID: Int64, in transaction: any GridStorageTransaction, database: GridDatabase,
                      repairing: Bool) throws -> (problems: [String], repaired: Bool) {
        guard let row = try transaction.syncState(gridID: gridID) else { return ([], false) }
        let now = try transaction.clockMilliseconds()
        let limit = HybridTime(milliseconds: now + HybridClock.maximumDrift)
        let ahead: (count: Int, latest: HybridTime)
        do {
            ahead = try loadState(row, gridID: gridID, in: transaction, grid: name).0.values(stampedAfter: limit)
        } catch {
            return (["its sync state cannot be read (\(error)); to take the grid again from a peer, drop it here and sync with the "
                     + "peer (changes made here since the last sync are lost)"], false)
        }
        guard ahead.count > 0 else { return ([], false) }
        let minutes = (ahead.latest.milliseconds - now + 59_999) / 60_000
        let problem = "\(ahead.count) value(s) of its sync state are stamped up to \(minutes) minute(s) ahead of this database's "
            + "clock, by a device whose clock was fast: until then they win over changes made without seeing them"
        guard repairing else { return ([problem + "; 'gridstore check --repair' writes them again at this database's time"], false) }
        var side = try prepare(name, in: transaction, database: database, minting: true)
        let stamp = SyncStamp(time: side.clock.tick(now: now), replica: side.replica)
        side.state.restamp(after: limit, at: stamp)
        side.state.versions.advance(side.replica, to: stamp.time)
        side.isChanged = true
        try side.store(in: transaction, database: database, origin: nil, sending: false)
        return ([problem], true)
    }
}

extension ReplicatedGrid {
    /// How many registers hold a write stamped after `limit`, and the latest such stamp.
    func values(stampedAfter limit: HybridTime) -> (count: Int, latest: HybridTime) {
        var found = (count: 0, latest: HybridTime.zero)
        func visit<Value>(_ register: MergeRegister<Value>) {
            guard let time = register.heads.lazy.map(\.stamp.time).max(), time > limit else { return }
            found.count += 1
            found.latest = max(found.latest, time)
        }
        visit(options.columns); visit(options.direction); visit(options.defaultSize); visit(options.honeycomb)
        for section in sections.values { visit(section.order); visit(section.alive) }
        for item in items.values { visit(item.place); visit(item.size); visit(item.key); visit(item.alive) }
        return found
    }

    /// Writes every register holding a write stamped after `limit` again, with the value it
    /// shows, at `stamp`: a write that has seen the others, so it replaces them on every replica.
    mutating func restamp(after limit: HybridTime, at stamp: SyncStamp) {
        func visit<Value>(_ register: inout MergeRegister<Value>) {
            guard let winner = register.winner, register.heads.contains(where: { $0.stamp.time > limit }) else { return }
            register.write(winner.value, at: stamp)
        }
        visit(&options.columns); visit(&options.direction); visit(&options.defaultSize); visit(&options.honeycomb)
        for id in sections.keys { visit(&sections[id]!.order); visit(&sections[id]!.alive) }
        for id in items.keys { visit(&items[id]!.place); visit(&items[id]!.size); visit(&items[id]!.key); visit(&items[id]!.alive) }
    }
}
