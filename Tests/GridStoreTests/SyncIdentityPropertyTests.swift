import Foundation
import GridLayout
import SeededRandom
import Testing
import TestSupport
@testable import GridStore
@testable import GridStoreSQLite

/// Replicas of one grid that edit and sync at random and also come and go by every path a
/// person has: a database file copied to a new device, a backup restored (as a new file moved
/// into place, or written over the file), a grid copied with `Grid.copy`, a new device set up from an exported document,
/// an older export imported again. After every step, every item id a database shows is one an edit made (a
/// registry of every id seen, each new one paid for by an edit that added as many tiles); after
/// a full sync every replica shows the same grid, ids and conflicts, and a second sync moves
/// nothing.
///
/// `GRIDSTORE_SYNC_SEEDS` sets how many seeds run on each backend (40 on SQLite and 8 on
/// PostgreSQL when unset; 600 locally before a change to sync lands). A failing seed prints its
/// steps cut down to the fewest that still fail, to replay by hand.
@Suite("Sync identity on every path, at random")
struct SyncIdentityPropertyTests {
    static var seeds: [(Backend, UInt64)] {
        let given = ProcessInfo.processInfo.environment["GRIDSTORE_SYNC_SEEDS"].flatMap { Int($0) }
        return Backend.all.flatMap { backend in
            (0..<(given ?? (backend == .sqlite ? 40 : 8))).map { (backend, UInt64($0)) }
        }
    }

    @Test("copies, restores, exports imported and devices joining keep every tile's identity: nothing doubled, misplaced or lost, every replica equal",
          arguments: seeds)
    func identityOnEveryPath(backend: Backend, seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed &* 0x2545_F491 &+ 43)
        let steps = (0..<60).map { _ in IdentityStep(using: &generator) }
        let problems = IdentityWorld.problems(of: steps, backend: backend)
        guard let first = problems.first else { return }
        let fewest = IdentityWorld.shrink(steps, backend: backend)
        Issue.record("""
            \(first) (\(problems.count) problems); seed \(seed) on \(backend) (replay with arguments: [(.\(backend), \(seed))]); \
            the fewest steps that fail: \(fewest.map { "\($0)" }.joined(separator: "; "))
            """)
    }
}

/// One step of a random run, as numbers read against the replicas when it runs, so that any
/// subset of a run's steps is a run too (which lets a failing run be cut down).
struct IdentityStep: CustomStringConvertible {
    enum Kind: Int, CaseIterable {
        case toggle, setSize, insert, delete, move, setItemCount, undo, redo, sync, bundleMade, bundleApplied, backup, restore,
             fileCopy, gridCopy, export, newDeviceFromExport, exportImportedAgain
    }

    var kind: Kind
    var replica: Int
    var other: Int
    var numbers: (Int, Int)

    init(using generator: inout SeededGenerator) {
        let weights: [(Kind, Int)] = [(.toggle, 4), (.setSize, 2), (.insert, 2), (.delete, 2), (.move, 2), (.setItemCount, 1),
                                      (.undo, 3), (.redo, 2), (.sync, 6), (.bundleMade, 2), (.bundleApplied, 2), (.backup, 2),
                                      (.restore, 2), (.fileCopy, 2), (.gridCopy, 1), (.export, 2), (.newDeviceFromExport, 1),
                                      (.exportImportedAgain, 1)]
        var pick = Int.random(in: 0..<weights.reduce(0) { $0 + $1.1 }, using: &generator)
        kind = weights.first { pick -= $0.1; return pick < 0 }!.0
        replica = Int.random(in: 0..<64, using: &generator)
        other = Int.random(in: 0..<64, using: &generator)
        numbers = (Int.random(in: 0..<1_000, using: &generator), Int.random(in: 0..<1_000, using: &generator))
    }

    /// A step as its ``description`` prints it, to replay a cut-down run.
    init(_ kind: Kind, _ replica: Int, _ other: Int, _ first: Int, _ second: Int) {
        self.kind = kind
        self.replica = replica
        self.other = other
        numbers = (first, second)
    }

    var description: String { "(.\(kind), \(replica), \(other), \(numbers.0), \(numbers.1))" }
}

/// The replicas (replica 0 on the backend under test, the others files), what they showed, and
/// the backups, documents and bundles they left.
private struct IdentityWorld {
    struct Replica {
        var database: GridDatabase
        /// The database file; `nil` for a PostgreSQL database, which is not copied as a file.
        var path: String?
    }

    static let maximumReplicas = 7
    let directory = TemporaryDirectory()
    var replicas: [Replica] = []
    var backups: [(replica: Int, bytes: Data)] = []
    var documents: [String] = []
    var bundles: [(to: Int, bytes: [UInt8])] = []
    /// Every item id any replica has shown.
    var seen: Set<String> = []
    var files = 0
    var problems: [String] = []

    /// What goes wrong in a run of `steps`, each problem a sentence; empty when nothing does.
    static func problems(of steps: [IdentityStep], backend: Backend) -> [String] {
        do {
            var world = try IdentityWorld(backend: backend)
            for (number, step) in steps.enumerated() {
                do {
                    try world.run(step)
                } catch {
                    world.problems.append("step \(number), \(step): \(error)")
                }
                if !world.problems.isEmpty { return world.problems }
            }
            try world.syncEverything()
            return world.problems
        } catch {
            return ["\(error)"]
        }
    }

    /// The fewest of `steps` (removing one at a time while the rest still fail) that still fail.
    static func shrink(_ steps: [IdentityStep], backend: Backend) -> [IdentityStep] {
        var steps = steps, shrunk = true
        while shrunk {
            shrunk = false
            for index in steps.indices.reversed() {
                var fewer = steps
                fewer.remove(at: index)
                if !problems(of: fewer, backend: backend).isEmpty { steps = fewer; shrunk = true }
            }
        }
        return steps
    }

    init(backend: Backend) throws {
        let hub = try GridDatabase(location: try backend.database(in: directory, name: "hub.sqlite"))
        replicas.append(Replica(database: hub, path: nil))
        for _ in 0..<2 { replicas.append(try newFile()) }
        for replica in replicas { try Grid(named: "default", in: replica.database).update { try $0.setItemCount(6, inSection: 0) } }
        for replica in replicas.dropFirst() { _ = try replica.database.sync(with: hub) }
        for index in replicas.indices { try see(index, paidFor: Int.max, after: "the first sync") }
    }

    mutating func newFile() throws -> Replica {
        files += 1
        let path = directory.file("replica\(files).sqlite")
        return Replica(database: try GridDatabase(path: path), path: path)
    }

    func grid(_ index: Int) throws -> Grid { try Grid(named: "default", in: replicas[index].database) }

    func itemCount(_ index: Int) throws -> Int { try grid(index).storedSnapshot().content.sections.reduce(0) { $0 + $1.count } }

    /// Checks what replica `index` shows: each id once, and at most `paidFor` ids no replica showed before.
    mutating func see(_ index: Int, paidFor allowance: Int, after step: String) throws {
        guard let identity = try grid(index).syncIdentity() else {
            problems.append("replica \(index) has no sync identity after \(step)")
            return
        }
        let ids = identity.items.flatMap { $0 }.map(\.id)
        if Set(ids).count != ids.count { problems.append("replica \(index) shows an id twice after \(step): \(ids)") }
        let new = Set(ids).subtracting(seen)
        if new.count > allowance { problems.append("replica \(index) shows \(new.count) ids no edit made after \(step) (\(allowance) paid for)") }
        seen.formUnion(new)
    }

    mutating func run(_ step: IdentityStep) throws {
        let index = step.replica % replicas.count, other = step.other % replicas.count
        switch step.kind {
        case .toggle, .setSize, .insert, .delete, .move, .setItemCount, .undo, .redo:
            try edit(index, step)
        case .sync:
            guard index != other else { return }
            _ = try replicas[index].database.sync(with: replicas[other].database)
            try see(index, paidFor: 0, after: "a sync with replica \(other)")
            try see(other, paidFor: 0, after: "a sync with replica \(index)")
        case .bundleMade:
            guard index != other else { return }
            bundles.append((other, try grid(index).syncBundle(since: try grid(other).syncCursor()).encoded()))
        case .bundleApplied:
            guard !bundles.isEmpty else { return }
            let bundle = bundles.remove(at: step.numbers.0 % bundles.count)
            try grid(bundle.to).applySyncBundle(bundle.bytes)
            try see(bundle.to, paidFor: 0, after: "a bundle applied")
        case .backup:
            // A backup of a file, taken as a person would: the file's bytes once written through.
            guard let path = replicas[index].path else { return }
            _ = try replicas[index].database.checkpoint()
            backups.append((index, try Data(contentsOf: URL(fileURLWithPath: path))))
        case .restore:
            guard !backups.isEmpty else { return }
            let backup = backups[step.numbers.0 % backups.count]
            guard let path = replicas[backup.replica].path else { return }
            try replicas[backup.replica].database.close()
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            if step.numbers.1 % 2 == 0 {
                // Restored as a new file put in the old one's place, as `cp backup tmp && mv tmp db`
                // does (and backup tools): a file in place of the one that made the backup's
                // changes takes new replica ids.
                try backup.bytes.write(to: URL(fileURLWithPath: path + ".restoring"))
                guard rename(path + ".restoring", path) == 0 else { throw CocoaError(.fileWriteUnknown) }
            } else {
                // Written over the same file, as `cp backup db` does: the file's mark of its
                // latest send tells a database that sent since the backup (docs/sync.md).
                try overwriteFile(at: path, with: backup.bytes)
            }
            replicas[backup.replica].database = try GridDatabase(path: path)
            try see(backup.replica, paidFor: 0, after: "a backup restored")
        case .fileCopy:
            guard replicas.count < Self.maximumReplicas, let path = replicas[index].path else { return }
            _ = try replicas[index].database.checkpoint()
            files += 1
            let copy = directory.file("replica\(files).sqlite")
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            replicas.append(Replica(database: try GridDatabase(path: copy), path: copy))
            try see(replicas.count - 1, paidFor: 0, after: "a file copy of replica \(index)")
        case .gridCopy:
            guard replicas.count < Self.maximumReplicas else { return }
            let device = try newFile()
            try Grid.copy(from: replicas[index].database, to: device.database)
            replicas.append(device)
            try see(replicas.count - 1, paidFor: 0, after: "Grid.copy from replica \(index)")
        case .export:
            let grid = try grid(index)
            documents.append(GridDocument.encode(try grid.storedSnapshot(), syncIdentity: try grid.syncIdentity()))
        case .newDeviceFromExport:
            guard !documents.isEmpty, replicas.count < Self.maximumReplicas else { return }
            let device = try newFile()
            try Grid(named: "default", in: device.database).importDocument(try GridDocument.decode(documents[step.numbers.0 % documents.count]))
            replicas.append(device)
            try see(replicas.count - 1, paidFor: 0, after: "a new device set up from an export")
        case .exportImportedAgain:
            guard !documents.isEmpty else { return }
            // A change that replaces the grid's content, matching tiles by key, then place (not by
            // the document's sync ids: docs/sync.md, "Identity"): its new ids are not checked.
            try grid(index).importDocument(try GridDocument.decode(documents[step.numbers.0 % documents.count]))
            try see(index, paidFor: .max, after: "an export imported again")
        }
    }

    mutating func edit(_ index: Int, _ step: IdentityStep) throws {
        let grid = try grid(index)
        let items = try itemCount(index)
        let path = GridIndexPath(item: step.numbers.0 % max(1, items))
        let keys = ["mail", "maps", "news", "notes"]
        do {
            switch step.kind {
            case .toggle: try grid.toggle(at: path)
            case .setSize: try grid.setSize([nil, TileSize.middle, .big][step.numbers.1 % 3], at: path)
            case .insert:
                let key = step.numbers.1 % 2 == 0 ? keys[step.numbers.1 / 2 % keys.count] : nil
                try grid.update { try $0.insertItem(at: GridIndexPath(item: step.numbers.0 % (items + 1)), size: .big, key: key) }
            case .delete: try grid.update { try $0.deleteItem(at: path) }
            case .move: try grid.update { try $0.moveItem(from: path, to: GridIndexPath(item: step.numbers.1 % max(1, items))) }
            case .setItemCount: try grid.update { try $0.setItemCount(step.numbers.1 % 14, inSection: 0) }
            case .undo: try grid.undo()
            default: try grid.redo()
            }
        } catch let error as GridError {
            switch error {
            case .itemOutOfRange, .duplicateKey, .nothingToUndo, .nothingToRedo: return
            default: throw error
            }
        }
        // Undo and redo of a change recorded by identity bring back the tiles it was about
        // (SyncUndoTests); one recorded without its registers (the import that set a device up
        // from an export, a change made before the grid first synced) is taken back by place, and
        // undoing an import replaces the content as an import does, matching tiles by key, then
        // place: new tiles for the rest.
        let allowance = step.kind == .undo || step.kind == .redo ? .max : max(0, try itemCount(index) - items)
        try see(index, paidFor: allowance, after: "\(step.kind) on replica \(index)")
    }

    /// Every replica syncs with replica 0, twice round; then each shows replica 0's grid, ids
    /// and conflicts, and a sync moves nothing.
    mutating func syncEverything() throws {
        for _ in 0..<2 { for replica in replicas.dropFirst() { _ = try replica.database.sync(with: replicas[0].database) } }
        let expected = try grid(0).storedSnapshot().content
        let identity = try grid(0).syncIdentity()?.items
        let conflicts = try grid(0).syncConflicts()
        for index in replicas.indices {
            try see(index, paidFor: 0, after: "the full sync")
            let content = try grid(index).storedSnapshot().content, ids = try grid(index).syncIdentity()?.items
            if content != expected { problems.append("replica \(index)'s grid \(content.sections) differs from replica 0's \(expected.sections)") }
            if ids != identity {
                problems.append("replica \(index)'s ids \(ids?.map { $0.map(\.id) } ?? []) differ from replica 0's \(identity?.map { $0.map(\.id) } ?? [])")
            }
            if try grid(index).syncConflicts() != conflicts { problems.append("replica \(index)'s conflicts differ from replica 0's") }
            let again = try replicas[index].database.sync(with: replicas[(index + 1) % replicas.count].database)
            if !again.allSatisfy({ $0.sent == 0 && $0.received == 0 }) { problems.append("replica \(index): a second sync moved changes") }
        }
    }
}
