// Generated from Swift snippet 1 of README.md by SnippetTests: do not edit.
// After changing a snippet: GRIDSTORE_UPDATE_SNIPPETS=1 swift test --filter SnippetTests

import GridStoreSQLite

func readme_1() async throws {
    let database = try GridDatabase(path: "/tmp/grids.sqlite")
    let phone = try Grid(named: "phone", in: database, creatingWith: GridOptions(type: .more))
    try phone.toggle(at: GridIndexPath(item: 3))          // one change, one transaction, re-packed
    let snapshot = try phone.snapshot()
    snapshot.layout.sections[0][3]                        // (3, 0, 2x2): x, y, width, height in cells
}
