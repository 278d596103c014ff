import GridLayout

/// One database's side of a grid's sync, inside one of its transactions: the grid's sync
/// state made current (the changes made here since the last sync recorded as this replica's
/// writes), what bundles from other replicas add to it, and how it is stored again.
struct SyncSide {
    let name: String
    /// The replica the grid's changes here are made as: an id of the grid's own on this
    /// database, minted at its first sync (a grid dropped and made again is another replica), and
    /// again for a copy of the database or one restored from a backup.
    private(set) var replica: ReplicaID
    /// The database's replica id, which ``replica`` was minted under.
    let databaseReplica: ReplicaID
    /// The grid's row id and state in the database; `nil` while the grid is not there.
    var stored: (id: Int64, snapshot: GridSnapshot)?
    var state: ReplicatedGrid
    var clock: HybridClock
    /// The grid the registers describe.
    var layout: ReplicatedGrid.Layout
    /// Whether the state differs from the one stored.
    var isChanged: Bool
    /// The sections and items merged bundles named that this state could not place (see
    /// ``ReplicatedGrid/dropUnplaceable(into:)``), left to a later sync.
    var leftOut = 0
    /// This database's clock when the side was made (a PostgreSQL server's own): what the
    /// stamps it receives are judged by.
    var now: Int64
    /// The registers as stored, which ``store(in:origin:sending:)`` writes only the changes
    /// of; `nil` when none are (every register is written).
    var loaded: ReplicatedGrid?
    /// The replicas the stored registers number.
    var numbers = SyncReplicaNumbers()
    /// The latest sync version a stored register changed at.
    var version: Int64 = 0
    /// The items' ids in order as stored (`sync_item_ids`); `nil` when they may not be.
    var storedItemIDs: [[SyncEntityID]]?
    /// The latest time of this replica's own writes that left the database (`sync_states.sent`);
    /// `nil` when not known.
    var sent: HybridTime?
    /// The name the database's replica row held when read in this side's transaction
    /// (`.some(nil)` for none); `nil` when not read in it.
    var storedName: String?? = nil
    /// The peers the grid met (`sync_states.peers`), as stored: none when not stored or not readable.
    var peers = SyncPeers()

    /// The side of the grid `name` in `transaction`, made current.
    ///
    /// - Parameters:
    ///   - minting: Whether a copy of the database may take a replica id of its own now (not in
    ///     a dry run, which writes nothing: it then syncs as the copy would, without storing it).
    ///   - peer: What the other side of a sync knows. When it knows changes this grid made here
    ///     that this database no longer has (it was restored from a backup, or is a copy), the
    ///     grid takes a new replica id before recording its changes, so none is made twice.
    ///   - clockReference: A server's clock, when the other side is one and this one is not: a
    ///     device whose clock is behind the server's judges what it receives by the server's.
    static func prepare(_ name: String, in transaction: any GridStorageTransaction,
                        minting: Bool, peer: VersionVector? = nil, clockReference: Int64? = nil) throws -> SyncSide {
        let name = GridLimits.canonical(name)
        try GridLimits.validate(name: name)
        let header = try transaction.header(named: name)?.header()
        // Read after the grid's row lock (a server's), which a change may have held while it
        // stored the database's name: the name this side writes is the one it left.
        let context = try transaction.replicaContext()
        let (databaseReplica, storedName) = try currentReplica(context, in: transaction, minting: minting)
        let now = max(context.clock, clockReference ?? .min)
        guard let header else {
            let empty = ReplicatedGrid()
            var side = SyncSide(name: name, replica: ReplicaID.random(), databaseReplica: databaseReplica, stored: nil, state: empty,
                                clock: HybridClock(), layout: empty.layout(), isChanged: false, now: now, sent: .zero)
            side.storedName = .some(storedName)
            return side
        }
        let snapshot = try GridSnapshot.load(header, name: name, from: transaction)
        guard let row = try transaction.syncState(gridID: header.id) else {
            // The grid's first sync, as a replica of its own: the grid as it was made (or as far
            // back as its history reaches), then each kept change after it, at its own time, so
            // grids that began apart merge change by change, as if they had synced from the start.
            let replica = ReplicaID.random()
            let reader = GridHistoryReader(transaction: transaction, gridID: header.id, grid: name, revision: snapshot.revision)
            let made = (try? reader.oldestReachableRevision()).flatMap { oldest in
                oldest < snapshot.revision ? try? GridHistory.state(at: oldest, from: snapshot, with: reader) : nil
            } ?? snapshot
            let origin = ReplicatedGrid(origin: made.content, replica: replica)
            var side = SyncSide(name: name, replica: replica, databaseReplica: databaseReplica, stored: (header.id, snapshot),
                                state: origin, clock: HybridClock(latest: .changedOrigin), layout: origin.layout(), isChanged: true,
                                now: now, sent: .zero)
            side.storedName = .some(storedName)
            // Ids of items a change made follow from the change alone: a copy of the file that
            // never synced either gives them the same.
            try side.recordLocalChanges(since: made.revision, storedAs: "first sync of \(name)", in: transaction, gridID: header.id)
            return side
        }
        guard row.clock >= 0 else { throw GridError.corrupted("grid '\(name)' has a sync clock of \(row.clock)") }
        let (loaded, layout, numbers) = try loadState(row, gridID: header.id, in: transaction, grid: name)
        guard var replica = ReplicaID(row.replica) else {
            throw GridError.corrupted("grid '\(name)' has a sync replica id '\(row.replica.prefix(40))' that is not 32 hexadecimal digits")
        }
        // A replica's clock never goes back, so one whose own changes were stamped by a clock
        // that was fast (a device whose clock has since been put right) goes on as a new
        // replica with a clock of its own; the old one's changes stay, and later ones replace them.
        // A peer that knows more of this replica's changes than ever left here: the database
        // was restored from a backup. The changes made here since the backup's last sync are
        // handed to the new replica, and what is known of the old one goes back to that sync,
        // so the peer sends the changes this database lost.
        var state = loaded
        let sent = row.sent.map(HybridTime.init(rawValue:)) ?? state.versions[replica]
        let restored = peer.map { $0[replica] > sent } ?? false
        if row.databaseReplica != databaseReplica.description || restored || HybridClock.isTooFarAhead(state.versions[replica], now: now) {
            let old = replica
            replica = ReplicaID.random()
            if restored && row.databaseReplica == databaseReplica.description { state.handOver(from: old, after: sent, to: replica) }
        }
        // A stored clock that a change stamped far ahead moved (before gridstore kept such changes
        // from moving it) moves it no more.
        var clock = HybridClock(latest: state.versions[replica])
        clock.observe(HybridTime(rawValue: row.clock), now: now)
        var side = SyncSide(name: name, replica: replica, databaseReplica: databaseReplica, stored: (header.id, snapshot),
                            state: state, clock: clock, layout: restored ? state.layout() : layout,
                            isChanged: replica.description != row.replica, now: now,
                            loaded: loaded, numbers: numbers, version: row.version,
                            storedItemIDs: try StoredSyncItems.all(gridID: header.id, itemCounts: snapshot.itemCounts, in: transaction),
                            // A new replica has sent nothing yet.
                            sent: replica.description == row.replica ? row.sent.map(HybridTime.init(rawValue:)) : .zero)
        side.storedName = .some(storedName)
        // A text gridstore would not write records none: `gridstore check` reports it.
        side.peers = SyncPeers(stored: row) ?? SyncPeers()
        try side.recordLocalChanges(since: Int(row.revision), storedAs: row.replica, in: transaction, gridID: header.id)
        return side
    }

    /// The name the database goes by (``GridDatabase/replicaName()``): the one stored, else the
    /// machine's host name, stored when `storing`, so the database keeps the name of the machine
    /// that first synced it (a hub synced by several servers takes none of theirs in turn);
    /// `nil` when neither can be one.
    ///
    /// - Parameter stored: The name the replica row held, when it was read in this transaction
    ///   (`.some(nil)` for none); `nil` to read it now.
    static func databaseName(in transaction: any GridStorageTransaction, storing: Bool, stored: String?? = nil) throws -> String? {
        // A stored name that cannot be one (written by hand) is taken for none, and replaced.
        let stored = try stored ?? transaction.replicaRow()?.name
        if let stored, SyncError.problem(replicaName: stored) == nil { return stored }
        guard let host = Platform.hostName().map({ String($0.prefix(GridLimits.maximumReplicaNameLength)) }).map(GridLimits.canonical),
              SyncError.problem(replicaName: host) == nil else { return nil }
        if storing { try transaction.setReplicaName(host) }
        return host
    }

    /// Writes `databaseName` as the name this replica goes by, when its register holds another.
    ///
    /// A label, not a change: its stamp moves the replica's clock, not its version, so what a
    /// peer or a drop knows of the grid's changes stays as it was. Every bundle carries every
    /// name the state holds.
    mutating func write(name databaseName: String) {
        guard state.names[replica]?.winner?.value != databaseName else { return }
        let stamp = SyncStamp(time: clock.tick(now: now), replica: replica)
        state.names[replica] = MergeRegister(heads: [.init(value: databaseName, stamp: stamp)], context: [])
        isChanged = true
    }

    /// In a dry run, which stores nothing, this side as the first step made it (the same
    /// replica id and item ids, minted or not), so the last step merges into what the first sent.
    mutating func adopt(_ first: SyncSide) {
        guard first.stored?.id == stored?.id, first.stored?.snapshot.revision == stored?.snapshot.revision else { return }
        // The clock is read now, as the real run's last step reads it.
        let now = self.now
        self = first
        self.now = now
        // Read in the first step's transaction.
        self.storedName = nil
    }

    /// The grid's revision, what its replica knows, its conflicts, and whether it changed since
    /// its last sync; `nil` when it never synced here (or the database is a copy not synced yet).
    /// Read without the registers, which a sync that finds nothing new never decodes.
    static func summary(_ summary: StoredSyncSummary?) -> (revision: Int, versions: String, conflicts: Int, changed: Bool)? {
        guard let summary, summary.replica.isMinted(for: summary.storageIdentity), summary.replica.id == summary.state?.databaseReplica,
              let revision = summary.revision, let row = summary.state, revision >= 0, revision < Int64.max, row.conflicts >= 0,
              SyncVersionsText.decode(row.versions) != nil else {
            return nil
        }
        return (Int(revision), row.versions, Int(row.conflicts), row.revision != revision)
    }

    /// The replica id of the database: the one stored, or a new one for a copy of the
    /// database (its storage is not the one the id was minted for), stored when `minting`
    /// (a dry run syncs as the copy would, and writes nothing).
    static func currentReplica(in transaction: any GridStorageTransaction, database: GridDatabase,
                               minting: Bool) throws -> ReplicaID {
        try currentReplica(transaction.replicaContext(), in: transaction, minting: minting).id
    }

    /// ``currentReplica(in:database:minting:)`` from the replica row and storage identity of
    /// `context`, read in `transaction`, with the name the row holds.
    static func currentReplica(_ context: StoredReplicaContext, in transaction: any GridStorageTransaction,
                               minting: Bool) throws -> (id: ReplicaID, name: String?) {
        guard let row = context.row else { throw GridError.corrupted("the database has no replica id") }
        guard let id = ReplicaID(row.id) else { throw GridError.corrupted("the database's replica id '\(row.id.prefix(40))' is not 32 hexadecimal digits") }
        let identity = context.storageIdentity
        guard !identity.isEmpty, !row.isMinted(for: identity) else { return (id, row.name) }
        let recorded = StoredReplicaRow.recorded(identity)
        if row.storageIdentity.isEmpty {
            if minting { try transaction.setReplicaRow(StoredReplicaRow(id: id.description, storageIdentity: recorded)) }
            return (id, row.name)
        }
        // A copy of another database's file, or a backup restored over a file that sent changes
        // since: it must not make changes as the original.
        let minted = ReplicaID.random()
        if minting { try transaction.setReplicaRow(StoredReplicaRow(id: minted.description, storageIdentity: recorded)) }
        return (minted, row.name)
    }

    /// The registers of a stored state, each checked as a bundle's is, the grid they describe,
    /// and the replicas they number.
    static func loadState(_ row: StoredSyncState, gridID: Int64, in transaction: any GridStorageTransaction,
                          grid: String) throws -> (ReplicatedGrid, ReplicatedGrid.Layout, SyncReplicaNumbers) {
        guard row.revision >= 0, row.clock >= 0, (0..<Int64.max - 1).contains(row.version), let versions = SyncVersionsText.decode(row.versions) else {
            throw GridError.corrupted("grid '\(grid)' has a sync state at revision \(row.revision) with clock \(row.clock) and version \(row.version)")
        }
        let stored = try transaction.syncRegisters(gridID: gridID, changedAfter: 0, limit: ReplicatedGrid.maximumRegisterRows + 1)
        let numbers = try SyncReplicaNumbers(stored: stored.replicas, grid: grid)
        var state = ReplicatedGrid()
        try state.load(stored.registers, replicas: numbers, grid: grid)
        state.versions = versions
        do {
            return (state, try state.validate(), numbers)
        } catch {
            throw GridError.corrupted("grid '\(grid)' has a sync state gridstore cannot read: \(error)")
        }
    }

    /// Records the changes made to the grid since `revision` (when the state was last
    /// stored), from its history: each entry's edits as writes at its own time. When the
    /// history no longer holds them all, the grid as it is now is compared with the state
    /// instead, item by item in order (a move then reads as changes of size).
    ///
    /// The ids of items and sections a change made follow from the change itself (the replica it
    /// was stored as, its revision, time and edits): a copy of the file, or a backup, that records
    /// the same change gives its items the same ids, so the two meet as one item, not two.
    private mutating func recordLocalChanges(since revision: Int, storedAs storedReplica: String,
                                             in transaction: any GridStorageTransaction, gridID: Int64) throws {
        guard let snapshot = stored?.snapshot else { return }
        if snapshot.revision == revision {
            // Every change recorded itself; the registers still describe the grid as stored
            // unless something wrote one without the other (a hand edit of the tiles' ids):
            // the grid as the person sees it is what is recorded then.
            if layout.content != snapshot.content {
                try recordDifference(storedAs: storedReplica)
                storedItemIDs = nil
            }
            return
        }
        let count = snapshot.revision - revision
        let rows = revision < snapshot.revision && count <= GridHistory.maximumKeep
            ? try transaction.historyEntries(gridID: gridID, limit: count, deltas: true) : []
        let complete = rows.count == count && rows.enumerated().allSatisfy { Int($0.element.revision) == snapshot.revision - $0.offset }
        if complete {
            for row in rows.reversed() {
                let entry = try GridHistoryEntry(row, grid: name)
                let edits = try HistoryDelta.decode(row.delta, revision: entry.revision, grid: name)
                try record(edits, madeAt: HistoryClock.milliseconds(of: entry.madeAt) ?? now,
                           ids: EntityIDGenerator(derivedFrom: Array("\(storedReplica)\u{0}\(row.revision)\u{0}\(row.madeAt)\u{0}\(row.actor)\u{0}".utf8)
                                                  + row.delta.utf8))
            }
        }
        try recordDifference(storedAs: storedReplica)
    }

    /// Records `edits`, made at `made` (milliseconds), as this replica's writes, the items and
    /// sections they make taking their ids from `ids`.
    mutating func record(_ edits: [GridEdit], madeAt made: Int64, ids: EntityIDGenerator) throws {
        let stamp = SyncStamp(time: clock.tick(now: min(made, now)), replica: replica)
        var ids = ids
        try state.record(edits, at: stamp, layout: &layout, ids: &ids)
        isChanged = true
    }

    /// Records what still differs between the grid stored and the registers (a change the
    /// history no longer holds, or a key the state gives another item) as a replacement of the content.
    mutating func recordDifference(storedAs storedReplica: String) throws {
        guard let snapshot = stored?.snapshot else { return }
        layout = state.layout()
        if layout.content != snapshot.content {
            // The history is trimmed, or the grid shows a key the state gives another item.
            let stamp = SyncStamp(time: clock.tick(now: now), replica: replica)
            // Without the history, a change made before a copy cannot be told from one made on
            // each side after it: ids of this database's own, so two tiles never become one.
            var ids = EntityIDGenerator(derivedFrom: "\(databaseReplica)\u{0}\(storedReplica)\u{0}\(snapshot.revision)\u{0}\(snapshot.content)".utf8)
            try state.record([.content(from: layout.content, to: snapshot.content)], at: stamp, layout: &layout, ids: &ids)
            layout = state.layout()
        }
        isChanged = true
    }

    // MARK: Merging

    /// Merges what `bundle` brings, after checking it: a change its sender made stamped further
    /// ahead of this database's clock than ``HybridClock/maximumDrift``, or a change stamped as
    /// this replica's but not made here, refuses it whole; so does a grid it would leave past
    /// gridstore's limits. Changes the sender passes on from other replicas were judged by the
    /// database they entered first, and are taken: one device's wrong clock stops no other.
    ///
    /// - Returns: How many of the bundle's registers changed the state: the changes it brought.
    /// - Complexity: O(*n* log *n* + *d*) for the state's *n* items and sections and the bundle's
    ///   *d* registers: the delta is merged register by register, and the state then checked and
    ///   laid out whole (``ReplicatedGrid/validate()``).
    @discardableResult
    mutating func merge(_ bundle: SyncBundle) throws(GridError) -> Int {
        guard bundle.grid == name else { throw .sync(.wrongGrid(bundle.grid, expected: name)) }
        // As a state, made once when the bundle holds its registers in order.
        var delta = bundle.delta
        let latest = delta.latestTimes()
        try Self.checkSender(of: bundle, latest: latest, replica: replica, known: state.versions, now: now)
        if latest[replica] != nil && state.holdsForgedWrite(in: delta, as: replica) { throw .sync(Self.forged(replica)) }
        if !bundle.cursor.isCovered(by: state.versions) { leftOut += delta.dropUnplaceable(into: state) }
        for (id, item) in delta.items {
            for head in item.place.heads where delta.sections[head.value.section]?.order.winner == nil
                && state.sections[head.value.section]?.order.winner == nil {
                throw .sync(SyncError(.malformed, "the sync bundle places item \(id) in section \(head.value.section), which neither it "
                                      + "nor grid '\(name)' has"))
            }
        }
        delta.names = Self.takenNames(of: bundle, replica: replica, known: state.versions, now: now)
        var merged = state
        let changed = merged.merge(delta, exportedSince: bundle.cursor)
        let layout: ReplicatedGrid.Layout
        do {
            layout = try merged.validate()
        } catch {
            throw .sync(SyncError(error.isLimit ? .tooLarge : .malformed, "the sync bundle cannot be merged into grid '\(name)': \(error)"))
        }
        isChanged = isChanged || changed.registers > 0 || state.versions != merged.versions
        state = merged
        self.layout = layout
        for time in latest.values { clock.observe(time, now: now) }
        return changed.values
    }

    /// Refuses a bundle whose sender stamped its own changes further ahead of this database's
    /// clock (`now`) than ``HybridClock/maximumDrift``, or that holds changes stamped as
    /// `replica` (this grid's own) later than `known` says it made any. `latest` is the
    /// bundle's ``ReplicatedGrid/latestTimes()``.
    static func checkSender(of bundle: SyncBundle, latest: [ReplicaID: HybridTime], replica: ReplicaID, known: VersionVector,
                            now: Int64) throws(GridError) {
        // A name's stamp is not judged: it orders the names a replica gave itself, and moves no clock.
        if let own = latest[bundle.replica], HybridClock.isTooFarAhead(own, now: now) {
            let minutes = (own.milliseconds - now) / 60_000
            throw .sync(SyncError(.clockAhead, "the sync bundle holds changes its sender, replica \(bundle.replica), stamped \(minutes) "
                                  + "minutes ahead of this database's clock (at most \(HybridClock.maximumDrift / 60_000) are accepted): "
                                  + "the sender's clock is fast, or this machine's is slow; put the wrong one right and sync again"))
        }
        if let mine = latest[replica], mine > known[replica] { throw .sync(forged(replica)) }
    }

    /// The refusal of a bundle holding a write stamped as `replica`, this grid's own, that it never made.
    static func forged(_ replica: ReplicaID) -> SyncError {
        SyncError(.forged, "the sync bundle holds changes made as this database (replica \(replica)) that it "
                  + "does not have: it was altered, or this database was restored from a backup or copied; "
                  + "after one gridstore sync with the database it came from, this one takes bundles again")
    }

    /// The names of `bundle` a merge takes. Names are labels, taken only where they can do no
    /// harm: never `replica`'s own (only it writes its name), never one stamped too far ahead of
    /// this database's clock (it would hide the replica's later names; it comes again with a
    /// later sync), and only for the sender and replicas whose changes are known.
    static func takenNames(of bundle: SyncBundle, replica: ReplicaID, known: VersionVector,
                           now: Int64) -> [ReplicaID: MergeRegister<String>] {
        bundle.names.filter { named, name in
            named != replica && !HybridClock.isTooFarAhead(name.latestTime, now: now)
                && (named == bundle.replica || bundle.versions[named] > .zero || known[named] > .zero)
        }
    }

    // MARK: Storing

    /// Writes the grid the state describes (as one change, a merge naming `origin`, when it
    /// differs from the stored grid) and the state.
    ///
    /// - Parameters:
    ///   - origin: The replica whose changes were merged, for the history; `nil` for none.
    ///   - originKnows: What `origin` knows, when it is a peer met in a sync or the maker of a
    ///     bundle: the state then records it among the grid's peers (``SyncPeers``).
    ///   - sending: Whether this replica's writes are about to leave the database (a
    ///     sync, an exported bundle): the state then records them as sent, and the storage
    ///     marks the send (``GridStorageTransaction/recordSend()``).
    /// - Returns: The grid's revision after.
    @discardableResult
    mutating func store(in transaction: any GridStorageTransaction, origin: ReplicaID?, originKnows: VersionVector? = nil,
                        sending: Bool) throws -> Int? {
        let meeting = originKnows.flatMap { knows in origin.map { (replica: $0, knows: knows) } }.flatMap { $0.replica == replica ? nil : $0 }
        let storedVersion = version
        // The database's name goes with this replica's changes when they leave (a sync, an
        // exported bundle); a dry run, which stores nothing, writes none.
        if sending, stored != nil || !state.items.isEmpty || !state.sections.isEmpty,
           let databaseName = try Self.databaseName(in: transaction, storing: true, stored: storedName) {
            storedName = .some(databaseName)
            write(name: databaseName)
        }
        if sending, sent != state.versions[replica] {
            sent = state.versions[replica]
            isChanged = true
            try transaction.recordSend()
        }
        // A peer met writes a state that is otherwise unchanged only when its record changes
        // more than when it was met (what it holds is counted once, when the state is written).
        if let meeting, !isChanged, let id = stored?.id {
            let held = try heldVersion(by: meeting.knows, latest: state.latestTimes(), newEntry: nil) {
                try transaction.syncVersionLog(gridID: id).filter { $0.version <= storedVersion }
            }
            if peers.isNews(meeting.replica, holding: held, at: now) { isChanged = true }
        }
        var id: Int64
        var revision: Int
        if let (storedID, snapshot) = stored {
            (id, revision) = (storedID, snapshot.revision)
            if layout.content != snapshot.content {
                // The grid as this side read it in this transaction: not read again.
                guard let header = try transaction.header(named: name)?.header() else { throw GridError.gridNotFound(name) }
                let old = header.id == storedID && header.revision == snapshot.revision
                    ? snapshot : try GridSnapshot.load(header, name: name, from: transaction)
                id = header.id
                let record = HistoryRecord(kind: .merge, operation: "sync from \(origin.map { state.replicaLabel($0) } ?? "a bundle")")
                let target = layout.content
                let edited = try GridEditor.edit(old, seenAs: nil) { try SyncSide.edit(&$0, to: target) }
                stored!.snapshot = try GridRevisionWriter.write((edited.snapshot, edited.changes, edited.edits), from: old, gridID: id,
                                                               grid: name, record: record, keep: header.historyKeep, in: transaction) ?? old
                revision = stored!.snapshot.revision
                isChanged = true
            }
        } else {
            guard !state.items.isEmpty || !state.sections.isEmpty else { return nil }
            let snapshot = try GridSnapshot(name: name, revision: 0, content: layout.content)
            id = try transaction.insertGrid(named: name, GridChangeSet(inserting: snapshot))
            stored = (id, snapshot)
            revision = 0
            isChanged = true
        }
        if isChanged {
            try state.checkLimits(grid: name, replica: replica)
            // A state written anew numbers only the replicas it names.
            let replacing = loaded == nil || numbers.count > SyncBundle.maximumReplicas
            if replacing { numbers = SyncReplicaNumbers() }
            let (registers, removed) = state.rows(changedFrom: replacing ? nil : loaded, version: version + 1, numbers: &numbers)
            var log: StoredSyncVersion?
            let latest = meeting != nil || replacing || !registers.isEmpty || !removed.isEmpty ? state.latestTimes() : [:]
            if replacing || !registers.isEmpty || !removed.isEmpty {
                version += 1
                log = StoredSyncVersion(version: version, versions: SyncVersionsText.encode(VersionVector(latest)))
            }
            let row = StoredSyncState(replica: replica.description, databaseReplica: databaseReplica.description,
                                      revision: Int64(revision), clock: clock.latest.rawValue, versions: SyncVersionsText.encode(state.versions),
                                      conflicts: Int64(state.conflicts(in: layout).count), version: version, sent: sent?.rawValue)
            let itemIDs = storedItemIDs == layout.itemIDs ? nil : Self.itemIDChunks(layout.itemIDs, gridID: id)
            var write = StoredSyncWrite(state: row, replacing: replacing, replicas: numbers.takeAdded(),
                                        registers: registers, removed: removed, log: log, itemIDs: itemIDs)
            if let meeting {
                // A state written anew keeps only its own entry of the log.
                let held = try heldVersion(by: meeting.knows, latest: latest, newEntry: log) {
                    replacing ? [] : try transaction.syncVersionLog(gridID: id).filter { $0.version <= storedVersion }
                }
                if peers.isNews(meeting.replica, holding: held, at: now) {
                    peers.meet(meeting.replica, holding: held, at: now)
                    write.peers = peers.text
                }
            }
            try transaction.writeSyncState(write, gridID: id)
            loaded = state
            storedItemIDs = layout.itemIDs
            isChanged = false
        }
        return revision
    }

    /// The latest of this state's sync versions (``version``) whose registers a peer that
    /// knows `knows` holds: this one when it knows every write they hold (`latest`, from
    /// ``ReplicatedGrid/latestTimes()``), else the latest entry of the versions log it covers:
    /// `newEntry`, the one written now, or those `storedLog` reads (an entry past the version
    /// stored before is not one gridstore wrote, and is left out by the caller).
    private func heldVersion(by knows: VersionVector, latest: [ReplicaID: HybridTime], newEntry: StoredSyncVersion?,
                             storedLog: () throws -> [StoredSyncVersion]) throws -> Int64 {
        if VersionVector(latest).isCovered(by: knows) { return version }
        return SyncPeers.version(heldBy: knows, log: (newEntry.map { [$0] } ?? []) + (try storedLog()))
    }

    /// The items' ids as `sync_item_ids` stores them: chunks of consecutive items of a section,
    /// each sealed for its place in the grid `gridID` (``SyncItemIDSeal``).
    static func itemIDChunks(_ ids: [[SyncEntityID]], gridID: Int64) -> [StoredSyncItemIDs] {
        var chunks: [StoredSyncItemIDs] = []
        for (section, items) in ids.enumerated() {
            for first in stride(from: 0, to: items.count, by: StoredSyncItemIDs.chunkSize) {
                var text = ""
                text.reserveCapacity(16 * StoredSyncItemIDs.chunkSize)
                for id in items[first..<min(items.count, first + StoredSyncItemIDs.chunkSize)] { text += id.description }
                chunks.append(StoredSyncItemIDs(section: section, firstItem: first,
                                                ids: SyncItemIDSeal.sealed(text, gridID: gridID, section: section, firstItem: first)))
            }
        }
        return chunks
    }

    /// The grid's revision ``store(in:origin:sending:)`` would leave; `nil` when there would be no grid.
    var revisionAfterStoring: Int? {
        guard let stored else { return state.items.isEmpty && state.sections.isEmpty ? nil : 0 }
        return stored.snapshot.revision + (layout.content != stored.snapshot.content ? 1 : 0)
    }

    /// Edits that turn the editor's grid into `target`: settings and sizes one by one when
    /// the items stay as they are, else the whole content.
    static func edit(_ editor: inout GridEditor, to target: GridContent) throws {
        let current = editor.snapshot.content
        guard current.honeycomb == nil, target.honeycomb == nil, current.keys == target.keys,
              current.sections.map(\.count) == target.sections.map(\.count) else {
            try editor.replaceContent(target)
            return
        }
        if current.columns != target.columns { try editor.setColumns(target.columns) }
        if current.direction != target.direction { try editor.setDirection(target.direction) }
        if current.defaultSize != target.defaultSize { try editor.setDefaultSize(target.defaultSize) }
        var sizes: [(GridIndexPath, TileSize?)] = []
        for (section, items) in target.sections.enumerated() {
            for (item, size) in items.enumerated() where current.sections[section][item] != size {
                sizes.append((GridIndexPath(item: item, section: section), size))
            }
        }
        if !sizes.isEmpty { try editor.setSizes(sizes) }
    }
}

extension GridError {
    /// Whether the error is a limit gridstore enforces (too many items or sections).
    var isLimit: Bool {
        if case .limitExceeded = self { return true }
        return false
    }
}

extension ReplicatedGrid {
    /// Whether `delta` holds a write stamped as `replica`'s, or says it saw one, that this
    /// state (`replica`'s own) never knew: only `replica` makes its writes, so it knows them all.
    func holdsForgedWrite(in delta: ReplicatedGrid, as replica: ReplicaID) -> Bool {
        func forged<Value>(_ incoming: MergeRegister<Value>, _ known: MergeRegister<Value>?) -> Bool {
            let time = incoming.knownTime(of: replica)
            return time > .zero && time > (known?.knownTime(of: replica) ?? .zero)
        }
        if forged(delta.options.columns, options.columns) || forged(delta.options.direction, options.direction)
            || forged(delta.options.defaultSize, options.defaultSize) || forged(delta.options.honeycomb, options.honeycomb) {
            return true
        }
        for (id, section) in delta.sections where forged(section.order, sections[id]?.order) || forged(section.alive, sections[id]?.alive) {
            return true
        }
        for (id, item) in delta.items {
            let known = items[id]
            if forged(item.place, known?.place) || forged(item.size, known?.size) || forged(item.key, known?.key)
                || forged(item.alive, known?.alive) {
                return true
            }
        }
        return false
    }

    /// For each replica, the latest time of its writes in the registers and the versions: what
    /// it knows of the grid's changes. The replicas' names are labels, not changes, and are left out.
    ///
    /// - Complexity: O(*n* · *c*) for the *n* items and sections and the *c* context entries of a register.
    func latestTimes() -> [ReplicaID: HybridTime] {
        var latest = LatestTimes(versions)
        latest.collect(options)
        for section in sections.values { latest.collect(section.order); latest.collect(section.alive) }
        for item in items.values { latest.collect(item) }
        return latest.times
    }
}

/// A version vector as the `versions` column stores it: `<replica>:<time>` entries, comma-separated.
enum SyncVersionsText {
    static func encode(_ versions: VersionVector) -> String {
        // Appended one by one: `joined(separator:)` cost a process about 128,000 instructions at
        // its first use (callgrind, a synced toggle).
        var text = ""
        for (replica, time) in versions.entries.sorted(by: { $0.key < $1.key }) {
            if !text.isEmpty { text += "," }
            text += "\(replica):\(time.rawValue)"
        }
        return text
    }

    /// `replica`'s time in `text` (``HybridTime/zero`` when it has no entry), read without
    /// building a vector; `nil` for text that is not as ``encode(_:)`` writes it: refused by
    /// ``decode(_:)``, or with its entries out of ascending order of replica.
    ///
    /// A change to a synced grid reads and writes its own entry this way: the first dictionary
    /// keyed by ``ReplicaID`` a process makes costs the Swift runtime a search for the
    /// conformance (about 200,000 instructions, a sixth of what recording a toggle costs).
    static func time(of replica: ReplicaID, in text: String) -> HybridTime? {
        var previous: ReplicaID?
        var found = HybridTime.zero
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) where !text.isEmpty {
            guard let (id, time) = parse(entry), previous.map({ $0 < id }) ?? true else { return nil }
            previous = id
            if id == replica { found = time }
        }
        return found
    }

    /// `text`, which ``time(of:in:)`` read, with `replica`'s entry advanced to `time`: what
    /// ``encode(_:)`` writes for the vector `text` holds advanced so.
    static func advancing(_ replica: ReplicaID, to time: HybridTime, in text: String) -> String {
        var result = ""
        var pending: (ReplicaID, HybridTime)? = (replica, time)
        func append(_ id: ReplicaID, _ time: HybridTime) {
            if !result.isEmpty { result += "," }
            result += "\(id):\(time.rawValue)"
        }
        for entry in text.split(separator: ",") {
            guard let (id, stored) = parse(entry) else { continue }
            if let (own, advanced) = pending, own <= id {
                pending = nil
                if own == id {
                    append(id, max(stored, advanced))
                    continue
                }
                append(own, advanced)
            }
            append(id, stored)
        }
        if let (own, advanced) = pending { append(own, advanced) }
        return result
    }

    /// One `<replica>:<time>` entry; `nil` for one ``encode(_:)`` does not write.
    private static func parse(_ entry: Substring) -> (ReplicaID, HybridTime)? {
        let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let replica = ReplicaID(String(parts[0])), let time = Int64(parts[1]), time > 0 else { return nil }
        return (replica, HybridTime(rawValue: time))
    }

    /// The vector; `nil` for text ``encode(_:)`` does not write.
    static func decode(_ text: String) -> VersionVector? {
        var entries: [ReplicaID: HybridTime] = [:]
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) where !text.isEmpty {
            guard let (replica, time) = parse(entry), entries.updateValue(time, forKey: replica) == nil else { return nil }
        }
        return VersionVector(entries)
    }
}
