import GridLayout
import SeededRandom
import Testing
import TestSupport
@testable import GridStore
@testable import GridStoreSQLite
import Synchronization

/// A bundle of sizes alone is merged reading only the rows it names
/// (`SyncSide.applyByRows`): it must leave exactly what merging the whole state leaves.
@Suite("Sync bundles of sizes applied by rows")
struct SyncApplyRowsTests {
    let directory = TemporaryDirectory()

    static let grid = "home"

    /// What an apply left, read whole: compared between the two ways of applying.
    struct Observed: Equatable, CustomStringConvertible {
        var result: GridSyncResult
        var content: GridContent
        var revision: Int
        var state: StoredSyncState
        var registers: ReplicatedGrid
        /// Each register's version, by kind, entity and field.
        var versions: [String: Int64]
        var history: [String]
        /// Whether the latest entry of the versions log covers every register.
        var logBoundsRegisters: Bool
        /// The versions of the log's entries, newest first.
        var logged: [Int64]

        var description: String {
            "result \(result), revision \(revision), state \(state), history \(history.suffix(2)), log bounds registers: \(logBoundsRegisters)"
        }
    }

    /// Stops a transaction, carrying what it read.
    struct RolledBack: Error {
        var observed: Observed
        var byRows: Bool
    }

    /// What applying `bundle` to `database` leaves, in a transaction rolled back after.
    func observe(applying bundle: SyncBundle, to database: GridDatabase, byRows: Bool) throws -> (Observed, tookRows: Bool) {
        do {
            try database.storageWrite { transaction in
                let grid = try Grid(named: Self.grid, in: database, creatingWith: nil)
                let rows = byRows ? try SyncSide.applyByRows(bundle, grid: Self.grid, in: transaction) : nil
                let result = try rows.map {
                    GridSyncResult(grid: Self.grid, sent: 0, otherRevision: (nil, nil), received: $0.received,
                                   revision: ($0.revision.before, $0.revision.after), conflicts: $0.conflicts)
                } ?? grid.applying(bundle, in: transaction, byRows: false)
                throw RolledBack(observed: try Self.read(result, in: transaction), byRows: rows != nil)
            }
        } catch let stopped as RolledBack {
            return (stopped.observed, stopped.byRows)
        }
        Issue.record("the transaction was not rolled back")
        throw CancellationError()
    }

    static func read(_ result: GridSyncResult, in transaction: any GridStorageTransaction) throws -> Observed {
        let header = try #require(try transaction.header(named: grid)?.header())
        let snapshot = try GridSnapshot.load(header, name: grid, from: transaction)
        let row = try #require(try transaction.syncState(gridID: header.id))
        let (state, _, _) = try SyncSide.loadState(row, gridID: header.id, in: transaction, grid: grid)
        let stored = try transaction.syncRegisters(gridID: header.id, changedAfter: 0, limit: 100_000).registers
        let log = try transaction.syncVersionLog(gridID: header.id).first { $0.version <= row.version }
        let bound = try #require(log.flatMap { SyncVersionsText.decode($0.versions) })
        let history = try transaction.historyEntries(gridID: header.id, limit: 3, deltas: true).map {
            "\($0.revision) \($0.operation) \($0.delta)"
        }
        return Observed(result: result, content: snapshot.content, revision: snapshot.revision, state: row, registers: state,
                        versions: Dictionary(uniqueKeysWithValues: stored.map { ("\($0.kind) \($0.entity) \($0.field)", $0.version) }),
                        history: history, logBoundsRegisters: VersionVector(state.latestTimes()).isCovered(by: bound),
                        logged: try transaction.syncVersionLog(gridID: header.id).map(\.version))
    }

    @Test("a bundle of sizes leaves by rows what the whole merge leaves: grid, registers, state, history (seeded, tablet on each backend)",
          arguments: Backend.all.flatMap { backend in (0..<(backend == .sqlite ? 20 : 6)).map { (backend, UInt64($0)) } })
    func sameAsWholeMerge(backend: Backend, seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed &+ 4_300)
        let comment: Comment = "seed \(seed) on \(backend) (replay with arguments: [(.\(backend), \(seed))])"
        let phone = try GridDatabase(path: directory.file("phone.sqlite"))
        let tablet = try GridDatabase(location: try backend.database(in: directory, name: "tablet.sqlite"))
        let laptop = try GridDatabase(path: directory.file("laptop.sqlite"))
        let replicas = [phone, tablet, laptop]
        try Grid(named: Self.grid, in: phone).update { try $0.setItemCount(Int.random(in: 4...30, using: &generator), inSection: 0) }
        func syncAll() throws {
            for _ in 0..<2 { for other in replicas.dropFirst() { _ = try other.sync(with: phone) } }
        }
        func randomSizes(_ database: GridDatabase, count: Int) throws {
            let grid = try Grid(named: Self.grid, in: database)
            let counts = try grid.snapshot().itemCounts
            guard counts.reduce(0, +) > 0 else { return }
            try grid.update { editor in
                for _ in 0..<count {
                    let section = Int.random(in: 0..<counts.count, using: &generator)
                    guard counts[section] > 0 else { continue }
                    let size: TileSize? = [nil, .small, .middle, .big].randomElement(using: &generator)!
                    try editor.setSize(size, at: GridIndexPath(item: Int.random(in: 0..<counts[section], using: &generator), section: section))
                }
            }
        }
        try syncAll()
        // Rounds of any change, synced at random: deleted tiles, moves, keys, conflicts.
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            for database in replicas where Bool.random(using: &generator) {
                let grid = try Grid(named: Self.grid, in: database)
                let items = try grid.snapshot().itemCounts.first ?? 0
                switch Int.random(in: 0..<6, using: &generator) {
                case 0: try grid.update { try $0.insertItem(at: GridIndexPath(item: Int.random(in: 0...items, using: &generator)), size: .big) }
                case 1 where items > 1: try grid.update { try $0.deleteItem(at: GridIndexPath(item: Int.random(in: 0..<items, using: &generator))) }
                case 2 where items > 1:
                    try grid.update { try $0.moveItem(from: GridIndexPath(item: 0), to: GridIndexPath(item: Int.random(in: 0..<items, using: &generator))) }
                case 3 where items > 0: try grid.update { try $0.setKey("k\(Int.random(in: 0..<5, using: &generator))", at: GridIndexPath(item: 0)) }
                case 4: try grid.update { try $0.appendSection(itemCount: Int.random(in: 0...3, using: &generator)) }
                default: try randomSizes(database, count: Int.random(in: 1...4, using: &generator))
                }
            }
            if Bool.random(using: &generator) { _ = try replicas[Int.random(in: 1...2, using: &generator)].sync(with: phone) }
        }
        try syncAll()
        // Sizes changed on every side since: the tablet's own are recorded with its toggles
        // (no versions log entry), the laptop's reach the phone, the phone's make the bundle.
        try randomSizes(tablet, count: Int.random(in: 0...3, using: &generator))
        try randomSizes(laptop, count: Int.random(in: 0...3, using: &generator))
        _ = try laptop.sync(with: phone)
        if Int.random(in: 0..<4, using: &generator) == 0 { try phone.setReplicaName("phone \(seed)") }
        if backend == .sqlite, Int.random(in: 0..<4, using: &generator) == 0 {
            // A name `check --repair` deleted, or never stored: it comes again with a sync.
            try SQLiteConnection(path: directory.file("tablet.sqlite")).execute("DELETE FROM sync_registers WHERE kind = 'replica'")
        }
        // Sometimes none: a bundle that brings only what the phone knows of the laptop's changes.
        try randomSizes(phone, count: Int.random(in: 0...(Bool.random(using: &generator) ? 40 : 4), using: &generator))
        // Since the tablet's cursor, or the laptop's: one that knows more than the tablet, so its
        // versions are not taken.
        let cursor = try Grid(named: Self.grid, in: Bool.random(using: &generator) ? tablet : laptop).syncCursor()
        let bundle = try Grid(named: Self.grid, in: phone).syncBundle(since: cursor)

        let (whole, _) = try observe(applying: bundle, to: tablet, byRows: false)
        let (rows, tookRows) = try observe(applying: bundle, to: tablet, byRows: true)
        #expect(tookRows, "the bundle was not applied by rows; \(comment)")
        #expect(rows.logBoundsRegisters, "\(comment)")
        var comparable = rows
        comparable.logBoundsRegisters = whole.logBoundsRegisters
        // The peers met: the same replicas holding the same versions, met a moment apart.
        func held(_ peers: String?) -> [String] {
            (peers ?? "").split(separator: ",").map { $0.split(separator: ":").prefix(2).joined(separator: ":") }
        }
        #expect(rows.state.peers != nil && held(rows.state.peers) == held(whole.state.peers), "\(comment)")
        comparable.state.peers = whole.state.peers
        #expect(comparable == whole, "by rows: \(rows)\nwhole: \(whole)\n\(comment)")

        // Applied for real, by rows, the three then converge.
        try Grid(named: Self.grid, in: tablet).applySyncBundle(bundle)
        try syncAll()
        let expected = try Grid(named: Self.grid, in: phone).storedSnapshot().content
        for (index, database) in replicas.enumerated() {
            #expect(try Grid(named: Self.grid, in: database).storedSnapshot().content == expected, "replica \(index); \(comment)")
        }
    }

    /// A phone and a tablet of 8 tiles that synced, and a connection to the tablet for hand edits.
    func pair() throws -> (phone: GridDatabase, tablet: GridDatabase, connection: SQLiteConnection) {
        let phone = try GridDatabase(path: directory.file("phone.sqlite")), tablet = try GridDatabase(path: directory.file("tablet.sqlite"))
        try Grid(named: Self.grid, in: phone).update { try $0.setItemCount(8, inSection: 0) }
        _ = try phone.sync(with: tablet)
        return (phone, tablet, try SQLiteConnection(path: directory.file("tablet.sqlite")))
    }

    func bundle(from phone: GridDatabase, to tablet: GridDatabase) throws -> SyncBundle {
        try Grid(named: Self.grid, in: phone).syncBundle(since: Grid(named: Self.grid, in: tablet).syncCursor())
    }

    @Test("tiles' ids swapped, repeated or shifted in the receiver's chunk: the bundle is merged whole and lands on its tile",
          arguments: ["swap", "repeat", "shift"])
    func wrongChunk(edit: String) throws {
        let (phone, tablet, connection) = try pair()
        let text = try #require(try connection.fetchOne("SELECT ids FROM sync_item_ids") { $0.string(at: 0) })
        var ids = stride(from: 0, to: text.count, by: 16).map { String(Array(text)[$0..<$0 + 16]) }
        switch edit {
        case "swap": ids.swapAt(3, 4)
        case "repeat": ids[3] = ids[4]
        default: ids = Array(ids.dropFirst()) + [ids[0]]
        }
        try connection.execute("UPDATE sync_item_ids SET ids = ?", [ids.joined()])
        try Grid(named: Self.grid, in: phone).toggle(at: GridIndexPath(item: 3))
        let bundle = try bundle(from: phone, to: tablet)
        #expect(try observe(applying: bundle, to: tablet, byRows: true).tookRows == false)
        try Grid(named: Self.grid, in: tablet).applySyncBundle(bundle)
        let sizes = try Grid(named: Self.grid, in: tablet).storedSnapshot().content.sections[0]
        #expect(sizes[3] == .middle && sizes[4] == nil)
    }

    @Test("a bundle resizing a tile deleted here is merged whole: the delete wins")
    func deletedHere() throws {
        let (phone, tablet, _) = try pair()
        try Grid(named: Self.grid, in: tablet).update { try $0.deleteItem(at: GridIndexPath(item: 3)) }
        try Grid(named: Self.grid, in: phone).setSize(.big, at: GridIndexPath(item: 3))
        let bundle = try bundle(from: phone, to: tablet)
        #expect(try observe(applying: bundle, to: tablet, byRows: true).tookRows == false)
        try Grid(named: Self.grid, in: tablet).applySyncBundle(bundle)
        #expect(try Grid(named: Self.grid, in: tablet).storedSnapshot().content.sections[0] == Array(repeating: nil, count: 7))
    }

    @Test("a bundle holding a write stamped as the receiver's own that it never made is refused the same way by rows and whole")
    func forgedWrite() throws {
        let (phone, tablet, _) = try pair()
        try Grid(named: Self.grid, in: tablet).setSize(.middle, at: GridIndexPath(item: 1))
        try Grid(named: Self.grid, in: phone).setSize(.big, at: GridIndexPath(item: 5))
        let honest = try bundle(from: phone, to: tablet)
        let (tabletReplica, known) = try tablet.storageRead { transaction in
            let current = try #require(try SyncSide.current(Self.grid, in: transaction))
            return (current.replica, current.versions[current.replica])
        }
        // Item 5's size, as if the tablet had written it before its latest change: it never did.
        var delta = honest.delta
        let id = try #require(delta.items.keys.first)
        delta.items[id]!.size.write(.small, at: SyncStamp(time: HybridTime(rawValue: known.rawValue - 1), replica: tabletReplica))
        let forged = SyncBundle(grid: honest.grid, replica: honest.replica, cursor: honest.cursor, delta: delta)
        for byRows in [true, false] {
            #expect {
                _ = try observe(applying: forged, to: tablet, byRows: byRows)
            } throws: { error in
                guard case .sync(let refusal) = error as? GridError else { return false }
                return refusal.kind == .forged
            }
        }
    }

    @Test("sizes set on tiles while the receiver made the grid a honeycomb: merged whole")
    func honeycomb() throws {
        let (phone, tablet, _) = try pair()
        try Grid(named: Self.grid, in: phone).setSize(.big, at: GridIndexPath(item: 2))
        try Grid(named: Self.grid, in: tablet).update { editor in
            var content = editor.snapshot.content
            content.honeycomb = try HoneycombConfiguration()
            try editor.replaceContent(content)
        }
        let bundle = try bundle(from: phone, to: tablet)
        #expect(bundle.delta.items.values.allSatisfy { $0.place.context.isEmpty } && bundle.delta.options == ReplicatedGrid.Options())
        #expect(try observe(applying: bundle, to: tablet, byRows: true).tookRows == false)
    }

    @Test("a sync of sizes changed on both sides merges by rows on both, the whole merge's outcome: one grid, the conflict listed, nothing left to move")
    func syncByRows() throws {
        let (phone, tablet, _) = try pair()
        try Grid(named: Self.grid, in: phone).update { try $0.setSizes([(GridIndexPath(item: 1), .big), (GridIndexPath(item: 2), .middle)]) }
        try Grid(named: Self.grid, in: tablet).update { try $0.setSizes([(GridIndexPath(item: 2), .big), (GridIndexPath(item: 6), .middle)]) }
        let before = (phone.mergesByRows.load(ordering: .relaxed), tablet.mergesByRows.load(ordering: .relaxed))
        let result = try #require(try phone.sync(with: tablet).first)
        #expect(phone.mergesByRows.load(ordering: .relaxed) == before.0 + 1 && tablet.mergesByRows.load(ordering: .relaxed) == before.1 + 1)
        // The tablet wrote item 2 last: the phone's middle is kept as a conflict, and changes nothing shown there.
        #expect(result.sent == 1 && result.received == 2 && result.conflicts == 1)
        let content = try Grid(named: Self.grid, in: phone).storedSnapshot().content
        #expect(content == (try Grid(named: Self.grid, in: tablet).storedSnapshot().content))
        #expect(content.sections[0][1] == .big && content.sections[0][6] == .middle)
        #expect(try Grid(named: Self.grid, in: tablet).syncConflicts().count == 1)
        let again = try #require(try phone.sync(with: tablet).first)
        #expect(again.sent == 0 && again.received == 0)
    }

    @Test("the other side reads its reply before it merges: a third replica's write the sender lacks comes back, and both sides end with the same registers")
    func replyCarriesThirdReplica() throws {
        let (phone, tablet, _) = try pair()
        let laptop = try GridDatabase(path: directory.file("laptop.sqlite"))
        _ = try tablet.sync(with: laptop)
        try Grid(named: Self.grid, in: laptop).update { try $0.setSize(.big, at: GridIndexPath(item: 3)) }
        _ = try laptop.sync(with: tablet)
        // The phone resizes the laptop's tile without having seen its write: a conflict.
        try Grid(named: Self.grid, in: phone).update { try $0.setSizes([(GridIndexPath(item: 3), .middle), (GridIndexPath(item: 4), .big)]) }
        try Grid(named: Self.grid, in: tablet).update { try $0.setSize(.big, at: GridIndexPath(item: 5)) }
        let before = (phone.mergesByRows.load(ordering: .relaxed), tablet.mergesByRows.load(ordering: .relaxed))
        let result = try #require(try phone.sync(with: tablet).first)
        #expect(phone.mergesByRows.load(ordering: .relaxed) == before.0 + 1 && tablet.mergesByRows.load(ordering: .relaxed) == before.1 + 1)
        // Received: the tablet's size; the laptop's write on tile 3 comes back as the conflict,
        // the phone's later middle still shown (a change is a register whose winning value changed).
        #expect(result.sent == 2 && result.received == 1 && result.conflicts == 1, "\(result)")
        func state(_ database: GridDatabase) throws -> ReplicatedGrid {
            try database.storageWrite { try SyncSide.prepare(Self.grid, in: $0, minting: false).state }
        }
        let phoneState = try state(phone), tabletState = try state(tablet)
        #expect(phoneState.items == tabletState.items && phoneState.names == tabletState.names && phoneState.versions == tabletState.versions)
        let content = try Grid(named: Self.grid, in: phone).storedSnapshot().content
        #expect(content == (try Grid(named: Self.grid, in: tablet).storedSnapshot().content))
        #expect(content.sections[0][3] == .middle && content.sections[0][4] == .big && content.sections[0][5] == .big)
        #expect(try Grid(named: Self.grid, in: phone).syncConflicts().count == 1)
        let again = try #require(try phone.sync(with: tablet).first)
        #expect(again.sent == 0 && again.received == 0)
        _ = try laptop.sync(with: phone)
        #expect(try Grid(named: Self.grid, in: laptop).storedSnapshot().content == content)
    }

    @Test("a bundle naming most of a grid's tiles is read by a walk of its item rows, the ids past the walk's limit looked up (many deleted tiles): what the whole merge leaves",
          arguments: [false, true])
    func manyTilesByWalk(deletedTiles: Bool) throws {
        var generator = SeededGenerator(seed: deletedTiles ? 2 : 1)
        let phone = try GridDatabase(path: directory.file("phone.sqlite")), tablet = try GridDatabase(path: directory.file("tablet.sqlite"))
        let shown = 1_200
        try Grid(named: Self.grid, in: phone).update { try $0.setItemCount(deletedTiles ? 3_200 : shown, inSection: 0) }
        _ = try phone.sync(with: tablet)
        func randomSizes(_ database: GridDatabase, count: Int, of items: Int) throws {
            let sizes: [(GridIndexPath, TileSize?)] = (0..<count).map { _ in
                (GridIndexPath(item: Int.random(in: 0..<items, using: &generator)), [nil, .small, .middle, .big].randomElement(using: &generator)!)
            }
            try Grid(named: Self.grid, in: database).update { try $0.setSizes(sizes) }
        }
        try randomSizes(tablet, count: 300, of: shown)
        _ = try phone.sync(with: tablet)
        if deletedTiles {
            try Grid(named: Self.grid, in: phone).update { try $0.setItemCount(shown, inSection: 0) }
            _ = try phone.sync(with: tablet)
            // More item rows than the walk reads for the tiles shown: the rest are looked up.
            let rows = try SQLiteConnection(path: directory.file("tablet.sqlite")).fetchOne(
                "SELECT count(*) FROM sync_registers WHERE kind = 'item'", []) { $0.int(at: 0) } ?? 0
            #expect(rows > 4 * shown + 16)
        }
        try randomSizes(tablet, count: 50, of: shown)
        // Every tile's size changed: a bundle naming them all.
        let before = try Grid(named: Self.grid, in: phone).storedSnapshot().content.sections[0]
        try Grid(named: Self.grid, in: phone).update { editor in
            try editor.setSizes((0..<shown).map { item in
                (GridIndexPath(item: item), [TileSize.small, .middle, .big].filter { $0 != before[item] }.randomElement(using: &generator)!)
            })
        }
        let bundle = try bundle(from: phone, to: tablet)
        let (whole, _) = try observe(applying: bundle, to: tablet, byRows: false)
        let (rows, tookRows) = try observe(applying: bundle, to: tablet, byRows: true)
        #expect(tookRows)
        var comparable = rows
        comparable.logBoundsRegisters = whole.logBoundsRegisters
        comparable.state.peers = whole.state.peers
        #expect(comparable == whole)
        try Grid(named: Self.grid, in: tablet).applySyncBundle(bundle)
        _ = try phone.sync(with: tablet)
        #expect(try Grid(named: Self.grid, in: tablet).storedSnapshot().content == Grid(named: Self.grid, in: phone).storedSnapshot().content)
    }
}
