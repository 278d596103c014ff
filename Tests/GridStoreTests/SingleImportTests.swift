import GridStore
import GridStoreSQLite
import GridStoreAudit
import Testing

/// `import GridStore` alone gives the types of the repository's own signatures: this file
/// imports nothing else.
@Suite("One import")
struct SingleImportTests {
    @Test("GridIndexPath, TileSize and LayoutType come with GridStore")
    func oneImport() throws {
        let repository = try InMemoryGridSizeRepository(options: GridOptions(type: LayoutType.less, sectionItemCounts: [8]))
        try repository.set(TileSize.big, at: GridIndexPath(item: 2, section: 0))
        #expect(try repository.size(at: GridIndexPath(item: 2)) == .big)
        #expect(try repository.snapshot().direction == ScrollDirection.vertical)
    }
}
