import GridLayout
import Testing
import GridStorePostgreSQL
@testable import GridStore
@testable import GridStoreSQLite

/// Copies, creations, history settings and every read of a grid, made through a transaction.
@Suite("Grid operations and reads in one transaction")
struct TransactionGridOperationsTests {
    let directory = TemporaryDirectory()

    private struct Stop: Error {}

    /// A target database with grid `a` toggled once, and a source database with grid `moved`
    /// changed twice and a grid `taken`, whose name the target also has.
    private func databases(_ backend: Backend) throws -> (target: GridDatabase, a: Grid, source: GridDatabase) {
        let target = try GridDatabase(location: try backend.database(in: directory))
        let source = try GridDatabase(location: try backend.database(in: directory, name: "source.sqlite"))
        let a = try Grid(named: "a", in: target, creatingWith: GridOptions(sectionItemCounts: [4]))
        try a.toggle(at: GridIndexPath(item: 0))
        let moved = try Grid(named: "moved", in: source, creatingWith: GridOptions(sectionItemCounts: [3]))
        try moved.toggle(at: GridIndexPath(item: 1))
        try moved.toggle(at: GridIndexPath(item: 1))
        try Grid(named: "taken", in: source, creatingWith: GridOptions(sectionItemCounts: [1])).toggle(at: GridIndexPath(item: 0))
        _ = try Grid(named: "taken", in: target, creatingWith: GridOptions(sectionItemCounts: [2])).snapshot()
        return (target, a, source)
    }

    @Test("a copy from another database, a creation, an undo and a history setting commit together, or roll back whole",
          arguments: Backend.all)
    func copyWithOtherOperations(backend: Backend) throws {
        let (target, a, source) = try databases(backend)
        let content = GridContent(columns: 6, sections: [[nil, nil]])
        let work = { (transaction: GridWriteTransaction, from: GridReadTransaction) throws in
            let copied = try transaction.copy(from: from, names: ["moved"])
            #expect(copied.map(\.name) == ["moved"])
            try transaction.create(gridNamed: "fresh", content: content)
            try transaction.undo(a)
            try transaction.setHistoryRetention(1, of: a)
            // The copy is there for the rest of the transaction, with its history.
            let moved = try Grid(named: "moved", in: target)
            #expect(try transaction.snapshot(of: moved).size(at: GridIndexPath(item: 1)) == .big)
            #expect(try transaction.history(of: moved).count == 2)
        }
        #expect(throws: Stop.self) {
            try source.read { from in try target.write { transaction in try work(transaction, from); throw Stop() } }
        }
        #expect(try Grid.list(in: target).map(\.name) == ["a", "taken"])
        #expect(try a.snapshot().revision == 1 && a.historyRetention() == GridHistory.defaultKeep)

        try source.read { from in try target.write { transaction in try work(transaction, from) } }
        #expect(try Grid.list(in: target).map(\.name) == ["a", "fresh", "moved", "taken"])
        let moved = try Grid(named: "moved", in: target)
        #expect(try moved.snapshot().revision == 2 && moved.history().count == 2)
        #expect(try Grid(named: "fresh", in: target).snapshot().type == .more)
        #expect(try a.snapshot().size(at: GridIndexPath(item: 0)) == .small)
        #expect(try a.historyRetention() == 1 && a.history().count == 1)
        // What `Grid.copy` gives, made of the same transaction operation.
        try moved.toggle(at: GridIndexPath(item: 0))
        try Grid.copy(from: source, to: target, names: ["moved"], replacing: true)
        #expect(try moved.snapshot().revision == 2 && moved.history().count == 2)
        #expect(try moved.snapshot().size(at: GridIndexPath(item: 0)) == .small)
    }

    @Test("a copy, a creation or a history setting refused leaves the transaction as it was", arguments: Backend.all)
    func refusalsLeaveTheTransaction(backend: Backend) throws {
        let (target, a, source) = try databases(backend)
        let content = GridContent(columns: 4, sections: [[nil]])
        try source.read { from in
            try target.write { transaction in
                try transaction.update(a) { try $0.toggle(at: GridIndexPath(item: 1)) }
                // A name the target has: refused before the grid asked for first is written.
                #expect(throws: GridError.gridExists("taken")) { try transaction.copy(from: from, names: ["moved", "taken"]) }
                #expect(throws: GridError.gridNotFound("nowhere")) { try transaction.copy(from: from, names: ["nowhere"]) }
                #expect(throws: GridError.gridExists("a")) { try transaction.create(gridNamed: "a", content: content) }
                #expect(throws: GridError.self) { try transaction.setHistoryRetention(-1, of: a) }
                #expect(throws: GridError.limitExceeded("a copy reads one database and writes another, not one transaction")) {
                    try transaction.copy(from: transaction)
                }
                // A change of a grid inside its own editor closure is refused, as any other is.
                try transaction.update(a) { _ in
                    #expect(throws: GridError.reentrantCall) { try transaction.create(gridNamed: "a", content: content, replacing: true) }
                    #expect(throws: GridError.reentrantCall) { try transaction.setHistoryRetention(3, of: a) }
                }
            }
        }
        #expect(try Grid.list(in: target).map(\.name) == ["a", "taken"])
        #expect(try a.snapshot().revision == 2 && a.snapshot().size(at: GridIndexPath(item: 1)) == .middle)
        #expect(try Grid(named: "taken", in: target).snapshot().itemCounts == [2])
    }

    @Test("every read of a grid in a transaction gives what the grid's own call gives, and sees the transaction's changes",
          arguments: Backend.all)
    func readsMatchTheGridsCalls(backend: Backend) throws {
        let (target, a, _) = try databases(backend)
        let peer = try GridDatabase(location: try backend.database(in: directory, name: "peer.sqlite"))
        try a.update { try $0.setItems(keys: ["w", "x", "y", "z"], inSection: 0) }
        let there = try Grid(named: "a", in: peer)
        _ = try there.applySyncBundle(try a.syncBundle(since: .empty).encoded())
        // A change on each side to one item, then merged here: two replicas, one conflict.
        try there.setSize(.middle, forKey: "w")
        try a.setSize(.big, forKey: "w")
        _ = try a.applySyncBundle(try there.syncBundle(since: a.syncCursor()))
        // What the grid's own calls give, each in a transaction of its own.
        let history = try a.history(), newest = try a.history(limit: 1), atOne = try a.snapshot(at: 1)
        let retention = try a.historyRetention(), third = try a.item(at: GridIndexPath(item: 2)), x = try a.item(forKey: "x")
        let cursor = try a.syncCursor(), conflicts = try a.syncConflicts(), replica = try a.syncReplicaID()
        let identity = try a.syncIdentity(), replicas = try a.syncReplicas()
        #expect(cursor != .empty && identity != nil && replica != nil && replicas.count == 2 && conflicts.count == 1)
        try target.read { transaction in
            #expect(try transaction.history(of: a) == history)
            #expect(try transaction.history(of: a, limit: 1) == newest)
            #expect(try transaction.snapshot(of: a, at: 1) == atOne)
            #expect(try transaction.historyRetention(of: a) == retention)
            #expect(try transaction.item(at: GridIndexPath(item: 2), of: a) == third)
            #expect(try transaction.item(forKey: "x", of: a) == x)
            #expect(try transaction.syncCursor(of: a) == cursor)
            #expect(try transaction.syncConflicts(of: a) == conflicts)
            #expect(try transaction.syncReplicaID(of: a) == replica)
            #expect(try transaction.syncIdentity(of: a) == identity)
            #expect(try transaction.syncReplicas(of: a) == replicas)
            let missing = try Grid(named: "missing", in: target)
            #expect(throws: GridError.gridNotFound("missing")) { try transaction.history(of: missing) }
            #expect(throws: GridError.keyNotFound("v", grid: "a")) { try transaction.item(forKey: "v", of: a) }
        }
        let revision = try a.snapshot().revision
        try target.write { transaction in
            try transaction.update(a) { try $0.toggle(forKey: "y") }
            #expect(try transaction.item(forKey: "y", of: a).size == .middle)
            #expect(try transaction.history(of: a, limit: 1).first?.revision == revision + 1)
            #expect(try transaction.snapshot(of: a, at: 2).size(at: GridIndexPath(item: 2)) == .small)
        }
        #expect(try a.item(forKey: "y").size == .middle)
    }
}
