import Foundation
import GridLayout
import Testing
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit

/// docs/library.md's first example (Tests/SnippetTests compiles it as written), kept true.
@Suite("The library's first example")
struct ReadmeExampleTests {
    @Test("the first example of docs/library.md does what its comments say")
    func libraryExample() async throws {
        let directory = TemporaryDirectory()

        // Pack tiles without storing them.
        let grid = TileGrid(configuration: GridConfiguration(type: .less), sections: [[.small, .middle, .big]])
        #expect(grid.sections[0][2] == CellRect(x: 0, y: 2, width: 4, height: 2))
        let frames = try GridFrames(grid: grid, metrics: FrameMetrics(crossAxisLength: 320, spacing: 8))
        #expect(frames.items(in: LayoutRect(x: 0, y: 0, width: 320, height: 100)) == [GridIndexPath(item: 0), GridIndexPath(item: 1)])

        // Keep sizes like UserDefaults, in SQLite.
        let sizes = try DatabaseGridSizeRepository(path: directory.file("sizes.sqlite"))
        sizes.register(defaultSize: .middle)
        try sizes.setItemCount(20, inSection: 0)
        try sizes.set(.big, at: GridIndexPath(item: 2))
        try sizes.insertItem(at: GridIndexPath(item: 0))
        #expect(try sizes.size(at: GridIndexPath(item: 3)) == .big)
        #expect(try sizes.size(at: GridIndexPath(item: 4)) == .middle)
        #expect(try sizes.itemCount(inSection: 0) == 21)

        // Grids in a database: a transaction changes any of them together, or none.
        let database = try GridDatabase(path: directory.file("grids.sqlite"))
        let phone = try Grid(named: "phone", in: database, creatingWith: GridOptions(type: .more))
        let tablet = try Grid(named: "tablet", in: database)
        try database.write { transaction in
            try transaction.update(phone) { try $0.toggle(at: GridIndexPath(item: 3)) }
            try transaction.update(tablet) { try $0.toggle(at: GridIndexPath(item: 3)) }
        }
        try phone.toggle(at: GridIndexPath(item: 3))
        let (phoneRevision, tabletRevision) = (try phone.snapshot().revision, try tablet.snapshot().revision)
        #expect(phoneRevision == 2 && tabletRevision == 1)
        let snapshot = try await phone.changing { phone in
            try phone.update { editor in
                try editor.toggle(at: GridIndexPath(item: 3))
                try editor.moveItem(from: GridIndexPath(item: 0), to: GridIndexPath(item: 5))
            }
        }
        #expect(snapshot.revision == 3)
        for try await change in phone.changes() {
            #expect(change.revision == 3 && change.isInitial)
            break
        }

        // Item keys.
        do {
            let apps = try DatabaseGridSizeRepository(suiteName: "apps", path: directory.file("grids.sqlite"))
            try apps.setItems(keys: ["mail", "calendar", "news"], inSection: 0)
            try apps.set(.big, forKey: "news")
            try apps.setItems(keys: ["news", "maps", "mail"], inSection: 0)
            #expect(try apps.size(forKey: "news") == .big)
            #expect(try apps.indexPath(forKey: "mail") == GridIndexPath(item: 2))
            #expect(try apps.indexPath(forKey: "calendar") == nil)
        }

        // History.
        do {
            let board = try Grid(named: "board", in: database)
            try board.toggle(at: GridIndexPath(item: 3))
            try board.undo()
            try board.redo()
            #expect(try board.snapshot(at: 1).revision == 1)
            #expect(try board.history(limit: 3).map(\.kind) == [.redo, .undo, .change])
        }

        // Typed throws.
        do throws(GridError) {
            try Grid(named: "phone", in: database).toggle(at: GridIndexPath(item: 99))
            Issue.record("item 99 was toggled")
        } catch .itemOutOfRange(let path, _, _) {
            #expect(path.item == 99)
        } catch {
            Issue.record("\(error)")
        }

        // An app's own tables beside gridstore's.
        do {
            let appFile = directory.file("app.sqlite")
            try SQLiteConnection(path: appFile).execute("CREATE TABLE contacts (name TEXT)")
            let database = try GridDatabase(embeddingIn: appFile)
            let notes = try MigrationSet(files: [("0001_notes.sql", "CREATE TABLE notes (body TEXT) STRICT;")])
            try database.migrate(MigrationRunner(namespace: "notes_app", migrations: notes))
            #expect(try database.migrationStatus(of: MigrationRunner(namespace: "notes_app", migrations: notes)).isUpToDate)
        }

        // Documents and Codable values.
        do {
            let grid = try Grid(named: "phone", in: GridDatabase(path: directory.file("documents.sqlite")))
            let text = GridDocument.encode(try grid.snapshot())
            let decoded = try GridDocument.decode(text)
            try decoded.validate()
            try Grid(named: "copy", in: grid.database).replaceContent(decoded.content)
            #expect(try Grid(named: "copy", in: grid.database).snapshot().content == decoded.content)
            let data = try JSONEncoder().encode(try grid.snapshot())
            let decodedSnapshot = try JSONDecoder().decode(GridSnapshot.self, from: data)
            #expect(decodedSnapshot == (try grid.snapshot()))
        }

        // Items per row, as the original configured spans.
        let (spans, columns) = try TileSpans.itemsPerRow(small: 3, middle: 1.5, big: 1)
        #expect(columns == 3 && spans.big == TileSpan(width: 3, height: 2))
    }
}
