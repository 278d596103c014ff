import SeededRandom
import Testing
@testable import GridStore

/// The numbers a grid's stored registers give replicas: searched while few, indexed past ``SyncReplicaNumbers/searchedCount``.
@Suite struct SyncReplicaNumbersTests {
    @Test("numbers are given in order and found again, below and past the count searched in order", arguments: [1, 16, 17, 40])
    func numbering(count: Int) throws {
        var random = SeededGenerator(seed: UInt64(count))
        let ids = (0..<count).map { _ in ReplicaID.random(using: &random) }
        var numbers = SyncReplicaNumbers()
        for (position, id) in ids.enumerated() {
            #expect(numbers.number(of: id) == position)
            #expect(numbers.number(of: id) == position)
        }
        #expect(numbers.count == count && numbers.takeAdded().count == count && numbers.takeAdded().isEmpty)
        for (position, id) in ids.enumerated() { #expect(numbers[id] == position) }
        #expect(numbers[ReplicaID.random(using: &random)] == nil)
        let stored = ids.enumerated().map { StoredSyncReplica(number: Int64($0.offset), id: $0.element.description) }
        let read = try SyncReplicaNumbers(stored: stored, grid: "g")
        for (position, id) in ids.enumerated() { #expect(read[id] == position) }
        #expect(SyncReplicaNumbers(ordered: ids).ids == ids)
        // A replica numbered twice is refused, wherever the second one is.
        let twice = stored + [StoredSyncReplica(number: Int64(count), id: ids[count / 2].description)]
        #expect(throws: GridError.self) { try SyncReplicaNumbers(stored: twice, grid: "g") }
    }
}
