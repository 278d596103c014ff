import Foundation
import GridLayout
import SeededRandom
import GridStoreAudit
import Testing
import GridStorePostgreSQL
@testable import GridStore
@testable import GridStoreSQLite

@Suite("Item keys")
struct ItemKeyTests {
    let directory = TemporaryDirectory()

    /// The grid as a fresh connection reads it back from the database.
    func reread(_ path: String, _ name: String = "default") throws -> GridSnapshot {
        try Grid(named: name, in: GridDatabase(location: path), creatingWith: nil).snapshot()
    }

    @Test("setItems(keys:) makes the section exactly those keys: known keys keep their sizes, new ones get the default, others go",
          arguments: Backend.all)
    func setItems(backend: Backend) throws {
        let path = try backend.database(in: directory)
        let grid = try Grid(named: "default", in: GridDatabase(location: path))
        try grid.setItems(keys: ["mail", "calendar", "news", "photos"], inSection: 0)
        try grid.setSize(.big, forKey: "news")
        try grid.toggle(forKey: "mail")
        let before = try grid.snapshot().revision
        let after = try grid.setItems(keys: ["news", "maps", "mail"], inSection: 0)
        #expect(after.revision == before + 1)
        #expect(try after.keys(inSection: 0) == ["news", "maps", "mail"])
        #expect(try after.size(forKey: "news") == .big)
        #expect(try after.size(forKey: "maps") == .small)
        #expect(try after.size(forKey: "mail") == .middle)
        #expect(after.indexPath(forKey: "calendar") == nil)
        #expect(after.indexPath(forKey: "mail") == GridIndexPath(item: 2))
        let stored = try reread(path)
        #expect(stored == after)
        #expect(try StoredGrid.read("default", path: path).map { $0.placements == $0.freshPlacements() } == true)
        // The same keys again change nothing and write nothing.
        #expect(try grid.setItems(keys: ["news", "maps", "mail"], inSection: 0).revision == after.revision)
    }

    @Test("a key stays with its item through inserts, deletes, moves across sections, section removal and shrinking",
          arguments: Backend.all)
    func keysFollowItems(backend: Backend) throws {
        let path = try backend.database(in: directory)
        let grid = try Grid(named: "default", in: GridDatabase(location: path),
                            creatingWith: GridOptions(type: .more, sectionItemCounts: [4, 3, 2]))
        try grid.update { editor in
            try editor.setKey("a", at: GridIndexPath(item: 1))
            try editor.setKey("b", at: GridIndexPath(item: 3))
            try editor.setKey("c", at: GridIndexPath(item: 0, section: 2))
            try editor.setSize(.big, at: GridIndexPath(item: 3))
        }
        var snapshot = try grid.update { try $0.insertItem(at: GridIndexPath(item: 0), size: .middle, key: "new") }
        #expect(try snapshot.keys(inSection: 0) == ["new", nil, "a", nil, "b"])
        snapshot = try grid.update { try $0.deleteItem(at: GridIndexPath(item: 1)) }
        #expect(try snapshot.keys(inSection: 0) == ["new", "a", nil, "b"])
        snapshot = try grid.update { try $0.moveItem(from: GridIndexPath(item: 3), to: GridIndexPath(item: 1, section: 1)) }
        #expect(try snapshot.keys(inSection: 0) == ["new", "a", nil])
        #expect(try snapshot.keys(inSection: 1) == [nil, "b", nil, nil])
        #expect(try snapshot.size(forKey: "b") == .big)
        snapshot = try grid.update { try $0.removeSection(at: 1) }
        #expect(snapshot.indexPath(forKey: "b") == nil)
        #expect(snapshot.indexPath(forKey: "c") == GridIndexPath(item: 0, section: 1))
        // The key of a removed item can be given again in the same change.
        snapshot = try grid.update { editor in
            try editor.setItemCount(1, inSection: 0)
            try editor.setKey("a", at: GridIndexPath(item: 1, section: 1))
        }
        #expect(try snapshot.keys(inSection: 0) == ["new"])
        #expect(try snapshot.keys(inSection: 1) == ["c", "a"])
        #expect(try reread(path) == snapshot)
        #expect(try grid.update { try $0.setKey(nil, at: GridIndexPath(item: 0)) }.indexPath(forKey: "new") == nil)
        #expect(try reread(path).indexPath(forKey: "new") == nil)
    }

    @Test("keys that are invalid, listed twice, held by another item or unknown are refused, and nothing is written",
          arguments: Backend.all)
    func refusals(backend: Backend) throws {
        let path = try backend.database(in: directory)
        let grid = try Grid(named: "default", in: GridDatabase(location: path),
                            creatingWith: GridOptions(type: .more, sectionItemCounts: [3, 2]))
        try grid.update { try $0.setKey("mail", at: GridIndexPath(item: 0, section: 1)) }
        let before = try DatabaseAudit.rows(path: path)
        let refusals: [(GridError, (inout GridEditor) throws -> Void)] = [
            (.repeatedKey("a"), { try $0.setItems(keys: ["a", "b", "a"], inSection: 0) }),
            (.duplicateKey("mail", GridIndexPath(item: 0, section: 1)), { try $0.setItems(keys: ["mail"], inSection: 0) }),
            (.duplicateKey("mail", GridIndexPath(item: 0, section: 1)), { try $0.setKey("mail", at: GridIndexPath(item: 2)) }),
            (.duplicateKey("mail", GridIndexPath(item: 0, section: 1)), { try $0.insertItem(at: GridIndexPath(item: 0), key: "mail") }),
            (.invalidKey("", reason: "a key has at least one character"), { try $0.setKey("", at: GridIndexPath(item: 0)) }),
            (.keyNotFound("nope", grid: "default"), { try $0.toggle(forKey: "nope") }),
            (.sectionOutOfRange(2, sectionCount: 2), { try $0.setItems(keys: ["x"], inSection: 2) }),
        ]
        for (error, refusal) in refusals {
            #expect(throws: error) { try grid.update(refusal) }
        }
        #expect(throws: GridError.self) { try grid.update { try $0.setKey("line\nbreak", at: GridIndexPath(item: 0)) } }
        #expect(throws: GridError.self) { try grid.update { try $0.setKey(String(repeating: "k", count: 256), at: GridIndexPath(item: 0)) } }
        #expect(try DatabaseAudit.rows(path: path) == before)
    }

    @Test("random edits with keys: the stored keys, sizes and placements always equal the editor's", arguments: Backend.all)
    func randomEdits(backend: Backend) throws {
        let path = try backend.database(in: directory)
        var generator = SeededGenerator(seed: 77)
        let grid = try Grid(named: "default", in: GridDatabase(location: path),
                            creatingWith: GridOptions(type: .less, sectionItemCounts: [30, 10]))
        var serial = 0
        for _ in 0..<120 {
            let result = try? grid.update { editor in
                let counts = editor.snapshot.itemCounts
                let section = Int.random(in: 0..<max(1, counts.count), using: &generator)
                let count = counts.isEmpty ? 0 : counts[section]
                let path = GridIndexPath(item: Int.random(in: 0..<max(1, count), using: &generator), section: section)
                serial += 1
                switch Int.random(in: 0..<9, using: &generator) {
                case 0: try editor.setKey("k\(serial)", at: path)
                case 1: try editor.setKey(nil, at: path)
                case 2: try editor.insertItem(at: GridIndexPath(item: Int.random(in: 0...count, using: &generator), section: section),
                                              size: .middle, key: Bool.random(using: &generator) ? "i\(serial)" : nil)
                case 3: try editor.deleteItem(at: path)
                case 4:
                    let target = Int.random(in: 0..<max(1, counts.count), using: &generator)
                    try editor.moveItem(from: path, to: GridIndexPath(item: 0, section: target))
                case 5:
                    var keys = try editor.snapshot.keys(inSection: section).compactMap { $0 }
                    keys.shuffle(using: &generator)
                    keys.append("s\(serial)")
                    try editor.setItems(keys: keys, inSection: section)
                case 6: try editor.toggle(at: path)
                case 7: try editor.setItemCount(Int.random(in: 0...40, using: &generator), inSection: section)
                default:
                    if counts.count < 4 { try editor.appendSection(itemCount: 5) } else { try editor.removeSection(at: section) }
                }
            }
            guard let result else { continue }
            #expect(try reread(path) == result)
            #expect(try StoredGrid.read("default", path: path).map { $0.placements == $0.freshPlacements() } == true)
        }
    }

    @Test("keys travel in Codable values and documents, and a document's duplicate key is refused")
    func documents() throws {
        var content = GridContent(columns: 4, sections: [[.big, nil], [nil]])
        content.keys = [["mail", nil], ["news"]]
        let snapshot = try GridSnapshot(name: "g", revision: 3, content: content)
        let json = try JSONEncoder().encode(snapshot)
        #expect(String(decoding: json, as: UTF8.self).contains(#""keys":[["mail",null],["news"]]"#))
        #expect(try JSONDecoder().decode(GridSnapshot.self, from: json) == snapshot)
        let document = GridDocument.encode(snapshot)
        #expect(document.contains(#"{"index":0,"key":"mail","size":"big""#))
        let decoded = try GridDocument.decode(document)
        #expect(decoded.content.keys == [["mail", nil], ["news"]])
        #expect(decoded.content.sections == content.sections)
        let twice = document.replacingOccurrences(of: #""key":"news""#, with: #""key":"mail""#)
        #expect(throws: GridError.repeatedKey("mail")) { try GridDocument.decode(twice).validate() }
        var uneven = content
        uneven.keys = [["mail"]]
        #expect(throws: GridError.self) { try GridSnapshot(name: "g", revision: 0, content: uneven) }
    }

    @Test("a stored key that is not valid, or that points past the items, is reported as corruption")
    func corruptedKeys() throws {
        let path = directory.file("keys.sqlite")
        do {
            // Closed before the file is copied, so that everything is in the file itself.
            try Grid(named: "default", in: GridDatabase(location: path)).setItems(keys: ["a", "b"], inSection: 0)
        }
        for (sql, expected) in [
            ("UPDATE item_keys SET key = 'tab' || char(9) WHERE key = 'a'", "invalid key for item 0"),
            ("UPDATE item_keys SET item = 7 WHERE key = 'b'", "item 7 of section 0, which does not exist"),
        ] {
            let copy = directory.file("copy-\(expected.count).sqlite")
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            try SQLiteConnection(path: copy).execute(sql)
            #expect {
                try Grid(named: "default", in: GridDatabase(location: copy), creatingWith: nil).snapshot()
            } throws: { error in
                guard case GridError.corrupted(let reason) = error else { return false }
                return reason.contains(expected)
            }
        }
    }

    @Test("the repository reads and writes sizes by key, observers see rekeyed sections")
    func repository() throws {
        let repository = try DatabaseGridSizeRepository(database: GridDatabase(location: directory.file("repo.sqlite")))
        try repository.setItems(keys: ["x", "y"], inSection: 0)
        try repository.set(.middle, forKey: "y")
        #expect(try repository.size(forKey: "y") == .middle)
        #expect(try repository.indexPath(forKey: "x") == GridIndexPath(item: 0))
        #expect(try repository.keys(inSection: 0) == ["x", "y"])
        try repository.removeSize(forKey: "y")
        #expect(try repository.size(forKey: "y") == .small)
        #expect(throws: GridError.keyNotFound("z", grid: "default")) { try repository.set(.big, forKey: "z") }
        let old = try repository.snapshot()
        try repository.setItems(keys: ["y", "x"], inSection: 0)
        let change = GridChange(from: old, to: try repository.snapshot())
        #expect(change.rekeyedSections == [0])
    }
}
