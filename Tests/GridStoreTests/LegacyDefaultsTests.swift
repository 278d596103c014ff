import Foundation
import GridLayout
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit
import TestSupport
import Testing

/// Moving the original iOS layout's sizes from an app's `UserDefaults` into a repository, as an
/// app does at its first launch with gridstore: against Foundation's own `UserDefaults`.
@Suite("LegacyDefaults")
struct LegacyDefaultsTests {
    /// A `UserDefaults` suite Foundation keeps, with the original's keys, a stale one, an
    /// unusable one and another app setting.
    func foundationDefaults() throws -> (UserDefaults, String) {
        let suite = "gridstore-tests-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defaults.set("grid_size_big", forKey: "r:0_s:0_grid_item_size")
        defaults.set("grid_size_middle", forKey: "r:3_s:1_grid_item_size")
        defaults.set("grid_size_huge", forKey: "r:1_s:0_grid_item_size")
        defaults.set("grid_size_big", forKey: "r:30_s:0_grid_item_size")
        defaults.set(42, forKey: "launchCount")
        return (defaults, suite)
    }

    @Test("a suite's values, with the app's item counts: stale keys dropped, unusable ones named, counts set, in one change",
          arguments: Backend.all)
    func fromUserDefaults(backend: Backend) throws {
        let (defaults, suite) = try foundationDefaults()
        defer { defaults.removePersistentDomain(forName: suite) }
        let legacy = LegacyDefaults(defaults.dictionaryRepresentation(), itemCounts: [20, 4])
        #expect(legacy.sizes == [GridIndexPath(item: 0): .big, GridIndexPath(item: 3, section: 1): .middle])
        #expect(legacy.droppedKeyCount == 1)
        #expect(legacy.skippedKeys == ["r:1_s:0_grid_item_size"])
        #expect(legacy.otherKeyCount > 0)
        let directory = TemporaryDirectory()
        let database = try GridDatabase(location: try backend.database(in: directory))
        let repository = try DatabaseGridSizeRepository(database: database)
        let snapshot = try repository.importLegacyDefaults(legacy)
        #expect(snapshot.itemCounts == [20, 4])
        #expect(snapshot.revision == 1)
        #expect(try repository.dictionaryRepresentation() == legacy.sizes)
    }

    @Test("the property list Foundation writes for the suite, binary and XML, reads the same")
    func fromPropertyList() throws {
        let (defaults, suite) = try foundationDefaults()
        defer { defaults.removePersistentDomain(forName: suite) }
        let domain = try #require(defaults.persistentDomain(forName: suite))
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            let data = try PropertyListSerialization.data(fromPropertyList: domain, format: format, options: 0)
            let legacy = try LegacyDefaults(propertyList: Array(data))
            #expect(legacy.sizes == [GridIndexPath(item: 0): .big, GridIndexPath(item: 3, section: 1): .middle,
                                     GridIndexPath(item: 30): .big])
            #expect(legacy.skippedKeys == ["r:1_s:0_grid_item_size"])
            #expect(legacy.otherKeyCount == 1)
        }
        #expect(throws: LegacyDefaultsError.self) { try LegacyDefaults(propertyList: Array("not a plist".utf8)) }
    }

    @Test("without counts the grid grows to hold every size; a refused import changes nothing")
    func growsAndRefuses() throws {
        let repository = try InMemoryGridSizeRepository(options: GridOptions(sectionItemCounts: [4]))
        let grown = try repository.importLegacyDefaults(LegacyDefaults(["r:9_s:2_grid_item_size": "grid_size_small"]))
        #expect(grown.itemCounts == [4, 0, 10])
        let before = try repository.snapshot()
        let tooMany = LegacyDefaults(["r:999999999_s:0_grid_item_size": "grid_size_big"])
        #expect(throws: GridError.self) { try repository.importLegacyDefaults(tooMany) }
        #expect(try repository.snapshot().revision == before.revision)
    }
}
