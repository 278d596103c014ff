import GridLayout

extension Grid {
    /// What this database knows of every replica's changes to the grid: give it to a peer, which
    /// answers with ``syncBundle(since:)``. ``SyncCursor/empty`` when the grid is not here or never synced here.
    public func syncCursor() throws(GridError) -> SyncCursor {
        try GridError.catching { try database.storageRead { try syncCursor(in: $0) } }
    }

    /// ``syncCursor()`` read in `transaction`.
    func syncCursor(in transaction: any GridStorageTransaction) throws -> SyncCursor {
        guard let header = try transaction.header(named: name)?.header(),
              try transaction.syncState(gridID: header.id) != nil else { return .empty }
        if let current = try SyncSide.current(name, in: transaction) { return SyncCursor(current.versions) }
        return SyncCursor(try SyncSide.prepare(name, in: transaction, minting: false).state.versions)
    }

    /// Everything a peer at `cursor` lacks of the grid, as a bundle for an app's own transport.
    /// The changes made here since the last sync are recorded first, in one transaction.
    ///
    /// - Throws: ``GridError/gridNotFound(_:)``; ``GridError/sync(_:)`` for a database that cannot sync.
    public func syncBundle(since cursor: SyncCursor) throws(GridError) -> SyncBundle {
        try GridError.catching { try database.storageWrite { try syncBundle(since: cursor, in: $0) } }
    }

    /// The bundle ``syncBundle(since:)`` gives, read in `transaction`, which records what it sends.
    func syncBundle(since cursor: SyncCursor, in transaction: any GridStorageTransaction) throws -> SyncBundle {
        if let bundle = try SyncSide.storedBundle(name, since: cursor.versions, in: transaction) { return bundle }
        // A peer that knows more of this grid's own changes than it has: it was restored.
        var side = try SyncSide.prepare(name, in: transaction, minting: true, peer: cursor.versions)
        guard side.stored != nil else { throw GridError.gridNotFound(name) }
        try side.store(in: transaction, origin: nil, sending: true)
        return SyncBundle(grid: side.name, replica: side.replica, cursor: cursor.versions, delta: side.state.changes(since: cursor.versions))
    }

    /// Merges a bundle another replica made (``SyncBundle/encoded()``) into the grid, in one
    /// transaction, creating the grid if it is missing. Applying it again changes nothing.
    ///
    /// - Returns: The grid's revision before and after (the same when nothing changed), and the conflicts held.
    /// - Throws: ``GridError/sync(_:)`` for a bundle refused whole (malformed, from a newer
    ///   format, past the limits, for another grid, stamped too far ahead or as this database's
    ///   own, or of an unrelated grid).
    ///
    /// - Parameters:
    ///   - bytes: The bundle, in either format: an array of bytes, or `Data`.
    ///   - allowingUnrelated: Whether to merge a bundle of the whole grid from replicas this
    ///     grid never synced with, directly or through others, when the two cannot be one grid:
    ///     one a honeycomb and the other tiles, or each with four or more keyed items and no key
    ///     in common. Without it such a bundle is refused (``SyncError/Kind/unrelated``), as
    ///     ``GridDatabase/sync(with:grids:dryRun:allowingUnrelated:)`` refuses such a grid.
    @discardableResult
    public func applySyncBundle(_ bytes: some Collection<UInt8>, allowingUnrelated: Bool = false) throws(GridError) -> GridSyncResult {
        try applySyncBundle(try SyncBundle.decoded(bytes), allowingUnrelated: allowingUnrelated)
    }

    /// Merges `bundle`, already decoded (``SyncBundle/init(decoding:)``), as the form that takes
    /// a bundle's bytes does: for a caller that read the bundle first (to check its grid), so
    /// it is not decoded twice.
    @discardableResult
    public func applySyncBundle(_ bundle: SyncBundle, allowingUnrelated: Bool = false) throws(GridError) -> GridSyncResult {
        try GridError.catching { try database.storageWrite { try applying(bundle, in: $0, allowingUnrelated: allowingUnrelated) } }
    }

    /// What ``applySyncBundle(_:allowingUnrelated:)`` does with a bundle decoded, in `transaction`.
    ///
    /// - Parameter byRows: Whether a bundle of sizes alone may be merged reading only the rows
    ///   it names (``SyncSide/applyByRows(_:grid:in:)``); `false` merges the whole state, for
    ///   tests that compare the two.
    func applying(_ bundle: SyncBundle, in transaction: any GridStorageTransaction, byRows: Bool = true,
                  allowingUnrelated: Bool = false) throws -> GridSyncResult {
        // By rows, the registers as they are read (in order); whole, as a state.
        if byRows, let merged = try SyncSide.applyByRows(bundle, grid: GridLimits.canonical(name), in: transaction) {
            database.mergesByRows.add(1, ordering: .relaxed)
            return GridSyncResult(grid: GridLimits.canonical(name), sent: 0, otherRevision: (nil, nil), received: merged.received,
                                  revision: (merged.revision.before, merged.revision.after), conflicts: merged.conflicts)
        }
        let bundle = bundle.withState()
        var side = try SyncSide.prepare(name, in: transaction, minting: true)
        let dropped = side.stored == nil ? try transaction.syncDrop(named: side.name).flatMap(SyncDrop.init) : nil
        if let drop = dropped {
            // A bundle of a grid dropped here brings it back only with changes made since.
            if drop.covers(VersionVector(bundle.delta.latestTimes())) {
                var result = GridSyncResult(grid: side.name, sent: 0, otherRevision: (nil, nil), received: 0, revision: (nil, nil),
                                            conflicts: 0)
                result.drop = .droppedHere
                return result
            }
            guard bundle.cursor.entries.isEmpty else {
                throw GridError.sync(SyncError(.dropped, "grid '\(SyncError.excerpt(side.name))' was dropped here, and the sync bundle "
                                               + "holds changes made to it since, but not the whole grid: take a bundle since 'none' "
                                               + "to bring it back"))
            }
        }
        // The whole grid from replicas this grid never met, directly or through others, that
        // cannot be the same grid: refused unless asked, as a sync refuses it. A bundle whose
        // sender knows nothing of its cursor's replicas holds all it knows: the whole grid. (A
        // bundle merged by rows changes sizes of tiles this grid holds: it is this grid.)
        if !allowingUnrelated, let stored = side.stored, UnrelatedGrids.neverSynced(bundle.cursor, bundle.versions),
           UnrelatedGrids.neverSynced(side.state.versions, bundle.versions),
           let reason = UnrelatedGrids.reason(here: stored.snapshot.content, there: bundle.delta.layout().content, elsewhere: "in the bundle") {
            throw GridError.sync(SyncError(.unrelated, "grid '\(SyncError.excerpt(side.name))' here and in the bundle never synced with each "
                                           + "other, and cannot be one grid: \(reason); to merge them anyway give --allow-unrelated "
                                           + "(allowingUnrelated in Swift)"))
        }
        let before = side.stored?.snapshot.revision
        let received = try side.merge(bundle)
        let after = try side.store(in: transaction, origin: bundle.replica, originKnows: bundle.versions, sending: false)
        var result = GridSyncResult(grid: side.name, sent: 0, otherRevision: (nil, nil), received: received,
                                    revision: (before, after), conflicts: side.state.conflicts(in: side.layout).count)
        result.leftOut = side.leftOut
        // A grid dropped here, changed by the sender since: back.
        if dropped != nil, after != nil { result.drop = .kept }
        return result
    }
}
