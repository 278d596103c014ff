import Foundation
import GridLayout
import Testing
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit

/// `GridDatabase(path:creatingOnFirstChange: true)`: no file until a change commits.
@Suite("a database made on its first change")
struct CreatingOnFirstChangeTests {
    let directory = TemporaryDirectory()

    var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted() }

    @Test("it reads as an empty database; a refused change leaves no file, nor the folder it would be in")
    func refusedChangeLeavesNothing() throws {
        let path = directory.file("sub/new.sqlite")
        do {
            let database = try GridDatabase(path: path, creatingOnFirstChange: true)
            #expect(try Grid.list(in: database).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: path))
            let grid = try Grid(named: "default", in: database)
            #expect(throws: GridError.self) { try grid.toggle(at: GridIndexPath(item: 40)) }
            #expect(throws: GridError.self) { try database.write { transaction in
                _ = try transaction.update(gridNamed: "g") { try $0.setSize(.big, at: GridIndexPath(item: 1)) }
                throw GridError.gridNotFound("made up, to roll the change back")
            } }
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(try Grid.list(in: database).isEmpty)
        }
        #expect(files.isEmpty, "\(files)")
    }

    @Test("a first change whose file cannot be made is not made, the database is closed, and closing it is safe")
    func unmadeFileCloses() throws {
        // A folder that cannot be made: its name is a file's.
        #expect(FileManager.default.createFile(atPath: directory.file("plain"), contents: Data("not a folder".utf8)))
        let path = directory.file("plain/new.sqlite")
        let database = try GridDatabase(path: path, creatingOnFirstChange: true)
        let grid = try Grid(named: "default", in: database)
        #expect(throws: (any Error).self) { try grid.toggle(at: GridIndexPath(item: 3)) }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect { try Grid.list(in: database) } throws: { error in
            if case GridError.storage(let failure) = error { return failure.kind == .closed }
            return false
        }
        // Its connection in memory is gone already: closing neither checkpoints nor closes it again.
        try database.close()
        #expect(database.isClosed)
        #expect(files == ["plain"])
    }

    @Test("the first change that commits makes the file, with the change, owned by gridstore; later changes and reads go on")
    func firstChangeMakesTheFile() throws {
        let path = directory.file("sub/new.sqlite")
        let database = try GridDatabase(path: path, creatingOnFirstChange: true)
        let grid = try Grid(named: "default", in: database)
        try grid.toggle(at: GridIndexPath(item: 3))
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(files == ["sub"])
        let folder = try FileManager.default.contentsOfDirectory(atPath: directory.file("sub"))
        #expect(folder.allSatisfy { $0.hasPrefix("new.sqlite") }, "\(folder)")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        try grid.toggle(at: GridIndexPath(item: 4))
        #expect(try grid.snapshot().content.sections[0][3...4] == [.middle, .middle])
        let other = try GridDatabase(path: path)
        #expect(try Grid(named: "default", in: other, creatingWith: nil).storedSnapshot().revision == 2)
        // The replica id minted in the file built under another name belongs to the file at its path.
        let identity = try #require(try other.sqlite?.readConnection { try $0.fetchOne("SELECT file_identity FROM replica") { $0.string(at: 0) } })
        #expect(identity == FileIdentity.replicaText(of: path))
        try database.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("sub")).allSatisfy { $0.hasPrefix("new.sqlite") })
    }

    @Test("a file another process made meanwhile: the first change is not made and says so; tried again, it is made in that file")
    func anotherProcessWins() throws {
        let path = directory.file("raced.sqlite")
        let database = try GridDatabase(path: path, creatingOnFirstChange: true)
        let winner = try GridDatabase(path: path)
        try Grid(named: "default", in: winner).setSize(.big, at: GridIndexPath(item: 0))
        let grid = try Grid(named: "default", in: database)
        let error = #expect(throws: GridError.self) { try grid.toggle(at: GridIndexPath(item: 5)) }
        #expect(error == .storage(GridStorageFailure(kind: .databaseFile, message: "cannot create \(path): another process created it "
                                                     + "while this change was being made, so the change was not made; try it again")),
                "\(String(describing: error))")
        #expect(try Grid(named: "default", in: winner).snapshot().revision == 1)
        try grid.toggle(at: GridIndexPath(item: 5))
        #expect(try Grid(named: "default", in: winner).snapshot().content.sections[0][0...5] == [.big, nil, nil, nil, nil, .middle])
        #expect(files.allSatisfy { $0.hasPrefix("raced.sqlite") }, "\(files)")
    }

    @Test("reads on other threads while the first change links the file into place all succeed, before or after it")
    func readsDuringTheFirstChange() async throws {
        let path = directory.file("busy.sqlite")
        let database = try GridDatabase(path: path, creatingOnFirstChange: true)
        let failures = Locked<[String]>([])
        let stop = Locked(false)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    while !stop.withLock({ $0 }) {
                        do {
                            _ = try await database.reading { try Grid.list(in: $0) }
                        } catch {
                            failures.withLock { $0.append("\(error)") }
                        }
                    }
                }
            }
            for item in 0..<5 { try Grid(named: "default", in: database).toggle(at: GridIndexPath(item: item)) }
            stop.withLock { $0 = true }
            try await group.waitForAll()
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(try Grid(named: "default", in: GridDatabase(path: path), creatingWith: nil).storedSnapshot().revision == 5)
    }
}
