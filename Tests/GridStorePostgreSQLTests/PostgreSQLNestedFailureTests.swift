import GridLayout
import TestSupport
import Testing
@testable import GridStore
@testable import GridStorePostgreSQL

/// A failure of another database met inside a transaction's closure.
@Suite("PostgreSQL: another database's failure inside a transaction", .enabled(if: PostgreSQLTestServer.shouldTest))
struct PostgreSQLNestedFailureTests {
    @Test("a server gone inside another database's read rolls the read back: its one connection serves the next write")
    func otherServerGoneInsideARead() throws {
        let uri = try PostgreSQLTestServer.shared().makeDatabase()
        let source = GridDatabase(backend: try PostgreSQLStorage(PostgreSQLLocation(uri)!, connections: 1))
        let grid = try Grid(named: "g", in: source, creatingWith: GridOptions(sectionItemCounts: [2]))
        _ = try grid.snapshot()
        let other = try PostgreSQLTestServer()
        let target = try GridDatabase(postgreSQL: try other.makeDatabase())
        _ = try Grid(named: "g", in: target, creatingWith: GridOptions(sectionItemCounts: [2])).snapshot()
        other.stop()
        let error = try #require(throws: GridError.self) {
            try source.read { from in
                try target.write { to in try to.copy(from: from, replacing: true) }
            }
        }
        #expect(error.isStorageFailure, "\(error)")
        // The read's connection went back to the pool idle, not inside a read-only transaction.
        try grid.toggle(at: GridIndexPath(item: 0))
        #expect(try grid.snapshot().revision == 1)
        #expect(try source.read { try $0.snapshot(of: grid).revision } == 1)
    }
}
