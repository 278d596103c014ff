import GridLayout
import SeededRandom
import Testing
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit

/// A registered default size changes what an instance sees, never what is stored: checked
/// against a simple reference (the same explicit sizes packed afresh with each default).
@Suite("Registered default sizes: what is stored and what is seen")
struct RegisteredDefaultPackingTests {
    @Test("random changes under a registration store the same sizes as without, and show a fresh pack with the registered default",
          arguments: RepositoryConformanceTests.Kind.all)
    func randomChanges(kind: RepositoryConformanceTests.Kind) throws {
        let directory = TemporaryDirectory()
        let repository = try kind.make(in: directory)
        let plain = try InMemoryGridSizeRepository(name: "suite", options: GridOptions(type: .more, sectionItemCounts: [12, 5]))
        try repository.register(defaultSize: .middle)
        var random = SeededGenerator(seed: 25)
        for step in 0..<60 {
            let section = Int.random(in: 0...1, using: &random)
            let count = try plain.itemCount(inSection: section)
            let path = GridIndexPath(item: Int.random(in: 0..<max(count, 1), using: &random), section: section)
            let change: (inout GridEditor) throws -> Void
            switch Int.random(in: 0..<5, using: &random) {
            case 0: change = { _ = try $0.toggle(at: path) }
            case 1: change = { try $0.setSize(TileSize.allCases.randomElement(), at: path) }
            case 2: change = { try $0.insertItem(at: path, size: nil) }
            case 3: change = { if count > 1 { try $0.deleteItem(at: path) } }
            default: change = { try $0.moveItem(from: path, to: GridIndexPath(item: 0, section: section)) }
            }
            // The registered instance toggles from .middle; the reference gets the resulting explicit sizes.
            let seen = try repository.update(change)
            try plain.update { try $0.replaceContent(Self.content(of: seen, defaultSize: .small)) }
            let stored = try plain.snapshot()
            #expect(seen.explicitSizes == stored.explicitSizes, "step \(step)")
            #expect(seen.defaultSize == .middle && Self.rects(seen) == Self.rects(stored.withDefaultSize(.middle)), "step \(step)")
            #expect(try repository.snapshot() == seen, "step \(step)")
        }
        // What is stored has the stored default, packed afresh.
        if case .inMemory = kind { return }
        let database = (repository as! DatabaseGridSizeRepository).grid.database
        let stored = try Grid(named: "suite", in: database, creatingWith: nil).snapshot()
        let seen = try repository.snapshot()
        #expect(stored.defaultSize == .small && stored.explicitSizes == seen.explicitSizes)
        #expect(Self.rects(stored) == Self.rects(stored.withDefaultSize(.small)))
    }

    @Test("an import under a registration stores the document's default size", arguments: RepositoryConformanceTests.Kind.all)
    func importKeepsItsDefault(kind: RepositoryConformanceTests.Kind) throws {
        let directory = TemporaryDirectory()
        let repository = try kind.make(in: directory)
        try repository.register(defaultSize: .middle)
        let content = GridContent(columns: 6, direction: .vertical, defaultSize: .big, sections: [[nil, .small, nil]])
        let seen = try repository.update { try $0.replaceContent(content) }
        // The registration still shows; the document's default is what a fresh instance sees.
        #expect(seen.defaultSize == .middle && seen.explicitSizes == [[nil, .small, nil]])
        if case .inMemory = kind { return }
        let database = (repository as! DatabaseGridSizeRepository).grid.database
        #expect(try Grid(named: "suite", in: database, creatingWith: nil).snapshot().defaultSize == .big)
    }

    /// Every tile's cells, section by section.
    private static func rects(_ snapshot: GridSnapshot) -> [[CellRect]] {
        snapshot.layout.sections.map { section in (0..<section.sizes.count).map { section[$0] } }
    }

    private static func content(of snapshot: GridSnapshot, defaultSize: TileSize) -> GridContent {
        var content = snapshot.content
        content.defaultSize = defaultSize
        return content
    }
}
