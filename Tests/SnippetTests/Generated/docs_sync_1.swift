// Generated from Swift snippet 1 of docs/sync.md by SnippetTests: do not edit.
// After changing a snippet: GRIDSTORE_UPDATE_SNIPPETS=1 swift test --filter SnippetTests

import GridStoreSQLite

func docs_sync_1(phoneGrid: Grid, tabletGrid: Grid) async throws {
    // On the tablet: what it knows.
    let text = try tabletGrid.syncCursor().description  // send this text to the phone
    // On the phone: everything the tablet lacks.
    let bundle = try phoneGrid.syncBundle(since: SyncCursor(parsing: text))
    let bytes = bundle.encoded()                        // send these to the tablet
    // On the tablet:
    try tabletGrid.applySyncBundle(bytes)
}
