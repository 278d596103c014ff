import Foundation
import GridLayout
import SeededRandom
import Testing
import TestSupport
@testable import GridStore
import GridStoreSQLite

/// The peers record never credits a peer with registers it does not hold: replicas edit, sync
/// both ways and pass bundles (made since a peer's cursor, applied late and out of order), at
/// random; after every step, for every replica and every peer it recorded as holding version
/// `v`, every write its rows at or before `v` hold is one the peer knows now.
///
/// `GRIDSTORE_PEER_SEEDS` sets how many seeds run on each storage (40 in memory and 10 in SQLite
/// files when unset). A failing seed prints itself, its storage and the step that broke the rule.
@Suite("Sync peers, at random")
struct SyncPeersPropertyTests {
    /// Where the replicas keep their grids: in memory, or in SQLite files (whose statements
    /// write the record otherwise).
    enum Storage: String, CaseIterable, CustomStringConvertible {
        case inMemory, sqlite
        var description: String { rawValue }
    }

    static var seeds: [(Storage, UInt64)] {
        let given = ProcessInfo.processInfo.environment["GRIDSTORE_PEER_SEEDS"].flatMap { Int($0) }
        return Storage.allCases.flatMap { storage in (0..<UInt64(given ?? (storage == .inMemory ? 40 : 10))).map { (storage, $0) } }
    }

    static let grid = "g"

    @Test("no replica credits a peer with a register it does not hold", arguments: seeds)
    func neverOverCredits(storage: Storage, seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed &* 0x9E37_79B9 &+ 7)
        let directory = TemporaryDirectory()
        let replicas = try (0..<4).map { index in
            storage == .inMemory ? GridDatabase.inMemory() : try GridDatabase(path: directory.file("\(index).sqlite"))
        }
        try Grid(named: Self.grid, in: replicas[0], creatingWith: GridOptions(sectionItemCounts: [12])).toggle(at: GridIndexPath(item: 0))
        var bundles: [(SyncBundle, to: Int)] = []
        var credited = 0
        for step in 0..<40 {
            let index = Int.random(in: 0..<replicas.count, using: &generator)
            var other = Int.random(in: 0..<(replicas.count - 1), using: &generator)
            if other >= index { other += 1 }
            let action = Int.random(in: 0..<10, using: &generator)
            let description = "seed \(seed) (\(storage)), step \(step): action \(action) on replica \(index) with \(other)"
            do {
                try Self.run(action, on: index, with: other, in: replicas, bundles: &bundles, using: &generator)
            } catch let error as GridError {
                if case .nothingToUndo = error { continue }
                if case .nothingToRedo = error { continue }
                Issue.record("\(description) threw \(error)")
                return
            }
            let found = try Self.overCredits(in: replicas)
            credited += found.credited
            guard found.problems.isEmpty else {
                Issue.record("\(description): \(found.problems.joined(separator: "; "))")
                return
            }
        }
        // The run met peers that hold something: the rule was put to the test.
        #expect(credited > 0, "seed \(seed) credited no peer with any version")
    }

    /// One random action: an edit of the grid on `index`, a sync of `index` with `other`, a
    /// bundle made on `index` for `other`'s cursor, or a bundle made earlier applied.
    static func run(_ action: Int, on index: Int, with other: Int, in replicas: [GridDatabase], bundles: inout [(SyncBundle, to: Int)],
                    using generator: inout SeededGenerator) throws {
        let database = replicas[index]
        func has(_ database: GridDatabase) throws -> Bool { try Grid.exists(named: Self.grid, in: database) }
        // A replica that lacks the grid gets it first.
        if action < 6 || action == 8, try !has(database) {
            _ = try database.sync(with: replicas[0], grids: [Self.grid])
            return
        }
        switch action {
        case 0...5:
            let grid = try Grid(named: Self.grid, in: database, creatingWith: nil)
            let count = try grid.snapshot().itemCounts.first ?? 0
            switch action {
            case 0 where count > 0, 1 where count > 0: try grid.toggle(at: GridIndexPath(item: Int.random(in: 0..<count, using: &generator)))
            case 2:
                _ = try grid.update { try $0.insertItem(at: GridIndexPath(item: Int.random(in: 0...count, using: &generator)), size: .middle) }
            case 3 where count > 1:
                _ = try grid.update { try $0.deleteItem(at: GridIndexPath(item: Int.random(in: 0..<count, using: &generator))) }
            case 4 where count > 1:
                let destination = Int.random(in: 0..<count, using: &generator)
                _ = try grid.update { try $0.moveItem(from: GridIndexPath(item: 0), to: GridIndexPath(item: destination)) }
            case 5: _ = try grid.undo()
            default: break
            }
        case 6, 7:
            guard try has(database) || has(replicas[other]) else { return }
            _ = try database.sync(with: replicas[other], grids: [Self.grid])
        case 8:
            let cursor = try has(replicas[other]) ? try Grid(named: Self.grid, in: replicas[other], creatingWith: nil).syncCursor() : .empty
            bundles.append((try Grid(named: Self.grid, in: database, creatingWith: nil).syncBundle(since: cursor), other))
        default:
            guard !bundles.isEmpty else { return }
            let (bundle, target) = bundles.remove(at: Int.random(in: 0..<bundles.count, using: &generator))
            guard try has(replicas[target]) else { return }
            try Grid(named: Self.grid, in: replicas[target], creatingWith: nil).applySyncBundle(bundle)
        }
    }

    /// For every replica and every peer it recorded, the writes of its rows at or before the
    /// version the peer is said to hold that the peer does not know now; and how many peers
    /// were said to hold a version past 0.
    static func overCredits(in replicas: [GridDatabase]) throws -> (problems: [String], credited: Int) {
        var knows: [ReplicaID: VersionVector] = [:]
        for database in replicas {
            try database.storageRead { transaction in
                guard let header = try transaction.header(named: grid)?.header(), let row = try transaction.syncState(gridID: header.id),
                      let replica = ReplicaID(row.replica), let versions = SyncVersionsText.decode(row.versions) else { return }
                knows[replica] = versions
            }
        }
        var problems: [String] = []
        var credited = 0
        for (index, database) in replicas.enumerated() {
            try database.storageRead { transaction in
                guard let header = try transaction.header(named: grid)?.header(), let row = try transaction.syncState(gridID: header.id)
                else { return }
                guard let peers = SyncPeers(stored: row) else { return problems.append("replica \(index)'s peers cannot be read") }
                let stored = try transaction.syncRegisters(gridID: header.id, changedAfter: 0, limit: 100_000)
                let numbers = try SyncReplicaNumbers(stored: stored.replicas, grid: grid)
                for peer in peers.peers where peer.version > 0 {
                    guard let known = knows[peer.replica] else { continue }
                    credited += 1
                    var held = ReplicatedGrid()
                    try held.load(stored.registers.filter { $0.version <= peer.version && $0.kind != "replica" }, replicas: numbers, grid: grid)
                    let writes = VersionVector(held.latestTimes())
                    if !writes.isCovered(by: known) {
                        problems.append("replica \(index) says \(peer.replica) holds version \(peer.version) of \(row.version), "
                                        + "whose writes \(SyncVersionsText.encode(writes)) it does not know (\(SyncVersionsText.encode(known)))")
                    }
                }
            }
        }
        return (problems, credited)
    }
}
