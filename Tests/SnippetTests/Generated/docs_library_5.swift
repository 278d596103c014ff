// Generated from Swift snippet 5 of docs/library.md by SnippetTests: do not edit.
// After changing a snippet: GRIDSTORE_UPDATE_SNIPPETS=1 swift test --filter SnippetTests

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GridStoreSQLite

func docs_library_5() async throws {
    struct OnePerRow: PackingStrategy {
        func position(for span: TileSpan, in grid: inout OccupancyGrid, after previous: CellPosition?) -> CellPosition {
            CellPosition(x: 0, y: grid.rowCount)
        }
    }
    var packer = TilePacker(columns: 6, strategy: OnePerRow())
}
