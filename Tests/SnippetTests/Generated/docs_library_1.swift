// Generated from Swift snippet 1 of docs/library.md by SnippetTests: do not edit.
// After changing a snippet: GRIDSTORE_UPDATE_SNIPPETS=1 swift test --filter SnippetTests

import GridStoreSQLite

func docs_library_1() async throws {
    // Pack tiles without storing them.
    let grid = TileGrid(configuration: GridConfiguration(type: .less), sections: [[.small, .middle, .big]])
    grid.sections[0][2]                                   // (0, 2, 4x2): x, y, width, height in cells
    let frames = try GridFrames(grid: grid, metrics: FrameMetrics(crossAxisLength: 320, spacing: 8))
    frames.items(in: LayoutRect(x: 0, y: 0, width: 320, height: 100))

    // Keep sizes like UserDefaults, in SQLite.
    let sizes = try DatabaseGridSizeRepository(path: "/tmp/sizes.sqlite")  // the grid `default` in that file
    sizes.register(defaultSize: .middle)                  // this instance only: never written
    try sizes.setItemCount(20, inSection: 0)              // as many items as the app's data source has
    try sizes.set(.big, at: GridIndexPath(item: 2))
    try sizes.insertItem(at: GridIndexPath(item: 0))      // the big tile is now item 3
    try sizes.size(at: GridIndexPath(item: 3))            // .big
    try sizes.size(at: GridIndexPath(item: 4))            // .middle, the registered default

    // Or work with grids in a database: a transaction changes any of them together, or none.
    let database = try GridDatabase(path: "/tmp/grids.sqlite")
    let phone = try Grid(named: "phone", in: database, creatingWith: GridOptions(type: .more))
    let tablet = try Grid(named: "tablet", in: database)
    try database.write { transaction in                   // one revision of each, committed together
        try transaction.update(phone) { try $0.toggle(at: GridIndexPath(item: 3)) }
        try transaction.update(tablet) { try $0.toggle(at: GridIndexPath(item: 3)) }
    }
    try database.write { transaction in                   // undo, redo, revert, import, sync bundles: together too
        try transaction.undo(tablet)
        try transaction.revert(phone, to: 0)
    }
    try phone.toggle(at: GridIndexPath(item: 3))          // the one-grid shorthand: a transaction of one change
    func rearrange(_ phone: Grid) async throws {
        let snapshot = try await phone.changing { phone in  // any call's async form: it never blocks the pool
            try phone.update { editor in
                try editor.toggle(at: GridIndexPath(item: 3))
                try editor.moveItem(from: GridIndexPath(item: 0), to: GridIndexPath(item: 5))
            }
        }
        print(snapshot.revision)
        for try await change in phone.changes() {          // changes by any process
            print(change.revision, change.resized, change.moved)
        }
    }
}
