import GridLayout
import SeededRandom
import Testing
import TestSupport
@testable import GridStore
@testable import GridStoreSQLite

/// A bundle read from the rows changed since a peer's cursor (a range of the version index)
/// holds exactly what the whole state holds for that cursor.
@Suite("Sync export from rows")
struct SyncRangeExportTests {
    let directory = TemporaryDirectory()

    @Test("for the cursors peers had lately (and an empty one), the bundle read from the changed rows equals the whole state's, on each backend",
          arguments: Backend.all.flatMap { backend in (0..<(backend == .sqlite ? 6 : 2)).map { (backend, UInt64($0)) } })
    func rangeEqualsWhole(backend: Backend, seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed &+ 9_100)
        let comment: Comment = "seed \(seed) on \(backend) (replay with arguments: [(.\(backend), \(seed))])"
        let replicas = try (0..<3).map { index in
            try GridDatabase(location: index == 0 ? try backend.database(in: directory, name: "hub.sqlite")
                                                  : directory.file("replica\(index).sqlite"))
        }
        for replica in replicas { try Grid(named: "default", in: replica).update { try $0.setItemCount(8, inSection: 0) } }
        var cursors: [SyncCursor] = [.empty]
        var compared = 0
        for _ in 0..<30 {
            let index = Int.random(in: 0..<replicas.count, using: &generator)
            let grid = try Grid(named: "default", in: replicas[index])
            let items = try grid.snapshot().itemCounts.first ?? 0
            switch Int.random(in: 0..<6, using: &generator) {
            case 0, 1: try grid.toggle(at: GridIndexPath(item: Int.random(in: 0..<max(1, items), using: &generator)))
            case 2: try grid.update { try $0.insertItem(at: GridIndexPath(item: Int.random(in: 0...items, using: &generator)), size: .middle) }
            case 3 where items > 1: try grid.update { try $0.deleteItem(at: GridIndexPath(item: Int.random(in: 0..<items, using: &generator))) }
            default:
                let other = (index + Int.random(in: 1..<replicas.count, using: &generator)) % replicas.count
                _ = try replicas[index].sync(with: replicas[other])
            }
            for replica in replicas { cursors.append(try Grid(named: "default", in: replica).syncCursor()) }
            // The hub's bundle for every cursor seen so far, from its rows and from its whole state.
            let hub = replicas[0]
            try hub.storageWrite { transaction in
                for cursor in [cursors[0]] + cursors.suffix(9) {
                    guard let ranged = try SyncSide.storedBundle("default", since: cursor.versions, in: transaction) else { continue }
                    let whole = try SyncSide.prepare("default", in: transaction, minting: false)
                    #expect(ranged.delta == whole.state.changes(since: cursor.versions), comment)
                    #expect(ranged.replica == whole.replica, comment)
                    // Read in the order it is written: the same bytes as the whole state's, in both formats.
                    let expected = SyncBundle(grid: "default", replica: whole.replica, cursor: cursor.versions,
                                              delta: whole.state.changes(since: cursor.versions))
                    #expect(ranged.encoded() == expected.encoded(), comment)
                    #expect(ranged.encodedAsJSON() == expected.encodedAsJSON(), comment)
                    #expect(ranged.changeCount == expected.changeCount, comment)
                    #expect(ranged.versions == expected.versions && ranged.names == expected.names, comment)
                    #expect(ranged.sorted.latestTimes() == expected.delta.latestTimes(), comment)
                    compared += 1
                }
                // The replica numbers read alone are those read with the registers.
                let header = try #require(try transaction.header(named: "default")?.header())
                let limit = SyncReplicaNumbers.maximumCount + 1
                #expect(try transaction.syncReplicas(gridID: header.id, limit: limit)
                        == transaction.syncRegisters(gridID: header.id, changedAfter: 0, limit: limit).replicas, comment)
            }
        }
        #expect(compared > 0, comment)
    }
}
