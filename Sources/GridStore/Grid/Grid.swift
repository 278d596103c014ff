import GridLayout

/// A named grid in a gridstore database: its settings, sections, tile sizes and packed
/// placements, changed only in whole transactions.
///
/// Every change runs in one transaction that holds the grid's lock (SQLite's write lock, or
/// the grid's row lock on PostgreSQL) while it reads the grid's current
/// state, applies the change, re-packs from the first item it affects, writes only the
/// sizes and placement chunks that differ, and increments the grid's revision. A change
/// that is refused or fails leaves the grid exactly as it was, revision included. The
/// stored placements always equal a fresh pack of the stored sizes.
///
/// A `Grid` keeps the last state it read and reuses it while the stored revision is
/// unchanged, so repeated operations do not re-read the whole grid; changes by other
/// connections and processes are seen at the next call.
///
/// ```swift
/// let database = try GridDatabase(path: "/tmp/grids.sqlite")
/// let grid = try Grid(named: "default", in: database)    // if missing, created at first use: 12 small items
/// let snapshot = try grid.toggle(at: GridIndexPath(item: 3))
/// try snapshot.placement(at: GridIndexPath(item: 3))     // (3, 0, 2x2)
/// ```
public final class Grid: Sendable {
    /// The grid's name.
    public let name: String

    /// The database the grid is stored in.
    public let database: GridDatabase

    /// The last state read or written, with the grid's row id.
    private let cache = Locked<(id: Int64, snapshot: GridSnapshot)?>(nil)

    /// How to create the grid if it is missing; `nil` when it must exist.
    private let creationContent: GridContent?

    /// Opens the grid named `name`; if it does not exist, it is created with `options` at
    /// its first use, in the same transaction as that use.
    ///
    /// So a change to a missing grid that is refused leaves no grid behind.
    ///
    /// - Parameter options: How to create a missing grid; `nil` to require that it exists.
    /// - Throws: ``GridError/gridNotFound(_:)`` when it is missing and `options` is `nil`;
    ///   ``GridError`` for an invalid name or options.
    public convenience init(named name: String, in database: GridDatabase, creatingWith options: GridOptions? = GridOptions()) throws(GridError) {
        try self.init(changing: name, in: database, creatingWith: options)
        // Inside a transaction of the database, the handle is made for it, whose calls say
        // whether the grid exists; asking here would be a call inside the transaction.
        if creationContent == nil, !CallScope.holds(database.backend), try !Grid.exists(named: self.name, in: database) {
            throw GridError.gridNotFound(self.name)
        }
    }

    /// The grid named `name`, its name and `options` checked, without asking the database
    /// whether it exists: for a transaction's calls, made inside it.
    init(changing name: String, in database: GridDatabase, creatingWith options: GridOptions?) throws(GridError) {
        let name = GridLimits.canonical(name)
        try GridLimits.validate(name: name)
        self.name = name
        self.database = database
        try options?.validate()
        creationContent = options.map(GridContent.init)
        if let content = creationContent { _ = try content.validatedConfiguration() }
    }

    /// The grid named `name`, to read inside a transaction: never created.
    convenience init(reading name: String, in database: GridDatabase) throws(GridError) {
        try self.init(changing: name, in: database, creatingWith: nil)
    }

    /// Creates a grid named `name` with `content`, replacing an existing one if `replacing` is set.
    ///
    /// A grid replaced starts again at revision 0 without history, unless it syncs: then its
    /// content is replaced as one change, which syncs (its peers lose the items it lost, and
    /// take its new settings), as an import's does.
    ///
    /// - Throws: ``GridError/gridExists(_:)`` when the name is taken and `replacing` is `false`.
    @discardableResult
    public static func create(named name: String, in database: GridDatabase, content: GridContent,
                              replacing: Bool = false) throws(GridError) -> Grid {
        let name = GridLimits.canonical(name)
        // Refused before the database is asked.
        try GridLimits.validate(name: name)
        let created = try GridError.catching {
            try database.storageWrite { try creating(named: name, content: content, replacing: replacing, in: $0, of: database) }
        }
        return Grid(name: name, database: database, cached: created)
    }

    /// What ``create(named:in:content:replacing:)`` writes, in `transaction` of `database`: every
    /// refusal comes before the first write.
    ///
    /// - Returns: The grid's row id and state.
    static func creating(named name: String, content: GridContent, replacing: Bool, in transaction: any GridStorageTransaction,
                         of database: GridDatabase) throws -> (Int64, GridSnapshot) {
        try GridLimits.validate(name: name)
        let snapshot = try GridSnapshot(name: name, revision: 0, content: content)
        if let header = try transaction.header(named: name)?.header() {
            guard replacing else { throw GridError.gridExists(name) }
            if try transaction.syncState(gridID: header.id) != nil {
                var seen: GridSnapshot?
                return try Grid(changing: name, in: database, creatingWith: nil)
                    .change(in: transaction, record: HistoryRecord(operation: "init"), caching: false, seen: &seen) { editor, _, _ in
                        try editor.replaceContent(content)
                    }
            }
            _ = try transaction.deleteGrid(named: name)
        }
        return (try transaction.insertGrid(named: name, GridChangeSet(inserting: snapshot)), snapshot)
    }

    private init(name: String, database: GridDatabase, cached: (Int64, GridSnapshot)) {
        self.name = name
        self.database = database
        creationContent = nil
        cache.withLock { $0 = cached }
    }

    private static func insert(name: String, content: GridContent, _ transaction: any GridStorageTransaction) throws
        -> (Int64, GridSnapshot) {
        let snapshot = try GridSnapshot(name: name, revision: 0, content: content)
        return (try transaction.insertGrid(named: name, GridChangeSet(inserting: snapshot)), snapshot)
    }

    /// Whether a grid named `name` exists.
    public static func exists(named name: String, in database: GridDatabase) throws(GridError) -> Bool {
        let name = GridLimits.canonical(name)
        return try GridError.catching { try database.storageRead { try $0.header(named: name) != nil } }
    }

    /// Every grid in the database, by name.
    public static func list(in database: GridDatabase) throws(GridError) -> [GridSummary] {
        try GridError.catching { try database.storageRead { try $0.grids() } }
    }

    /// Deletes the grid named `name` with its sections, sizes, placements and history.
    ///
    /// A grid that took part in sync is dropped on its peers too: a sync drops it on each peer
    /// whose grid holds no change this one did not know, and brings it back only from a peer
    /// that changed it since (docs/sync.md, "Dropping a grid").
    ///
    /// - Parameter keepingOnPeers: Whether the drop stays here: the next sync with a peer that
    ///   has the grid brings it back (to take a damaged grid again from a peer).
    /// - Returns: Whether the grid took part in sync: its drop reaches its peers, or with
    ///   `keepingOnPeers` the next sync brings it back.
    /// - Throws: ``GridError/gridNotFound(_:)`` when there is none.
    @discardableResult
    public static func drop(named name: String, in database: GridDatabase, keepingOnPeers: Bool = false) throws(GridError) -> Bool {
        let name = GridLimits.canonical(name)
        return try GridError.catching {
            try database.storageWrite { transaction in
                let dropped = try SyncDrop.dropGrid(named: name, in: transaction, recording: !keepingOnPeers)
                if !dropped.found { throw GridError.gridNotFound(name) }
                return dropped.synced
            }
        }
    }

    // MARK: Reading

    /// The grid's current state.
    public func snapshot() throws(GridError) -> GridSnapshot {
        try GridError.catching {
            if let snapshot = try database.storageRead({ try current($0, creatingIfMissing: false, caching: true)?.snapshot }) {
                return snapshot
            }
            // The grid is missing: create it, if allowed, with the write lock held.
            return try database.storageWrite { try current($0, creatingIfMissing: true, caching: true)!.snapshot }
        }
    }

    /// The grid's current revision: it changes exactly when the grid does, whichever process
    /// changed it. Cheaper than ``snapshot()``.
    ///
    /// - Throws: ``GridError/gridNotFound(_:)`` when the grid does not exist: asking never
    ///   creates it (a grid another process dropped stays dropped).
    public func currentRevision() throws(GridError) -> Int {
        try currentVersion().revision
    }

    /// The grid's current state, never creating it: for a reader that must not leave a grid
    /// behind, whatever options the grid was opened with.
    ///
    /// - Throws: ``GridError/gridNotFound(_:)`` when the grid does not exist.
    public func storedSnapshot() throws(GridError) -> GridSnapshot {
        try storedState().snapshot
    }

    /// The grid's row id and revision, never creating it: what an observer compares.
    func currentVersion() throws(GridError) -> (id: Int64, revision: Int) {
        let version = try GridError.catching {
            try database.storageRead { transaction in
                try transaction.header(named: name).map { row in
                    let header = try row.header()
                    return (header.id, header.revision)
                }
            }
        }
        guard let version else { throw GridError.gridNotFound(name) }
        return version
    }

    /// The grid's row id and state, never creating it.
    func storedState() throws(GridError) -> (id: Int64, snapshot: GridSnapshot) {
        try GridError.catching { try database.storageRead { try storedState(in: $0, caching: true) } }
    }

    /// The grid's row id and state in `transaction`, never creating it.
    ///
    /// - Parameter caching: Whether the state may serve later calls: not inside a transaction
    ///   an app holds, which may still roll back.
    func storedState(in transaction: any GridStorageTransaction, caching: Bool) throws -> (id: Int64, snapshot: GridSnapshot) {
        guard let state = try current(transaction, creatingIfMissing: false, caching: caching) else {
            throw GridError.gridNotFound(name)
        }
        return state
    }

    /// The current state, from the cache when its revision is still the stored one.
    ///
    /// - Returns: `nil` when the grid is missing and `creatingIfMissing` is `false`.
    /// - Throws: ``GridError/gridNotFound(_:)`` when the grid is missing and may not be created.
    private func current(_ transaction: any GridStorageTransaction, creatingIfMissing: Bool, caching: Bool) throws
        -> (id: Int64, snapshot: GridSnapshot)? {
        try currentWithHeader(transaction, creatingIfMissing: creatingIfMissing, caching: caching).map { ($0.id, $0.snapshot) }
    }

    /// ``current(_:creatingIfMissing:)`` with how many history entries the grid keeps.
    ///
    /// - Parameter caching: Whether a state read now may serve later calls: not inside a
    ///   transaction an app holds (``GridWriteTransaction``), which may still roll back.
    func currentWithHeader(_ transaction: any GridStorageTransaction, creatingIfMissing: Bool, caching: Bool) throws
        -> (id: Int64, snapshot: GridSnapshot, historyKeep: Int, syncs: Bool?)? {
        guard let header = try transaction.header(named: name)?.header() else {
            guard let creationContent else { throw GridError.gridNotFound(name) }
            guard creatingIfMissing else { return nil }
            // Not cached: the transaction creating it may still roll back.
            let created = try Self.insert(name: name, content: creationContent, transaction)
            return (created.0, created.1, GridHistory.defaultKeep, false)
        }
        if let cached = cache.withLock({ $0 }), cached.id == header.id, cached.snapshot.revision == header.revision {
            return (cached.id, cached.snapshot, header.historyKeep, header.syncs)
        }
        let loaded = (id: header.id, snapshot: try GridSnapshot.load(header, name: name, from: transaction))
        if caching { cache.withLock { $0 = loaded } }
        return (loaded.id, loaded.snapshot, header.historyKeep, header.syncs)
    }

    // MARK: Changing

    /// Applies the edits `body` makes, in one transaction, as one revision.
    ///
    /// Edits that leave the grid as it was (setting the type it has, three toggles of one
    /// item) write nothing: the revision stays, and observers are not woken.
    ///
    /// Unlike every other operation, `update` is not declared `throws(GridError)`: Swift
    /// infers a closure's thrown type as `any Error`, so a typed `body` would need its type
    /// written out at every call. It throws what `body` throws, unchanged, and otherwise only
    /// ``GridError``.
    ///
    /// - Returns: The grid after the change.
    /// - Throws: What `body` throws (nothing is written then), or ``GridError``: the grid's
    ///   refusals, and ``GridError/storage(_:)`` when the write fails, for example when another
    ///   process holds the lock past the timeout.
    @discardableResult
    public func update(operation: String? = nil, _ body: (inout GridEditor) throws -> Void) throws -> GridSnapshot {
        try update(seenBy: nil, operation: operation, body)
    }

    /// ``update(operation:_:)`` as an instance with the registration domain `registration`
    /// sees the grid (see ``GridSizeRepository/register(defaultSize:)``); the stored default is kept.
    @discardableResult
    func update(seenBy registration: RegisteredDefaultSize?, operation: String? = nil,
                _ body: (inout GridEditor) throws -> Void) throws -> GridSnapshot {
        let thrown = ThrownByBody()
        do {
            return try perform(seenBy: registration, record: HistoryRecord(operation: operation)) { editor, _, _ in
                try thrown.run { try body(&editor) }
            }
        } catch {
            throw thrown.translated(error)
        }
    }

    /// Applies `body` as one change and records it in the history as `record` says (`body`
    /// may read the history, and complete the record), with the backend's errors as they are.
    ///
    /// A change of another kind than ``GridHistoryEntry/Kind/change`` (an undo, a redo, a
    /// revert) is written even when it leaves the grid as it was, so the history moves on.
    func perform(seenBy registration: RegisteredDefaultSize? = nil, record initial: HistoryRecord,
                 _ body: (inout GridEditor, GridHistoryReader, inout HistoryRecord) throws -> Void) throws -> GridSnapshot {
        var seen: GridSnapshot?
        let result = try database.storageWrite { transaction in
            try change(in: transaction, seenBy: registration, record: initial, caching: true, seen: &seen, body)
        }
        cache.withLock { $0 = result }
        if let seen, let registration { registration.remember(stored: result.1, seen: seen) }
        return result.1
    }

    /// The change ``perform(seenBy:record:_:)`` makes, in `transaction`: reads the grid (creating
    /// it if it is missing and may be created), applies `body`, writes what differs and records
    /// the history entry.
    ///
    /// - Parameters:
    ///   - caching: Whether the state read may serve later calls (see ``currentWithHeader(_:creatingIfMissing:caching:)``).
    ///   - seen: Set to the state as a registration sees it, when the change wrote anything.
    /// - Returns: The grid's row id and its state after the change.
    func change(in transaction: any GridStorageTransaction, seenBy registration: RegisteredDefaultSize? = nil,
                record initial: HistoryRecord, caching: Bool, seen: inout GridSnapshot?,
                _ body: (inout GridEditor, GridHistoryReader, inout HistoryRecord) throws -> Void) throws -> (Int64, GridSnapshot) {
        let (id, old, keep, syncs) = try currentWithHeader(transaction, creatingIfMissing: true, caching: caching)!
        var record = initial
        let reader = GridHistoryReader(transaction: transaction, gridID: id, grid: name, revision: old.revision)
        let edited = try GridEditor.edit(old, seenAs: registration?.apply(to: old)) { try body(&$0, reader, &record) }
        seen = nil
        guard let new = try GridRevisionWriter.write((edited.snapshot, edited.changes, edited.edits), from: old, gridID: id, grid: name,
                                                     record: record, keep: keep, in: transaction, recording: { new in
            // An undo or a redo by identity wrote the registers itself; a merge is what sync
            // itself writes; every other change is this replica's own.
            if let recording = record.recording { return try recording(new) }
            guard syncs != false && record.kind != .merge else { return nil }
            return try SyncSide.recordChange(edited.edits, from: old, to: new, gridID: id, grid: name, in: transaction)
        }) else { return (id, old) }
        seen = edited.seen
        seen?.revision = new.revision
        return (id, new)
    }

    /// Cycles the item's size small → middle → big → small.
    @discardableResult
    public func toggle(at path: GridIndexPath) throws(GridError) -> GridSnapshot {
        try editing { try $0.toggle(at: path) }
    }

    /// Sets the item's size; `nil` returns it to the default size.
    @discardableResult
    public func setSize(_ size: TileSize?, at path: GridIndexPath) throws(GridError) -> GridSnapshot {
        try editing { try $0.setSize(size, at: path) }
    }

    /// Replaces the grid's settings and sizes with `content`, as an import does.
    @discardableResult
    public func replaceContent(_ content: GridContent) throws(GridError) -> GridSnapshot {
        try editing { try $0.replaceContent(content) }
    }

    /// ``update(operation:_:)`` for a `body` that throws only ``GridError`` (the editor's refusals), as typed throws.
    package func editing(_ body: (inout GridEditor) throws -> Void) throws(GridError) -> GridSnapshot {
        try GridError.catching { try update(seenBy: nil, body) }
    }
}

/// A grid's calls reach its database: `try await grid.changing { try $0.toggle(at: p) }`.
extension Grid: AsyncCallable, DatabaseHolding {}
