// Generated from Swift snippet 2 of docs/library.md by SnippetTests: do not edit.
// After changing a snippet: GRIDSTORE_UPDATE_SNIPPETS=1 swift test --filter SnippetTests

import GridStoreSQLite

func docs_library_2() async throws {
    let apps = try DatabaseGridSizeRepository(suiteName: "apps", path: "/tmp/grids.sqlite")
    try apps.setItems(keys: ["mail", "calendar", "news"], inSection: 0)
    try apps.set(.big, forKey: "news")
    try apps.setItems(keys: ["news", "maps", "mail"], inSection: 0)  // calendar is gone, maps is new
    try apps.size(forKey: "news")                                    // .big, now item 0
    try apps.indexPath(forKey: "mail")                               // item 2 of section 0
}
