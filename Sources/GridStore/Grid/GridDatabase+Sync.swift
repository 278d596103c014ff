import GridLayout

/// What a sync of one grid moved, each way.
public struct GridSyncResult: Sendable, Equatable {
    /// The grid's name.
    public let grid: String
    /// The changes (values) this database sent the other that it did not have, and the grid's
    /// revision there before and after.
    public let sent: Int
    public let otherRevision: (before: Int?, after: Int?)
    /// The changes this database received that it did not have, and the grid's revision here
    /// before and after.
    public let received: Int
    public let revision: (before: Int?, after: Int?)
    /// The values a concurrent change overwrote, kept as conflicts, after the sync.
    public let conflicts: Int
    /// Whether the two grids had never synced and were unrelated (see
    /// ``GridDatabase/syncEach(with:grids:dryRun:allowingUnrelated:)``), merged as asked:
    /// ``revision``'s `before` is the layout to revert to.
    public var mergedUnrelated = false
    /// What the sync did with a grid one side had dropped; `nil` when neither had.
    public var drop: GridSyncDrop?
    /// The tiles and sections a bundle changed that this database does not hold, and so did not
    /// take: the bundle was made for a state of the grid this database no longer has (it was
    /// restored from a backup since). A sync with the database the bundle came from brings them
    /// with what they need. 0 for a two-way sync, which sends what the other side lacks.
    public var leftOut = 0

    public static func == (lhs: GridSyncResult, rhs: GridSyncResult) -> Bool {
        lhs.grid == rhs.grid && lhs.sent == rhs.sent && lhs.received == rhs.received && lhs.conflicts == rhs.conflicts
            && lhs.revision == rhs.revision && lhs.otherRevision == rhs.otherRevision && lhs.mergedUnrelated == rhs.mergedUnrelated
            && lhs.drop == rhs.drop && lhs.leftOut == rhs.leftOut
    }
}

/// What a sync did with a grid that one side had dropped after it took part in sync
/// (docs/sync.md, "Dropping a grid").
public enum GridSyncDrop: String, Sendable, Equatable, Codable {
    /// The other database had dropped the grid, and the grid here held no change the drop did
    /// not know: it is dropped here too (or stays dropped, for a bundle).
    case droppedHere = "here"
    /// This database had dropped the grid, and the other's held no change the drop did not
    /// know: it is dropped there too.
    case droppedThere = "there"
    /// One side had dropped the grid, and the other held changes made since: the grid is kept,
    /// and is back where it was dropped.
    case kept
}

/// How one grid's sync ended: synced, with what moved, or refused, with why.
public enum GridSyncOutcome: Sendable {
    case synced(GridSyncResult)
    /// The grid is unchanged on both sides.
    case refused(grid: String, error: GridError)

    /// The grid's name.
    public var grid: String {
        switch self {
        case .synced(let result): result.grid
        case .refused(let grid, _): grid
        }
    }
}

extension GridDatabase {
    /// The database's id as a sync replica (see ``ReplicaID``): what a copy of it is told apart
    /// by. Each grid's changes are made as a replica of its own (``Grid/syncReplicaID()``).
    ///
    /// A copy of an SQLite file takes an id of its own the first time it is asked for one, or syncs.
    public func replicaID() throws(GridError) -> ReplicaID {
        try GridError.catching {
            let (stored, current) = try storageRead { transaction in
                (try transaction.replicaRow().flatMap { ReplicaID($0.id) },
                 try SyncSide.currentReplica(in: transaction, database: self, minting: false))
            }
            guard stored != current else { return current }
            return try storageWrite { try SyncSide.currentReplica(in: $0, database: self, minting: true) }
        }
    }

    /// Syncs grids with `other`, both ways: each ends with every change either made, merged
    /// by the rules of docs/sync.md, and a second sync moves nothing.
    ///
    /// Each grid is synced on its own, and one that cannot sync does not stop the others:
    /// this throws the first grid's refusal once every grid has been tried. Call
    /// ``syncEach(with:grids:dryRun:)`` to learn how each grid's sync ended.
    ///
    /// - Parameters:
    ///   - grids: The grids to sync; `nil` for every grid either database holds.
    ///   - dryRun: Whether to only say what would move, writing nothing.
    /// - Throws: ``GridError/sync(_:)`` when the databases are one; the first grid's refusal.
    public func sync(with other: GridDatabase, grids: [String]? = nil, dryRun: Bool = false,
                     allowingUnrelated: Bool = false) throws(GridError) -> [GridSyncResult] {
        var results: [GridSyncResult] = []
        var firstRefusal: GridError?
        for outcome in try syncEach(with: other, grids: grids, dryRun: dryRun, allowingUnrelated: allowingUnrelated) {
            switch outcome {
            case .synced(let result): results.append(result)
            case .refused(_, let error): firstRefusal = firstRefusal ?? error
            }
        }
        if let firstRefusal { throw firstRefusal }
        return results
    }

    /// Syncs grids with `other`, both ways, each on its own, and says how each one's sync ended.
    ///
    /// Each grid's sync writes each side in one transaction of its own, this side's changes
    /// recorded first: a sync cut short leaves each database as it was before or after its
    /// part, and running it again completes it. This side commits only after `other` has; when
    /// `other` is a database of this machine (not a server), its transaction runs on a thread of
    /// gridstore's, and commits while this side merges what it sent back. A grid that cannot
    /// sync (its bundle refused, a limit passed, a database busy) is reported as ``GridSyncOutcome/refused(grid:error:)``,
    /// its grid unchanged on both sides (a side may have recorded its own changes for sync),
    /// and the next grid is synced.
    ///
    /// - Parameters:
    ///   - grids: The grids to sync, in order; `nil` for every grid either database holds, by name.
    ///   - dryRun: Whether to only say what would move, writing nothing.
    ///   - allowingUnrelated: Whether to merge grids that never synced with each other and
    ///     cannot be one grid: one a honeycomb and the other tiles, or each with four or more
    ///     keyed items and no key in common. Without it such a grid is refused (``SyncError/Kind/unrelated``), as
    ///     git refuses to merge unrelated histories.
    ///   - willSync: Called with each grid's name, its index and the count of grids, before its
    ///     sync begins (for a progress report).
    /// - Throws: ``GridError/sync(_:)`` when the databases are one; ``GridError/storage(_:)``
    ///   when either was opened to be read only and this is not a dry run (nothing is written
    ///   to either); an error listing the grids of either database.
    public func syncEach(with other: GridDatabase, grids: [String]? = nil, dryRun: Bool = false,
                         allowingUnrelated: Bool = false,
                         willSync: (_ grid: String, _ index: Int, _ count: Int) -> Void = { _, _, _ in }) throws(GridError) -> [GridSyncOutcome] {
        // Grids stored under a name in another form than NFC (a hand edit, or an older gridstore),
        // with the database they are in: Swift's `==` takes such a name for the composed one, so
        // the grid would be left out without a word. Each is refused on its own.
        var uncomposed: [(name: String, location: String)] = []
        let names: [String] = try GridError.catching {
            if try isSameDatabase(as: other) {
                throw GridError.sync(SyncError(.sameDatabase, "\(location) and \(other.location) are one database; sync needs two"))
            }
            // Refused before either side is written.
            if !dryRun {
                try refuseIfReadOnly()
                try other.refuseIfReadOnly()
            }
            if let grids { return grids.map(GridLimits.canonical) }
            // Each side's grids and recorded drops, in one read.
            let listed = try [self, other].map { database in
                try database.storageRead { transaction in
                    (grids: try transaction.listGrids().map(\.name),
                     drops: Dictionary(try transaction.syncDrops(limit: SyncDrop.maximumStored).map { ($0.name, $0) },
                                       uniquingKeysWith: { first, _ in first }))
                }
            }
            for (database, list) in zip([self, other], listed) {
                for name in list.grids where !GridLimits.isCanonical(name) { uncomposed.append((name, database.location)) }
            }
            let grids = Set(listed.flatMap(\.grids).filter(GridLimits.isCanonical))
            // A drop one side recorded reaches the other even where neither has the grid now.
            if !dryRun {
                let rows = listed.map(\.drops)
                let differing = Set(rows[0].keys).union(rows[1].keys).filter { rows[0][$0] != rows[1][$0] && !grids.contains($0) }
                try carrySyncDrops(named: differing, rows: rows, with: other)
            }
            return grids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        let refused = uncomposed.map { grid in
            GridSyncOutcome.refused(grid: grid.name, error: .corrupted(
                "grid '\(TextExcerpt.abbreviated(grid.name))' in \(grid.location) has a name not in the composed form (NFC) "
                    + "gridstore writes names in, which no call reaches"))
        }
        return refused + names.enumerated().compactMap { index, name in
            willSync(name, index, names.count)
            do throws(GridError) {
                return try GridError.catching {
                    try syncGrid(name, with: other, dryRun: dryRun, allowingUnrelated: allowingUnrelated)
                }.map(GridSyncOutcome.synced)
            } catch {
                return .refused(grid: name, error: error)
            }
        }
    }

    /// - Returns: `nil` when neither side has the grid, and none was dropped: a drop carried alone.
    private func syncGrid(_ name: String, with other: GridDatabase, dryRun: Bool, allowingUnrelated: Bool) throws -> GridSyncResult? {
        let summaries = {
            try [self, other].map { database in
                try database.storageReadStatement { try $0.syncSummary(named: GridLimits.canonical(name)) }
            }
        }
        var stored = try summaries()
        // A grid dropped on one side: dropped on the other unless it changed since; else kept on both.
        var drop: GridSyncDrop?
        if let carried = try carrySyncDrop(of: GridLimits.canonical(name), with: other, stored: stored, dryRun: dryRun) {
            let had = stored.map { $0?.revision != nil }
            let kept = [had[0] && !carried.dropped[0], had[1] && !carried.dropped[1]]
            if !kept[0] && !kept[1] || dryRun && carried.dropped.contains(true) {
                guard carried.dropped.contains(true) else { return nil }
                let revisions = stored.map { $0?.revision.map(Int.init) }
                var result = GridSyncResult(grid: GridLimits.canonical(name), sent: 0,
                                            otherRevision: (revisions[1], carried.dropped[1] ? nil : revisions[1]),
                                            received: 0, revision: (revisions[0], carried.dropped[0] ? nil : revisions[0]), conflicts: 0)
                result.drop = carried.dropped[0] ? .droppedHere : .droppedThere
                return result
            }
            if carried.dropped[0] || carried.dropped[1] {
                // Dropped on one side, and another grid of the name made since on the other.
                drop = carried.dropped[0] ? .droppedHere : .droppedThere
            } else if let lacking = [0, 1].first(where: { !had[$0] && stored[$0]?.drop.flatMap(SyncDrop.init) != nil }),
                      carried.revived[1 - lacking] {
                // Dropped on one side, changed on the other since: back where it was dropped.
                drop = .kept
            }
            if carried.dropped.contains(true) || stored.contains(where: { $0?.drop.flatMap(SyncDrop.init) != carried.drop }) {
                stored = try summaries()
            }
        }
        // Two replicas that know the same changes, neither changed since it last synced: nothing to move.
        let quiet = SyncSide.summary(stored[0]), peer = SyncSide.summary(stored[1])
        if let quiet, let peer, !quiet.changed, !peer.changed, quiet.versions == peer.versions {
            return GridSyncResult(grid: GridLimits.canonical(name), sent: 0, otherRevision: (peer.revision, peer.revision), received: 0,
                                  revision: (quiet.revision, quiet.revision), conflicts: quiet.conflicts)
        }
        let unrelated = try unrelatedness(of: name, with: other, known: stored.map { $0?.state?.versions })
        if let unrelated, !allowingUnrelated {
            throw GridError.sync(SyncError(.unrelated, "grid '\(SyncError.excerpt(GridLimits.canonical(name)))' here and in \(other.location) "
                                           + "never synced with each other, and cannot be one grid: \(unrelated); to merge them anyway "
                                           + "give --allow-unrelated (allowingUnrelated in Swift), or sync one under another name"))
        }
        // A server's clock is a reference for a device's side, whose clock may be behind it: the
        // one its summary was read with.
        func reference(_ server: GridDatabase, _ summary: StoredSyncSummary?, for device: GridDatabase) throws -> Int64? {
            guard server.backend.hasOwnClock, !device.backend.hasOwnClock else { return nil }
            return try summary?.clock ?? server.storageRead { try $0.clockMilliseconds() }
        }
        let hereReference = try reference(other, stored[1], for: self)
        let thereReference = try reference(self, stored[0], for: other)
        // This side's changes since the last sync become its writes, stored before any leaves.
        // A state current on both sides is read by rows: only what the other side lacks.
        let peerVersions = peer.flatMap { SyncVersionsText.decode($0.versions) }
        // What each side's stored state knows, whether or not it is current.
        let knows = stored.map { $0?.state.flatMap { SyncVersionsText.decode($0.versions) } }
        // A copy that has not synced as itself yet (`Grid.copy`, a file copy) holding changes of
        // this side's replica that this side lacks: this database was restored from a backup.
        // (A copy knowing more than this side sent, but no more than it has, is a copy made
        // before this side's changes left, not a sign of a restore.)
        let restoredBeforeCopy: VersionVector? = {
            guard peerVersions == nil, let ours = stored[0]?.state.flatMap({ ReplicaID($0.replica) }), let known = knows[0],
                  let theirs = knows[1], theirs[ours] > known[ours] else { return nil }
            return theirs
        }()
        // A peer that may have been restored from a backup in place (this side knows more of its
        // replica's changes than it sent) hands its lost changes to a new replica as it prepares:
        // it is sent what it lacks from this side's whole state, since what it knows then.
        let peerMayBeRestored: Bool = {
            guard let row = stored[1]?.state, let theirs = ReplicaID(row.replica), let peerVersions, let known = knows[0] else { return true }
            return known[theirs] > (row.sent.map(HybridTime.init(rawValue:)) ?? peerVersions[theirs])
        }()
        let outgoing: (bundle: SyncBundle?, side: SyncSide?) = try access(dryRun) { transaction in
            if !dryRun, !peerMayBeRestored, let peerVersions,
               let bundle = try SyncSide.storedBundle(GridLimits.canonical(name), since: peerVersions, in: transaction) {
                return (bundle, nil)
            }
            var side = try SyncSide.prepare(name, in: transaction, minting: !dryRun,
                                            peer: peerVersions ?? restoredBeforeCopy, clockReference: hereReference)
            if !dryRun, side.stored != nil { try side.store(in: transaction, origin: nil, sending: true) }
            return (nil, side)
        }
        // What this side knows, its replica, and whether it has the grid.
        let hereVersions = outgoing.side?.state.versions ?? outgoing.bundle!.versions
        let hereReplica = outgoing.side?.replica ?? outgoing.bundle!.replica
        // The other side: made current, given what it lacks, stored; what this side lacks. On a
        // thread of its own, handing its reply over before it commits.
        typealias There = (sent: Int, reply: SyncBundle, before: Int?, after: Int?)
        func otherSide(_ transaction: any GridStorageTransaction) throws -> There {
            if !dryRun { try Self.recordStorageIdentity(of: stored[1], in: transaction) }
            if !dryRun, let bundle = outgoing.bundle,
               let answer = try SyncSide.answerByRows(bundle, grid: GridLimits.canonical(name), peer: hereVersions, in: transaction,
                                                      clockReference: thereReference) {
                other.mergesByRows.add(1, ordering: .relaxed)
                return (sent: answer.result.received, reply: answer.reply, before: Optional(answer.result.revision.before),
                        after: Optional(answer.result.revision.after))
            }
            var side = try SyncSide.prepare(name, in: transaction, minting: !dryRun, peer: hereVersions,
                                            clockReference: thereReference)
            let before = side.stored?.snapshot.revision
            let cursor = side.state.versions
            let sent = outgoing.bundle
                ?? SyncBundle(grid: side.name, replica: hereReplica, cursor: cursor, delta: outgoing.side!.state.changes(since: cursor))
            let taken = try side.merge(sent)
            let after = dryRun ? side.revisionAfterStoring
                : try side.store(in: transaction, origin: hereReplica, originKnows: sent.versions, sending: true)
            let reply = SyncBundle(grid: side.name, replica: side.replica, cursor: hereVersions, delta: side.state.changes(since: hereVersions))
            return (sent: taken, reply: reply, before: before, after: after)
        }
        // A server's commit is a round trip that may stall: this side's lock, which other writers
        // of this database wait for, is taken only after it, and the server's side runs on this
        // thread. A database of this machine commits on a thread of its own while this side merges.
        let awaitingCommit = other.backend.hasOwnClock
        let otherTransaction = HandOver<There>(onThisThread: awaitingCommit) { handOver in
            try other.access(dryRun) { transaction in
                let there = try otherSide(transaction)
                handOver(there)
                return there
            }
        }
        // The other side's thread never outlives the sync (an error it ends with after this
        // side's own is not the one reported).
        defer { _ = try? otherTransaction.end() }
        var (there, handOver) = try awaitingCommit ? otherTransaction.end() : otherTransaction.value()
        guard outgoing.bundle != nil || outgoing.side?.stored != nil || there.before != nil else {
            throw GridError.gridNotFound(GridLimits.canonical(name))
        }
        struct StaleReply: Error {}
        // The other side's failure, passed through this side's transaction untouched: a backend
        // that runs a transaction again for its own transient failures must not for the other's.
        struct OtherSideFailed: Error { var error: any Error }
        // This side again: its changes since the first step recorded, then what the other sent;
        // again with the reply the other side committed, when it ran its transaction again.
        while true {
            do {
                return try thisSideAgain(with: there)
            } catch is StaleReply {
                (there, handOver) = try otherTransaction.end()
            } catch let failed as OtherSideFailed {
                throw failed.error
            }
        }
        func thisSideAgain(with there: There) throws -> GridSyncResult {
            return try access(dryRun) { transaction in
                if !dryRun { try Self.recordStorageIdentity(of: stored[0], in: transaction) }
                var result: GridSyncResult
                if !dryRun, let applied = try SyncSide.applyByRows(there.reply, grid: GridLimits.canonical(name), in: transaction,
                                                                    clockReference: hereReference) {
                    mergesByRows.add(1, ordering: .relaxed)
                    result = GridSyncResult(grid: GridLimits.canonical(name), sent: there.sent, otherRevision: (there.before, there.after),
                                            received: applied.received, revision: (applied.revision.before, applied.revision.after),
                                            conflicts: applied.conflicts)
                } else {
                    var side: SyncSide
                    if !dryRun, let reused = try outgoing.side?.reused(in: transaction, clockReference: hereReference) {
                        side = reused
                    } else {
                        side = try SyncSide.prepare(name, in: transaction, minting: !dryRun, clockReference: hereReference)
                        if dryRun, let first = outgoing.side { side.adopt(first) }
                    }
                    let before = side.stored?.snapshot.revision
                    let received = try side.merge(there.reply)
                    let after = dryRun ? side.revisionAfterStoring
                        : try side.store(in: transaction, origin: there.reply.replica, originKnows: there.reply.versions, sending: true)
                    result = GridSyncResult(grid: side.name, sent: there.sent, otherRevision: (there.before, there.after),
                                            received: received, revision: (before, after),
                                            conflicts: side.state.conflicts(in: side.layout).count)
                }
                result.mergedUnrelated = unrelated != nil
                result.drop = drop
                // Committed only once the other side has: what this side records of it holds.
                let ended: Int
                do { ended = try otherTransaction.end().number } catch { throw OtherSideFailed(error: error) }
                guard ended == handOver else { throw StaleReply() }
                return result
            }
        }
    }

    /// Writes the replica row again with the storage's identity now when it was recorded by an
    /// earlier gridstore in a shorter form that still names it (a file's device and inode,
    /// without its birth time), so that a copy on a freed inode number is told apart from then on.
    private static func recordStorageIdentity(of summary: StoredSyncSummary?, in transaction: any GridStorageTransaction) throws {
        guard let summary, Self.recordsShorterIdentity(summary.replica, for: summary.storageIdentity) else { return }
        // Read again: a send in an earlier step of this sync records its mark with the row.
        let context = try transaction.replicaContext()
        guard let row = context.row, Self.recordsShorterIdentity(row, for: context.storageIdentity) else { return }
        // The mark of the latest send stays the one recorded, which the storage's marks hold.
        let mark = StoredReplicaRow.split(row.storageIdentity).mark.map { "#" + $0 } ?? ""
        try transaction.setReplicaRow(StoredReplicaRow(id: row.id, storageIdentity: String(StoredReplicaRow.split(context.storageIdentity).storage) + mark))
    }

    /// Whether `row` was minted for the storage whose identity is `identity`, recorded in a shorter form.
    private static func recordsShorterIdentity(_ row: StoredReplicaRow, for identity: String) -> Bool {
        row.isMinted(for: identity) && StoredReplicaRow.split(row.storageIdentity).storage != StoredReplicaRow.split(identity).storage
    }

    /// Why the grid `name` here and in `other` cannot be one grid, when they never synced with
    /// each other (``UnrelatedGrids``). `nil` when they can, or one side lacks it.
    ///
    /// - Parameter known: What each side's stored state knows (`versions`), a copy's too: a copy
    ///   of a database is related to its original.
    private func unrelatedness(of name: String, with other: GridDatabase, known versions: [String?]) throws -> String? {
        let known = versions.map { $0.flatMap(SyncVersionsText.decode) ?? VersionVector() }
        guard UnrelatedGrids.neverSynced(known[0], known[1]) else { return nil }
        let grids = try [self, other].map { database in
            try database.storageRead { transaction -> GridContent? in
                guard let header = try transaction.header(named: GridLimits.canonical(name))?.header() else { return nil }
                return try GridSnapshot.load(header, name: GridLimits.canonical(name), from: transaction).content
            }
        }
        guard let here = grids[0], let there = grids[1] else { return nil }
        return UnrelatedGrids.reason(here: here, there: there, elsewhere: "there")
    }

    /// `body` in a write transaction, or in a read transaction for a dry run. A lock held past
    /// the wait limit names this database: a sync has two, and the user must know which is busy.
    func access<T>(_ dryRun: Bool, _ body: (any GridStorageTransaction) throws -> T) throws -> T {
        do {
            return dryRun ? try storageRead(body) : try storageWrite(body)
        } catch {
            let failure: GridStorageFailure? = switch error {
            case GridError.storage(let failure): failure
            case is GridError: nil
            default: GridStorageFailure(error)
            }
            guard failure?.kind == .busy else { throw error }
            throw GridError.storage(GridStorageFailure(kind: .busy, message: "\(location) is busy: another process or connection "
                                                        + "kept it locked for longer than gridstore waits; try again"))
        }
    }
}
