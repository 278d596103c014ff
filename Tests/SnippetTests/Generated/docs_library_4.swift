// Generated from Swift snippet 4 of docs/library.md by SnippetTests: do not edit.
// After changing a snippet: GRIDSTORE_UPDATE_SNIPPETS=1 swift test --filter SnippetTests

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GridStoreSQLite

func docs_library_4() async throws {
    let grid = try Grid(named: "phone", in: GridDatabase(path: "/tmp/grids.sqlite"))
    let text = GridDocument.encode(try grid.snapshot())        // export
    let decoded = try GridDocument.decode(text)                 // import: read,
    try decoded.validate()                                      // check,
    try Grid(named: "copy", in: grid.database).replaceContent(decoded.content)   // and store

    let data = try JSONEncoder().encode(try grid.snapshot())    // a snapshot as Codable JSON
    let snapshot = try JSONDecoder().decode(GridSnapshot.self, from: data)       // re-packed on decoding
}
