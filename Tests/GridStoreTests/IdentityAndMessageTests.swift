import Foundation
import GridLayout
import GridStoreAudit
import Testing
import TestSupport
@testable import GridStore
import GridStoreSQLite
import GridStorePostgreSQL

/// One identity for a key and a name, exact round trips, and messages that say what happened.
@Suite("Keys, names, round trips and messages")
struct IdentityAndMessageTests {
    let directory = TemporaryDirectory()
    static let composed = "caf\u{E9}", decomposed = "cafe\u{301}"

    @Test("a key or a name in NFC and NFD form is one key and one name, stored in NFC", arguments: Backend.all)
    func normalization(backend: Backend) throws {
        let database = try GridDatabase(location: try backend.database(in: directory))
        let grid = try Grid(named: Self.decomposed, in: database, creatingWith: GridOptions(sectionItemCounts: [3]))
        try grid.update { try $0.setKey(Self.decomposed, at: GridIndexPath(item: 1)) }
        // Looked up in the database and in memory alike, by either form.
        for form in [Self.composed, Self.decomposed] {
            #expect(try Grid(named: form, in: database, creatingWith: nil).item(forKey: form).indexPath == GridIndexPath(item: 1))
            #expect(try Grid.exists(named: form, in: database))
            #expect(throws: GridError.duplicateKey(Self.composed, GridIndexPath(item: 1))) {
                try grid.update { try $0.insertItem(at: GridIndexPath(item: 0), key: form) }
            }
        }
        #expect(Array(try Grid.list(in: database).map(\.name).first!.utf8) == Array(Self.composed.utf8))
        let stored = try grid.snapshot()
        #expect(Array(try #require(try stored.key(at: GridIndexPath(item: 1))).utf8) == Array(Self.composed.utf8))
        try Grid.drop(named: Self.composed, in: database)
        #expect(try Grid.list(in: database).isEmpty)
    }

    @Test("a honeycomb's stored widths survive export and import bit for bit",
          arguments: [0.00001, 60.00004, 1e-300, 0.1 + 0.2, HoneycombConfiguration.maximumLength, Double.leastNonzeroMagnitude])
    func honeycombRoundTrip(width: Double) throws {
        let configuration = try HoneycombConfiguration(elementWidth: width, itemSpacing: width / 3)
        let database = try GridDatabase(location: directory.file("hive.sqlite"))
        let grid = try Grid.create(named: "hive", in: database, content: GridContent(GridOptions(honeycomb: configuration, itemCount: 7)),
                                   replacing: true)
        let document = GridDocument.encode(try grid.snapshot())
        let decoded = try GridDocument.decode(Array(document.utf8))
        let imported = try grid.replaceContent(decoded.content)
        #expect(imported.honeycomb?.elementWidth.bitPattern == width.bitPattern)
        #expect(imported.honeycomb?.itemSpacing.bitPattern == (width / 3).bitPattern)
        #expect(try Grid(named: "hive", in: GridDatabase(location: directory.file("hive.sqlite"))).snapshot().honeycomb == configuration)
    }

    @Test("messages say what was asked: steps, totals, far size keys, repeated JSON keys")
    func messages() throws {
        let database = try GridDatabase(location: directory.file("messages.sqlite"))
        let grid = try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [2]))
        #expect(throws: GridError.invalidStepCount(0)) { try grid.undo(0) }
        #expect(throws: GridError.invalidStepCount(-1)) { try grid.redo(-1) }
        #expect(GridError.invalidStepCount(0).description == "undo and redo take a number of changes from 1, not 0")
        let full = try #require(throws: GridError.self) {
            try grid.update { try $0.setItemCount(GridLimits.maximumItems, inSection: 0); try $0.appendSection(itemCount: 2) }
        }
        #expect(full.description == "a grid holds at most 1000000 items; it has 1000000, and this change would make it 1000002")
        for key in ["r:9223372036854775807_s:0_grid_item_size", "r:99999999999999999999999_s:0_grid_item_size",
                    "r:1000001_s:0_grid_item_size", "r:0_s:10000_grid_item_size"] {
            let defaults = LegacyDefaults([key: "grid_size_big"])
            let error = try #require(throws: GridError.self) { try grid.update { editor in _ = try defaults.apply(to: &editor) } }
            #expect(error.description.hasPrefix("a size key names item"), "\(key): \(error)")
        }
        let repeated = #"{"grid":"g","columns":4,"columns":6,"sections":[[]]}"#
        let error = try #require(throws: (any Error).self) { try GridDocument.decode(Array(repeated.utf8)) }
        #expect("\(error)".contains("the key \"columns\" appears twice in one object"), "\(error)")
    }

    @Test("a grid row no grid could have is reported inconsistent the same way on every backend", arguments: Backend.all)
    func badSummaryRows(backend: Backend) throws {
        let location = try backend.database(in: directory)
        let database = try GridDatabase(location: location)
        _ = try Grid(named: "g", in: database).snapshot()
        // Each constraint that would refuse the edit is dropped or worked around first.
        let sql = backend == .sqlite
            ? "PRAGMA ignore_check_constraints = ON; UPDATE grids SET direction = 'diagonal';"
            : "ALTER TABLE grids DROP CONSTRAINT grids_direction_check; UPDATE grids SET direction = 'diagonal';"
        if backend == .sqlite {
            try SQLiteConnection(path: location, mode: .readWrite).executeScript(sql)
        } else {
            try PostgreSQLScript.run(sql, on: location)
        }
        let listing = { try Grid.list(in: GridDatabase(location: location, applyingMigrations: false)) }
        #expect(throws: GridError.corrupted("grid 'g' has an unknown direction")) { try listing() }
    }

    @Test("dropping or replacing a grid inside its own change is refused as a reentrant call", arguments: Backend.all)
    func dropInsideOwnChange(backend: Backend) throws {
        let location = try backend.database(in: directory)
        let database = try GridDatabase(location: location)
        let grid = try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [2]))
        let source = try GridDatabase(location: try backend.database(in: directory, name: "source.sqlite"))
        _ = try Grid(named: "g", in: source).snapshot()
        #expect(throws: GridError.reentrantCall) {
            try grid.update { editor in
                try editor.toggle(at: GridIndexPath(item: 0))
                try Grid.drop(named: "g", in: database)
            }
        }
        #expect(throws: GridError.reentrantCall) {
            try grid.update { _ in try Grid.copy(from: source, to: database, replacing: true) }
        }
        #expect(try grid.snapshot().revision == 0)
    }
}
