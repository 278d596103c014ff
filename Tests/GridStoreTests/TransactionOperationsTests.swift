import GridLayout
import Testing
import GridStorePostgreSQL
@testable import GridStore
@testable import GridStoreSQLite

/// Operations an app puts together in one ``GridWriteTransaction``.
@Suite("Operations in one transaction")
struct TransactionOperationsTests {
    let directory = TemporaryDirectory()

    private struct Stop: Error {}

    /// A database with grid `a` toggled once, a grid `shared` on a peer with a bundle of it to
    /// apply, and a document for a grid `c`.
    private func fixture(_ backend: Backend) throws -> (database: GridDatabase, a: Grid, shared: Grid, c: Grid, bundle: [UInt8],
                                                       document: GridDocument.Decoded) {
        let database = try GridDatabase(location: try backend.database(in: directory))
        let peer = try GridDatabase(location: try backend.database(in: directory, name: "peer.sqlite"))
        let a = try Grid(named: "a", in: database, creatingWith: GridOptions(sectionItemCounts: [4]))
        try a.toggle(at: GridIndexPath(item: 0))
        let there = try Grid(named: "shared", in: peer, creatingWith: GridOptions(sectionItemCounts: [3]))
        try there.setSize(.big, at: GridIndexPath(item: 2))
        let bundle = try there.syncBundle(since: .empty).encoded()
        let document = try GridDocument.decode(#"{"grid":"c","type":"less","sections":[{"items":[{"index":0,"size":"big"},{"index":1,"size":"small"}]}]}"#)
        return (database, a, try Grid(named: "shared", in: database), try Grid(named: "c", in: database), bundle, document)
    }

    /// What the three operations leave, or `nil` for a grid that is not there.
    private func state(_ fixture: (database: GridDatabase, a: Grid, shared: Grid, c: Grid, bundle: [UInt8], document: GridDocument.Decoded))
        throws -> (aRevision: Int, aFirst: TileSize, shared: TileSize?, c: TileSize?) {
        let a = try fixture.a.snapshot()
        let shared = try Grid.exists(named: "shared", in: fixture.database) ? try fixture.shared.snapshot().size(at: GridIndexPath(item: 2)) : nil
        let c = try Grid.exists(named: "c", in: fixture.database) ? try fixture.c.snapshot().size(at: GridIndexPath(item: 0)) : nil
        return (a.revision, try a.size(at: GridIndexPath(item: 0)), shared, c)
    }

    @Test("an undo, a sync bundle applied and an import in one transaction are committed together", arguments: Backend.all)
    func committedTogether(backend: Backend) throws {
        let fixture = try fixture(backend)
        let results = try fixture.database.write { transaction in
            (try transaction.undo(fixture.a), try transaction.applySyncBundle(fixture.bundle, to: fixture.shared),
             try transaction.importDocument(fixture.document, into: fixture.c, operation: "import c"))
        }
        #expect(results.0.revision == 2)
        #expect(results.1.received > 0)
        #expect(results.2.type == .less)
        let after = try state(fixture)
        #expect(after.aRevision == 2 && after.aFirst == .small)
        #expect(after.shared == .big)
        #expect(after.c == .big)
        #expect(try fixture.a.history(limit: 1).first?.kind == .undo)
        #expect(try fixture.c.history(limit: 1).first?.operation == "import c")
        // The grid the bundle made knows the peer's changes.
        #expect(try fixture.shared.syncCursor() != .empty)
    }

    @Test("the three roll back whole when the closure throws after them", arguments: Backend.all)
    func rolledBackWhole(backend: Backend) throws {
        let fixture = try fixture(backend)
        let before = try state(fixture)
        #expect(throws: Stop.self) {
            try fixture.database.write { transaction in
                try transaction.undo(fixture.a)
                try transaction.applySyncBundle(fixture.bundle, to: fixture.shared)
                try transaction.importDocument(fixture.document, into: fixture.c)
                throw Stop()
            }
        }
        let after = try state(fixture)
        #expect(after.aRevision == before.aRevision && after.aFirst == .middle)
        #expect(after.shared == nil && after.c == nil)
        // And then they can be made again, each on its own.
        try fixture.a.undo()
        _ = try fixture.shared.applySyncBundle(fixture.bundle)
        _ = try fixture.c.importDocument(fixture.document)
        #expect(try state(fixture).aFirst == .small)
    }

    @Test("a failure of an operation fails the transaction even when the closure catches it; a refusal of an undo does not",
          arguments: Backend.all)
    func failureRollsBack(backend: Backend) throws {
        let fixture = try fixture(backend)
        let missing = try Grid(named: "missing", in: fixture.database)
        let error = try #require(throws: GridError.self) {
            try fixture.database.write { transaction in
                try transaction.undo(fixture.a)
                try transaction.applySyncBundle(fixture.bundle, to: fixture.shared)
                // Refused, and caught: an export of a grid that is not there.
                _ = try? transaction.syncBundle(of: missing, since: .empty)
            }
        }
        #expect(error == .gridNotFound("missing"))
        let after = try state(fixture)
        #expect(after.aRevision == 1 && after.shared == nil)
        // An undo with nothing left to take back writes nothing, and the rest commits.
        try fixture.database.write { transaction in
            try transaction.undo(fixture.a)
            #expect(throws: GridError.self) { try transaction.undo(fixture.a, 5) }
            try transaction.importDocument(fixture.document, into: fixture.c)
        }
        #expect(try state(fixture).aFirst == .small && state(fixture).c == .big)
        // A bundle that cannot be read is refused before anything, as the grid's own call refuses it.
        try fixture.database.write { transaction in
            #expect(throws: GridError.self) { try transaction.applySyncBundle([0x47, 0x53, 0xff], to: fixture.shared) }
            try transaction.redo(fixture.a)
        }
        #expect(try state(fixture).aFirst == .middle)
    }

    @Test("a revert and a redo in a transaction are revisions of their own, as the grid's own calls make them", arguments: Backend.all)
    func revertAndRedo(backend: Backend) throws {
        let fixture = try fixture(backend)
        try fixture.a.toggle(at: GridIndexPath(item: 1))
        let reverted = try fixture.database.write { transaction in try transaction.revert(fixture.a, to: 0) }
        #expect(reverted.revision == 3)
        #expect(try reverted.size(at: GridIndexPath(item: 0)) == .small && reverted.size(at: GridIndexPath(item: 1)) == .small)
        let history = try fixture.a.history(limit: 1)
        #expect(history.first?.kind == .revert && history.first?.operation == "revert --to 0")
        try fixture.database.write { transaction in
            try transaction.undo(fixture.a)
            try transaction.redo(fixture.a)
        }
        #expect(try fixture.a.snapshot().revision == 5 && fixture.a.snapshot().size(at: GridIndexPath(item: 0)) == .small)
    }

    @Test("an undo of a grid that is not there is refused before anything, and the rest commits", arguments: Backend.all)
    func undoOfAMissingGrid(backend: Backend) throws {
        let fixture = try fixture(backend)
        let new = try Grid(named: "new", in: fixture.database)
        try fixture.database.write { transaction in
            try transaction.update(fixture.a) { try $0.toggle(at: GridIndexPath(item: 3)) }
            #expect(throws: GridError.gridNotFound("new")) { try transaction.undo(new) }
            #expect(throws: GridError.gridNotFound("new")) { try transaction.revert(new, to: 0) }
        }
        #expect(try !Grid.exists(named: "new", in: fixture.database))
        #expect(try fixture.a.snapshot().revision == 2)
    }

    @Test("an operation on a grid inside that grid's own update is refused as a reentrant call", arguments: Backend.all)
    func insideItsOwnUpdate(backend: Backend) throws {
        let fixture = try fixture(backend)
        #expect(throws: GridError.reentrantCall) {
            try fixture.database.write { transaction in
                try transaction.update(fixture.a) { _ in try transaction.undo(fixture.a) }
            }
        }
        #expect(try fixture.a.snapshot().revision == 1)
    }
}
