import GridLayout

/// A place grids are stored: an SQLite file or a PostgreSQL server.
///
/// The engine above it (``Grid``, the repositories, the command line) reads a grid's rows,
/// applies an edit, re-packs and computes a ``GridChangeSet``; a backend only opens and
/// migrates its database, runs transactions, and reads and writes rows. Nothing above this
/// boundary names SQLite or libpq.
///
/// A backend guarantees:
/// - ``read(_:)`` sees one consistent state of the database;
/// - ``write(_:)`` is one atomic transaction in which the grids it reads with
///   ``GridStorageTransaction/header(named:)`` stay locked until it commits, so writers of
///   one grid take turns and nothing they read changes under them;
/// - a `write` body may run more than once (a backend retries serialization failures and
///   deadlocks), so it must have no effect but its writes through the transaction;
/// - a `read` or `write` asked for inside another's body on the same backend (found through
///   ``CallScope``, which the connection's scheduler binds for its turn) is refused with
///   ``GridError/reentrantCall``;
/// - after ``close()``, every call throws ``GridError/storage(_:)`` of kind `closed`.
package protocol GridStorageBackend: AnyObject, Sendable {
    /// Where the database is, for messages: a file path, or a connection URI without its password.
    var location: String { get }

    /// The migrations that opening this database applied; empty when it was up to date.
    var migrationsAppliedOnOpen: [Migration] { get }

    /// Where the database stands against gridstore's migrations, read without writing.
    func migrationStatus() throws -> MigrationStatus

    /// Runs `body` in a read-only transaction.
    func read<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T

    /// Runs `body`, which makes one read of one statement, on its own: on a server without a
    /// transaction around it, in one round trip; elsewhere as ``read(_:)``.
    func readStatement<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T

    /// Runs `body` in a write transaction: everything it writes is committed together, or
    /// nothing when it throws.
    func write<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T

    /// How many calls of each kind (changes, reads) may run at once, each on a connection of
    /// its own: 1 unless the backend has a pool.
    var parallelCalls: Int { get }

    /// Whether ``GridStorageTransaction/clockMilliseconds()`` reads a clock of the database's
    /// own (a server's), which a device's may be behind; `false` for the process's clock.
    var hasOwnClock: Bool { get }

    /// A new signal that the database may have changed, for the one loop that watches it for
    /// all observers (see ``GridChangeSignal``); `nil` when the backend has none, and its
    /// observers poll.
    func makeChangeSignal() throws -> (any GridChangeSignal)?

    /// Whether `other` stores its grids in the same database as this one (the same file by any
    /// path, the same PostgreSQL database and schema, the `grids` table `search_path` finds, by any URI).
    func isSameDatabase(as other: any GridStorageBackend) throws -> Bool

    /// Refuses every later call with ``GridError/storage(_:)`` of kind `closed`, at once; the
    /// calls that asked before go on. The first step of ``GridDatabase/close()``.
    func refuseNewCalls()

    /// Refuses later calls and closes every connection, each once the calls that asked for it
    /// before have ended.
    func close()
}

extension GridStorageBackend {
    package func readStatement<T>(_ body: (any GridStorageTransaction) throws -> T) throws -> T { try read(body) }
    package var parallelCalls: Int { 1 }
    package var hasOwnClock: Bool { false }
    package func makeChangeSignal() throws -> (any GridChangeSignal)? { nil }
    package func close() {}
    package func refuseNewCalls() {}
}

/// The rows of one transaction of a ``GridStorageBackend``.
///
/// Every call touches one grid, and every key starts with the grid, so a backend can shard by grid.
package protocol GridStorageTransaction: AnyObject {
    /// The grid row named `name`, or `nil` when there is none. In a write transaction the row
    /// stays locked until the transaction ends.
    func header(named name: String) throws -> StoredGridRow?

    /// The grid's sections in order, each with its item count.
    func sectionItemCounts(gridID: Int64) throws -> [(section: Int, count: Int)]

    /// Calls `body` with every explicit size of the grid; the size is `nil` when the stored
    /// text is not a size name.
    func forEachExplicitSize(gridID: Int64, _ body: (_ section: Int, _ item: Int, _ size: TileSize?) throws -> Void) throws

    /// One item's stored values, the item found at `place`: its index path, its section's item
    /// count (`nil` when the section does not exist), its explicit size, and its key; `nil` when
    /// `place` is a key no item has. The count and key are checked by the caller.
    func storedItem(gridID: Int64, at place: StoredItemPlace) throws -> StoredItemRow?


    /// Calls `body` with every item key of the grid.
    func forEachItemKey(gridID: Int64, _ body: (_ section: Int, _ item: Int, _ key: String) throws -> Void) throws

    /// Adds a history entry for the grid, made now unless the entry says when (a copied one),
    /// then deletes its entries `keep` or more revisions older than the entry's.
    func appendHistory(_ entry: StoredHistoryEntry, gridID: Int64, keep: Int) throws
    /// Sets when the grid last changed (`2026-11-30T11:32:01.123Z`), for a copied grid.
    func setUpdatedAt(_ time: String, gridID: Int64) throws

    /// The grid's history entries, newest first, at most `limit` of them; with `deltas`, each
    /// with its delta and registers texts (else an empty delta, and registers empty or `nil`).
    func historyEntries(gridID: Int64, limit: Int, deltas: Bool) throws -> [StoredHistoryEntry]

    /// The delta text of the grid's entry for `revision`, or `nil` when there is none.
    func historyDelta(gridID: Int64, revision: Int) throws -> String?

    /// The registers text of the grid's entry for `revision`; `nil` when there is no entry or it has none.
    func historyRegisters(gridID: Int64, revision: Int) throws -> String?

    /// Sets how many history entries the grid keeps, deleting the older ones now.
    func setHistoryKeep(_ keep: Int, gridID: Int64, revision: Int) throws

    /// Inserts a grid row named `name` and writes `changes` for it.
    ///
    /// - Returns: The new grid's id.
    func insertGrid(named name: String, _ changes: GridChangeSet) throws -> Int64

    /// Writes `changes` to the grid with id `gridID`, including its new revision.
    func write(_ changes: GridChangeSet, gridID: Int64) throws

    /// The key and byte length of every stored placement chunk of the grid (not its text).
    func placementChunkSizes(gridID: Int64) throws -> [(section: Int, firstItem: Int, byteCount: Int)]

    /// Every stored placement chunk of the grid: its section, first item and JSON text.
    func placementChunks(gridID: Int64) throws -> [(section: Int, firstItem: Int, cells: [UInt8])]

    /// Replaces all of the grid's placement chunks with `changes.chunkUpserts`, leaving every
    /// other row (the revision included) as it is.
    func replacePlacements(with changes: GridChangeSet, gridID: Int64) throws

    /// Deletes the grid named `name` with everything it holds.
    ///
    /// - Returns: Whether there was one.
    func deleteGrid(named name: String) throws -> Bool

    /// Every grid's summary row, in the byte order of their names; checked by the engine
    /// (``GridSummary/init(_:)``), so a bad row is reported the same way on every backend.
    func listGrids() throws -> [StoredGridSummaryRow]

    /// The database's replica row (its id as a sync replica); `nil` when it has none.
    func replicaRow() throws -> StoredReplicaRow?

    /// What identifies the database's storage itself, so that a copy of it is told apart from
    /// the original (an SQLite file's device and inode; a PostgreSQL cluster's system
    /// identifier and the database's oid); empty when there is nothing such.
    func storageIdentity() throws -> String

    /// In one call (one round trip to a server): ``replicaRow()``, ``storageIdentity()`` and
    /// ``clockMilliseconds()``, what a change to a synced grid and each side of a sync begin with.
    func replicaContext() throws -> StoredReplicaContext

    /// In one call (one round trip to a server): the replica row, the storage's identity, the
    /// grid `name`'s revision and sync state without its registers, for a sync that may find
    /// nothing new, and a server's clock; `nil` when the database has no replica row.
    func syncSummary(named name: String) throws -> StoredSyncSummary?

    /// Replaces the database's replica row: a new id for a copy of the database, or the
    /// identity of the storage it was minted for.
    func setReplicaRow(_ row: StoredReplicaRow) throws

    /// Records, in this write transaction, that changes of the database's own are leaving it (a
    /// sync, an exported bundle), where the storage can mark that outside its contents (an SQLite
    /// file's extended attribute): a backup restored over it then no longer passes for the
    /// database that sent them (``StoredReplicaRow/isMinted(for:)``). Nothing elsewhere.
    func recordSend() throws

    /// Sets the name the database goes by as a replica (``StoredReplicaRow/name``); `nil` for none.
    func setReplicaName(_ name: String?) throws

    /// The grid's sync state without its registers; `nil` when the grid never took part in a sync.
    func syncState(gridID: Int64) throws -> StoredSyncState?

    /// The replicas the grid's registers number, in the order of their numbers: at most `limit`
    /// (more is a damaged state).
    func syncReplicas(gridID: Int64, limit: Int) throws -> [StoredSyncReplica]

    /// The replicas the grid's registers number, and its registers changed after `version`
    /// (every one for 0) with every replica's name (kind `replica`), whenever it changed: at
    /// most `limit` of each (more is a damaged state), a register's text
    /// cut after ``StoredSyncRegisters/maximumRegisterBytes`` plus one byte.
    func syncRegisters(gridID: Int64, changedAfter version: Int64, limit: Int) throws -> StoredSyncRegisters

    /// ``syncRegisters(gridID:changedAfter:limit:)`` row by row: each row's bytes go to `body`,
    /// valid only inside its call (a register may be longer than the cut), and the replicas
    /// come back.
    func syncRegisterRows(gridID: Int64, changedAfter version: Int64, limit: Int,
                          _ body: (StoredSyncRegisterBytes) throws -> Void) throws -> [StoredSyncReplica]

    /// The stored registers of one section or item (kind `section` or `item`).
    func syncRegisters(gridID: Int64, kind: String, entity: String) throws -> [StoredSyncRegister]

    /// The stored size registers of the items `items` and name registers of the replicas
    /// `replicas` (their ids, each once), read together (in one round trip on a server); each
    /// text cut as ``syncRegisters(gridID:changedAfter:limit:)`` cuts it.
    func syncRegisters(gridID: Int64, sizesOf items: [String], namesOf replicas: [String]) throws -> [StoredSyncRegister]

    /// What a merge by rows reads of a grid's sync state, in one round trip on a server: the
    /// versions log (``syncVersionLog(gridID:)``), the replicas' numbers (at most
    /// `replicaLimit`), every chunk of the items' ids (at most `chunkLimit`) and the registers
    /// of ``syncRegisters(gridID:sizesOf:namesOf:)``.
    func syncMergeRows(gridID: Int64, sizesOf items: [String], namesOf replicas: [String], replicaLimit: Int,
                       chunkLimit: Int) throws -> StoredSyncMergeRows

    /// The sync ids of section `section`'s items from `firstItem` (a multiple of
    /// ``StoredSyncItemIDs/chunkSize``), 16 hexadecimal digits each, then the chunk's seal;
    /// `nil` when none are stored. A text longer than a chunk's is cut just past that length.
    func syncItemIDs(gridID: Int64, section: Int, firstItem: Int) throws -> String?

    /// Every chunk of the grid's items' sync ids, at most `limit`, in the order of their
    /// sections, then first items; each text cut as ``syncItemIDs(gridID:section:firstItem:)`` cuts it.
    func syncItemIDs(gridID: Int64, limit: Int) throws -> [StoredSyncItemIDs]

    /// The grid's latest entries of what its registers knew at a sync version, newest first.
    func syncVersionLog(gridID: Int64) throws -> [StoredSyncVersion]

    /// Writes the grid's sync state: its summary row, and the registers, replicas and version
    /// entry `write` holds.
    func writeSyncState(_ write: StoredSyncWrite, gridID: Int64) throws

    /// Every grid dropped after it took part in sync, at most `limit` of them (more is a
    /// damaged database), each text cut after ``StoredSyncDrop/maximumVersionsBytes`` plus one byte.
    func syncDrops(limit: Int) throws -> [StoredSyncDrop]

    /// The drop recorded for the grid named `name`, its text cut as ``syncDrops(limit:)`` cuts it; `nil` when there is none.
    func syncDrop(named name: String) throws -> StoredSyncDrop?

    /// Records that the grid `drop` names was dropped, replacing what was recorded of its name.
    func writeSyncDrop(_ drop: StoredSyncDrop) throws

    /// Forgets the drop recorded for the grid named `name`, if any.
    func deleteSyncDrop(named name: String) throws

    /// Forgets every drop recorded but those of the grids named `names` (each as gridstore
    /// writes names): a row whose name cannot be read back to delete it by name goes too.
    func deleteSyncDrops(keeping names: [String]) throws

    /// This database's wall clock, in milliseconds since 1970: the clock sync judges the stamps
    /// it receives by (a PostgreSQL server's own, not the client's). The process's by default.
    func clockMilliseconds() throws -> Int64
}

extension GridStorageTransaction {
    package func clockMilliseconds() throws -> Int64 { Platform.wallClockMilliseconds() }

    package func recordSend() throws {}

    package func syncRegisterRows(gridID: Int64, changedAfter version: Int64, limit: Int,
                                  _ body: (StoredSyncRegisterBytes) throws -> Void) throws -> [StoredSyncReplica] {
        let stored = try syncRegisters(gridID: gridID, changedAfter: version, limit: limit)
        for row in stored.registers { try row.withBytes(body) }
        return stored.replicas
    }

    package func syncMergeRows(gridID: Int64, sizesOf items: [String], namesOf replicas: [String], replicaLimit: Int,
                               chunkLimit: Int) throws -> StoredSyncMergeRows {
        StoredSyncMergeRows(log: try syncVersionLog(gridID: gridID), replicas: try syncReplicas(gridID: gridID, limit: replicaLimit),
                            itemIDs: try syncItemIDs(gridID: gridID, limit: chunkLimit),
                            registers: try syncRegisters(gridID: gridID, sizesOf: items, namesOf: replicas))
    }

    package func replicaContext() throws -> StoredReplicaContext {
        StoredReplicaContext(row: try replicaRow(), storageIdentity: try storageIdentity(), clock: try clockMilliseconds())
    }
}

/// What ``GridStorageTransaction/syncMergeRows(gridID:entities:replicaLimit:chunkLimit:)`` reads.
package struct StoredSyncMergeRows: Sendable {
    /// Newest first.
    package var log: [StoredSyncVersion]
    package var replicas: [StoredSyncReplica]
    package var itemIDs: [StoredSyncItemIDs]
    package var registers: [StoredSyncRegister]

    package init(log: [StoredSyncVersion], replicas: [StoredSyncReplica], itemIDs: [StoredSyncItemIDs], registers: [StoredSyncRegister]) {
        self.log = log
        self.replicas = replicas
        self.itemIDs = itemIDs
        self.registers = registers
    }
}

/// What ``GridStorageTransaction/replicaContext()`` reads.
package struct StoredReplicaContext: Sendable {
    /// The database's replica row; `nil` when it has none.
    package var row: StoredReplicaRow?
    package var storageIdentity: String
    /// The database's clock, in milliseconds since 1970.
    package var clock: Int64

    package init(row: StoredReplicaRow?, storageIdentity: String, clock: Int64) {
        self.row = row
        self.storageIdentity = storageIdentity
        self.clock = clock
    }
}

/// A database's replica row as stored: checked by the engine before use.
package struct StoredReplicaRow: Sendable, Equatable {
    /// The replica id, 32 lowercase hexadecimal digits.
    package var id: String
    /// The ``GridStorageBackend/storageIdentity`` the id was minted for; empty until it is recorded.
    package var storageIdentity: String
    /// The name a person gave the database (``GridDatabase/setReplicaName(_:)``); `nil` until
    /// one is given or the database first syncs. Not written by ``GridStorageTransaction/setReplicaRow(_:)``.
    package var name: String?

    package init(id: String, storageIdentity: String, name: String? = nil) {
        self.id = id
        self.storageIdentity = storageIdentity
        self.name = name
    }

    /// Whether the id was minted for the storage whose identity is `identity` now: the one
    /// recorded, or one that adds one `:` field to it (a backend that came to tell its storage
    /// apart more finely, as a file's birth time after its device and inode, or a PostgreSQL
    /// server's timeline after the cluster and the database); and, where the storage carries a
    /// mark of the database's latest send outside its contents, it is the send recorded (a
    /// backup restored over an SQLite file that sent since is not).
    ///
    /// An identity with a mark ends with `#` and its token (`-` for a database that recorded no
    /// send); a recorded one with `#` and the token of the database's latest send.
    package func isMinted(for identity: String) -> Bool {
        let (recorded, token) = Self.split(storageIdentity)
        let (storage, mark) = Self.split(identity)
        guard recorded == storage || (!recorded.isEmpty && storage.hasPrefix(recorded + ":")
                                      && !storage.dropFirst(recorded.count + 1).contains(":")) else { return false }
        guard let mark else { return true }
        return mark == token ?? Self.noSend
    }

    /// The identity recorded with a replica id minted for the storage whose identity is
    /// `identity` now: with the mark of its latest send, where it carries one.
    package static func recorded(_ identity: String) -> String {
        let (storage, mark) = split(identity)
        guard let mark, mark != noSend else { return String(storage) }
        return storage + "#" + mark
    }

    /// An identity's storage part, and the mark of a send after its `#`; `nil` without one.
    package static func split(_ identity: String) -> (storage: Substring, mark: Substring?) {
        guard let mark = identity.firstIndex(of: "#") else { return (identity[...], nil) }
        return (identity[..<mark], identity[identity.index(after: mark)...])
    }

    /// The mark of a database that recorded no send.
    package static let noSend: Substring = "-"
}

/// What ``GridStorageTransaction/syncSummary(named:)`` reads.
package struct StoredSyncSummary: Sendable {
    package var replica: StoredReplicaRow
    package var storageIdentity: String
    /// The grid's revision; `nil` when there is no such grid.
    package var revision: Int64?
    /// The grid's sync state, without its registers; `nil` when it never synced.
    package var state: StoredSyncState?
    /// The drop recorded for the grid's name; `nil` when there is none.
    package var drop: StoredSyncDrop?
    /// The database's clock when read (``GridStorageTransaction/clockMilliseconds()``), for a
    /// backend with a clock of its own (a server's); `nil` for one without.
    package var clock: Int64?

    package init(replica: StoredReplicaRow, storageIdentity: String, revision: Int64?, state: StoredSyncState?,
                 drop: StoredSyncDrop? = nil, clock: Int64? = nil) {
        self.replica = replica
        self.storageIdentity = storageIdentity
        self.revision = revision
        self.state = state
        self.drop = drop
        self.clock = clock
    }
}

/// Where an item is looked up: by its index path, or by its key.
package enum StoredItemPlace: Sendable {
    case index(section: Int, item: Int)
    case key(String)
}

/// One item's values as stored, found by ``GridStorageTransaction/storedItem(gridID:at:)``.
package struct StoredItemRow: Sendable {
    package var section: Int
    package var item: Int
    /// The section's item count; `nil` when the section does not exist.
    package var itemCount: Int?
    package var size: StoredSize
    package var key: String?

    package init(section: Int, item: Int, itemCount: Int?, size: StoredSize, key: String?) {
        self.section = section
        self.item = item
        self.itemCount = itemCount
        self.size = size
        self.key = key
    }
}

/// A grid's summary as stored: checked by ``GridSummary/init(_:)`` before use.
package struct StoredGridSummaryRow: Sendable {
    package var name: String
    package var columns: Int64
    package var direction: String
    package var revision: Int64
    /// When the grid last changed, as `2026-11-30T11:32:01.123Z`.
    package var updatedAt: String
    package var sectionCount: Int64
    package var itemCount: Int64
    package var kind: String

    package init(name: String, columns: Int64, direction: String, revision: Int64, updatedAt: String, sectionCount: Int64,
                 itemCount: Int64, kind: String) {
        self.name = name
        self.columns = columns
        self.direction = direction
        self.revision = revision
        self.updatedAt = updatedAt
        self.sectionCount = sectionCount
        self.itemCount = itemCount
        self.kind = kind
    }
}

/// An item's explicit size as a backend found it.
package enum StoredSize: Sendable, Equatable {
    /// The item has no size of its own: it has the default.
    case none
    /// The item's own size.
    case known(TileSize)
    /// A stored value that names no size: the grid is corrupted.
    case unknown
}

/// A grid's row as stored: the values are checked by ``StoredGridRow/header()`` before use.
package struct StoredGridRow: Sendable {
    package var id: Int64
    package var name: String
    package var revision: Int64
    package var columns: Int64
    package var direction: String
    package var defaultSize: String
    package var kind: String
    /// How many history entries the grid keeps.
    package var historyKeep: Int64 = 1000
    /// The `honeycombs` row, for a honeycomb grid.
    package var honeycomb: StoredHoneycombRow?
    /// Whether the grid has a sync state, when the header's read says so in passing (on a
    /// server, where another round trip costs more than the column); `nil` when it does not.
    package var syncs: Bool?

    package init(id: Int64, name: String, revision: Int64, columns: Int64, direction: String, defaultSize: String,
                 kind: String, honeycomb: StoredHoneycombRow?, historyKeep: Int64 = 1000, syncs: Bool? = nil) {
        self.syncs = syncs
        self.historyKeep = historyKeep
        self.id = id
        self.name = name
        self.revision = revision
        self.columns = columns
        self.direction = direction
        self.defaultSize = defaultSize
        self.kind = kind
        self.honeycomb = honeycomb
    }
}

/// A grid's row in `honeycombs` as stored: checked by ``StoredGridRow/header()`` before use.
package struct StoredHoneycombRow: Sendable {
    package var elementWidth: Double
    package var itemSpacing: Double
    package var orientation: String
    package var centerItem: String
    package var ringOrder: String
    package var scaling: String

    package init(elementWidth: Double, itemSpacing: Double, orientation: String, centerItem: String,
                 ringOrder: String, scaling: String) {
        self.elementWidth = elementWidth
        self.itemSpacing = itemSpacing
        self.orientation = orientation
        self.centerItem = centerItem
        self.ringOrder = ringOrder
        self.scaling = scaling
    }
}

/// A history row as stored: checked when read (see ``GridHistoryEntry``).
package struct StoredHistoryEntry: Sendable {
    package var revision: Int64
    package var madeAt: String
    package var kind: String
    package var operation: String
    package var actor: String
    package var targets: String
    package var delta: String
    /// The sync registers the change wrote, with the values before and after
    /// (`RegisterChange`), for a change of a grid that syncs; `nil` for none. Read with the
    /// delta; without it, empty when there are some.
    package var registers: String?

    /// The longest registers text gridstore writes and reads back: a backend reads at most one
    /// byte (PostgreSQL: character) more, which is refused.
    package static let maximumRegistersBytes = 32_000_000

    package init(revision: Int64, madeAt: String, kind: String, operation: String, actor: String, targets: String, delta: String,
                 registers: String? = nil) {
        self.revision = revision
        self.madeAt = madeAt
        self.kind = kind
        self.operation = operation
        self.actor = actor
        self.targets = targets
        self.delta = delta
        self.registers = registers
    }
}
