// Generated from Swift snippet 2 of docs/migrating.md by SnippetTests: do not edit.
// After changing a snippet: GRIDSTORE_UPDATE_SNIPPETS=1 swift test --filter SnippetTests

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GridStoreSQLite

func docs_migrating_2(databasePath: String, items: [String], log: (String) -> Void) async throws {
    let sizes = try DatabaseGridSizeRepository(path: databasePath)
    if !UserDefaults.standard.bool(forKey: "gridstore.migrated") {
        let legacy = LegacyDefaults(UserDefaults.standard.dictionaryRepresentation(), itemCounts: [items.count])
        try sizes.importLegacyDefaults(legacy)                     // all or nothing
        for key in legacy.skippedKeys { log("skipped \(key)") }
        UserDefaults.standard.set(true, forKey: "gridstore.migrated")
    }
}
