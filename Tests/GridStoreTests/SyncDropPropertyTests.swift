import GridLayout
import SeededRandom
import Testing
import TestSupport
@testable import GridStore

/// Replicas that edit a grid, drop it, make it again, copy it back from one another, rename
/// their databases and sync at random (directly, and by bundles out of order) end, after
/// everyone syncs, all with the same grid or all without it, and a second sync moves nothing.
@Suite("Sync of dropped grids, at random")
struct SyncDropPropertyTests {
    let directory = TemporaryDirectory()

    static let grid = "home"

    @Test("replicas that edit, drop, make again, copy back and sync at random converge (replica 0 on each backend)",
          arguments: Backend.all.flatMap { backend in (0..<(backend == .sqlite ? 6 : 2)).map { (backend, UInt64($0)) } })
    func randomDrops(backend: Backend, seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed &+ 9_100)
        let comment: Comment = "seed \(seed) on \(backend) (replay with arguments: [(.\(backend), \(seed))])"
        let replicas = try (0..<Int.random(in: 3...4, using: &generator)).map { index in
            try GridDatabase(location: index == 0 ? try backend.database(in: directory, name: "replica0.sqlite")
                                                  : directory.file("replica\(index).sqlite"))
        }
        try Grid(named: Self.grid, in: replicas[0]).update { try $0.setItemCount(6, inSection: 0) }
        var bundles: [(to: Int, bytes: [UInt8])] = []
        for _ in 0..<40 {
            let index = Int.random(in: 0..<replicas.count, using: &generator)
            let other = (index + Int.random(in: 1..<replicas.count, using: &generator)) % replicas.count
            let grid = try Grid(named: Self.grid, in: replicas[index])
            do {
                switch Int.random(in: 0..<15, using: &generator) {
                case 0, 1, 2:
                    let items = try grid.snapshot().itemCounts.first ?? 0
                    if items > 0 { try grid.toggle(at: GridIndexPath(item: Int.random(in: 0..<items, using: &generator))) }
                case 3:
                    let items = try grid.snapshot().itemCounts.first ?? 0
                    try grid.update { try $0.insertItem(at: GridIndexPath(item: Int.random(in: 0...items, using: &generator)), size: .big) }
                case 4: try grid.update { try $0.setColumns([4, 6, 8].randomElement(using: &generator)!) }
                case 5, 6: try Grid.drop(named: Self.grid, in: replicas[index], keepingOnPeers: Int.random(in: 0..<4, using: &generator) == 0)
                case 7:
                    if try Grid.exists(named: Self.grid, in: replicas[other]) {
                        try Grid.copy(from: replicas[other], to: replicas[index], names: [Self.grid], replacing: true)
                    }
                case 8, 9, 10: _ = try replicas[index].sync(with: replicas[other], allowingUnrelated: true)
                case 14:
                    // A rename is a label, not a change: it must not keep a grid a drop would drop.
                    try replicas[index].setReplicaName("replica \(index) \(Int.random(in: 0..<1_000, using: &generator))")
                case 11:
                    if try Grid.exists(named: Self.grid, in: replicas[index]) {
                        let cursor = try Grid(named: Self.grid, in: replicas[other]).syncCursor()
                        bundles.append((other, try grid.syncBundle(since: cursor).encoded()))
                    }
                default:
                    guard !bundles.isEmpty else { break }
                    let bundle = bundles.remove(at: Int.random(in: 0..<bundles.count, using: &generator))
                    try Grid(named: Self.grid, in: replicas[bundle.to]).applySyncBundle(bundle.bytes)
                }
            } catch let error as GridError {
                switch error {
                case .gridNotFound, .itemOutOfRange: break
                // A bundle with changes since a drop, but not the whole grid, or from a grid made apart.
                case .sync(let refusal) where refusal.kind == .dropped || refusal.kind == .malformed: break
                default: Issue.record("\(error); \(comment)")
                }
            }
        }
        for _ in 0..<2 { for replica in replicas.dropFirst() { _ = try replica.sync(with: replicas[0], allowingUnrelated: true) } }
        let exists = try Grid.exists(named: Self.grid, in: replicas[0])
        let expected = exists ? try Grid(named: Self.grid, in: replicas[0], creatingWith: nil).storedSnapshot().content : nil
        for (index, replica) in replicas.enumerated() {
            #expect(try Grid.exists(named: Self.grid, in: replica) == exists, "replica \(index); \(comment)")
            if let expected {
                #expect(try Grid(named: Self.grid, in: replica, creatingWith: nil).storedSnapshot().content == expected,
                        "replica \(index); \(comment)")
            }
            let again = try replica.sync(with: replicas[(index + 1) % replicas.count], allowingUnrelated: true)
            #expect(again.allSatisfy { $0.sent == 0 && $0.received == 0 && $0.drop == nil }, "a second sync moved changes: \(again); \(comment)")
        }
    }
}
