// Generated from Swift snippet 3 of docs/library.md by SnippetTests: do not edit.
// After changing a snippet: GRIDSTORE_UPDATE_SNIPPETS=1 swift test --filter SnippetTests

import GridStoreSQLite

func docs_library_3(database: GridDatabase) async throws {
    let board = try Grid(named: "board", in: database)
    try board.toggle(at: GridIndexPath(item: 3))
    try board.undo()                          // a new revision with item 3 as it was
    try board.redo()
    try board.snapshot(at: 1).revision        // 1: the grid as it was then
    try board.history(limit: 3).map(\.kind)   // [.redo, .undo, .change]
}
