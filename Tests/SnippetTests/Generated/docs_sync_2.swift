// Generated from Swift snippet 2 of docs/sync.md by SnippetTests: do not edit.
// After changing a snippet: GRIDSTORE_UPDATE_SNIPPETS=1 swift test --filter SnippetTests

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GridStoreSQLite

func docs_sync_2(databasePath: String, server: URL) async throws {
    let sizes = try DatabaseGridSizeRepository(suiteName: "home", database: GridDatabase(path: databasePath))

    // 1. What the server knows of the grid, and everything it lacks from this device.
    let (known, _) = try await URLSession.shared.data(from: server.appendingPathComponent("cursor"))
    let outgoing = try sizes.syncBundle(since: SyncCursor(parsing: String(decoding: known, as: UTF8.self)))
    // 2. Sent with what this device knows; the server applies it and answers with what this device lacks.
    var request = URLRequest(url: server.appendingPathComponent("bundle"))
    request.httpMethod = "POST"
    request.setValue(try sizes.syncCursor().description, forHTTPHeaderField: "Gridstore-Cursor")
    let (incoming, _) = try await URLSession.shared.upload(for: request, from: Data(outgoing.encoded()))
    try sizes.applySyncBundle(incoming)

    // On the server, GET <grid>/cursor answers `try grid.syncCursor().description`, and POST <grid>/bundle:
    func answer(_ body: Data, cursor: String, grid: Grid) throws -> Data {
        try grid.applySyncBundle(body)
        return Data(try grid.syncBundle(since: SyncCursor(parsing: cursor)).encoded())
    }
}
