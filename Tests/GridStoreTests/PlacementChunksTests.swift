import GridLayout
import SeededRandom
import Testing
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit

@Suite("PlacementChunks")
struct PlacementChunksTests {
    /// A packed grid of `count` random tiles in two sections.
    static func layout(_ count: Int) -> TileGrid<DensePacking> {
        var generator = SeededGenerator(seed: UInt64(count))
        let sizes = (0..<count).map { _ in TileSize.allCases[Int(generator.next() % 3)] }
        return TileGrid(configuration: GridConfiguration(type: .more), sections: [sizes, Array(sizes.prefix(count / 3))])
    }

    @Test("encodedLength is the length of the chunk text written", arguments: [0, 1, 127, 128, 129, 1_000, 20_000])
    func lengths(count: Int) {
        for section in Self.layout(count).sections {
            for chunk in 0..<PlacementChunks.count(forItems: section.count) {
                let text = PlacementChunks.withText(chunk, of: section) { Array($0) }
                #expect(PlacementChunks.encodedLength(chunk, of: section) == text.count)
            }
        }
    }

    @Test("a chunk's text is [[x,y,w,h,\"size\"],...] with every number in plain decimal", arguments: [1, 6])
    func text(columns: Int) throws {
        // One column stacks 20,000 tiles, so rows reach five digits.
        var generator = SeededGenerator(seed: 11)
        let sizes = (0..<20_000).map { _ in columns == 1 ? TileSize.small : TileSize.allCases[Int(generator.next() % 3)] }
        let spans = try TileSpans(small: (width: 1, height: 1), middle: (width: min(columns, 2), height: 12),
                                  big: (width: min(columns, 4), height: 2))
        let layout = TileGrid(configuration: try GridConfiguration(columns: columns, spans: spans), sections: [sizes])
        let section = layout.sections[0]
        for chunk in [0, 1, 77, PlacementChunks.count(forItems: section.count) - 1] {
            let text = PlacementChunks.withText(chunk, of: section) { Array($0) }
            let items = (chunk * PlacementChunks.size..<min((chunk + 1) * PlacementChunks.size, section.count)).map { item in
                let rect = section[item]
                return "[\(rect.x),\(rect.y),\(rect.width),\(rect.height),\"\(section.sizes[item].rawValue)\"]"
            }
            #expect(String(decoding: text, as: UTF8.self) == "[" + items.joined(separator: ",") + "]")
        }
        #expect(section[section.count - 1].y >= 10_000 || columns > 1)
    }

    @Test("match accepts exactly the stored chunks of the layout")
    func match() {
        let layout = Self.layout(1_000)
        let stored = layout.sections.enumerated().flatMap { index, section in
            (0..<PlacementChunks.count(forItems: section.count)).map { chunk in
                (section: index, firstItem: chunk * PlacementChunks.size, byteCount: PlacementChunks.encodedLength(chunk, of: section))
            }
        }
        #expect(PlacementChunks.match(stored: stored, layout: layout))
        #expect(!PlacementChunks.match(stored: Array(stored.dropLast()), layout: layout))
        var longer = stored
        longer[3].byteCount += 1
        #expect(!PlacementChunks.match(stored: longer, layout: layout))
        #expect(!PlacementChunks.match(stored: stored + [(section: 0, firstItem: 9_984, byteCount: 2)], layout: layout))
    }
}
