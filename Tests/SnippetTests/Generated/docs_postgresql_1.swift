// Generated from Swift snippet 1 of docs/postgresql.md by SnippetTests: do not edit.
// After changing a snippet: GRIDSTORE_UPDATE_SNIPPETS=1 swift test --filter SnippetTests

import GridStorePostgreSQL

func docs_postgresql_1() async throws {
    let database = try GridDatabase(postgreSQL: "postgresql://app@db.internal/layouts", connections: 8)
    let grid = try Grid(named: "user-42", in: database)
    try grid.toggle(at: GridIndexPath(item: 3))          // from any thread
    try await grid.changing { try $0.toggle(at: GridIndexPath(item: 4)) }   // or from a task
}
