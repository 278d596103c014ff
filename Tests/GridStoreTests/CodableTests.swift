import Foundation
import GridLayout
import Testing
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit

/// The values an app stores or sends are `Codable` in stable shapes, and decoding checks them.
@Suite("Codable values")
struct CodableTests {
    func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    @Test("layout values have the documented shapes and round-trip")
    func layoutShapes() throws {
        #expect(try json(GridIndexPath(item: 3, section: 1)) == #"{"item":3,"section":1}"#)
        #expect(try json(CellRect(x: 1, y: 0, width: 2, height: 2)) == #"{"height":2,"width":2,"x":1,"y":0}"#)
        #expect(try json(TileSpan(width: 4, height: 2)) == #"{"height":2,"width":4}"#)
        #expect(try json(HexCoordinate(q: 1, r: -1)) == #"{"q":1,"r":-1}"#)
        #expect(try json(ScrollDirection.horizontal) == #""horizontal""#)
        let configuration = try GridConfiguration(columns: 8, direction: .horizontal)
        #expect(try decode(GridConfiguration.self, json(configuration)) == configuration)
        #expect(try decode(GridConfiguration.self, #"{"columns":4}"#) == GridConfiguration(type: .less))
        let honeycomb = try HoneycombConfiguration(elementWidth: 50, itemSpacing: 5, orientation: .flatTop, centerItem: .last)
        #expect(try json(honeycomb) == #"{"centerItem":"last","elementWidth":50,"itemSpacing":5,"orientation":"flat-top"}"#)
        #expect(try decode(HoneycombConfiguration.self, json(honeycomb)) == honeycomb)
        let rect = LayoutRect(x: 1.5, y: 2, width: 3, height: 4)
        #expect(try decode(LayoutRect.self, json(rect)) == rect)
    }

    @Test("a snapshot is its content, name and revision; decoding re-packs it", arguments: [false, true])
    func snapshots(honeycomb: Bool) throws {
        let repository = try InMemoryGridSizeRepository(
            name: "phone", options: honeycomb ? GridOptions(honeycomb: HoneycombConfiguration(), itemCount: 7) : GridOptions(type: .less))
        if !honeycomb {
            try repository.set(.big, at: GridIndexPath(item: 2))
            try repository.set(.middle, at: GridIndexPath(item: 5))
        }
        let snapshot = try repository.snapshot()
        let decoded = try decode(GridSnapshot.self, json(snapshot))
        #expect(decoded == snapshot)
        #expect(decoded.layout.sections.map { Array($0) } == snapshot.layout.sections.map { Array($0) })
        if !honeycomb {
            #expect(try json(snapshot).hasPrefix(#"{"columns":4,"defaultSize":"small","direction":"vertical","name":"phone","revision":2,"sections":[["#))
        }
        let options = GridOptions(type: .less, sectionItemCounts: [3, 4])
        #expect(try json(options) == #"{"columns":4,"defaultSize":"small","direction":"vertical","sectionItemCounts":[3,4]}"#)
        #expect(try decode(GridOptions.self, json(options)) == options)
        let change = GridChange(from: snapshot, to: snapshot)
        #expect(try decode(GridChange.self, json(change)) == change)
        let error = GridError.itemOutOfRange(GridIndexPath(item: 12), itemCount: 12, allowsEnd: false)
        #expect(try decode(GridError.self, json(error)) == error)
    }

    @Test("invalid values are decoding errors, never traps", arguments: [
        (#"{"width":0,"height":2}"#, "span"),
        (#"{"width":65,"height":2}"#, "span"),
        (#"{"columns":65}"#, "configuration"),
        (#"{"columns":2}"#, "configuration"),
        (#"{"name":"a\nb","revision":0,"columns":4,"sections":[[]]}"#, "snapshot"),
        (#"{"name":"g","revision":-1,"columns":4,"sections":[[]]}"#, "snapshot"),
        (#"{"name":"g","revision":0,"columns":4,"sections":[["huge"]]}"#, "snapshot"),
        (#"{"name":"g","revision":0,"columns":6,"sections":[["big"]],"honeycomb":{}}"#, "snapshot"),
        (#"{"sectionItemCounts":[-5]}"#, "options"),
        (#"{"sectionItemCounts":[9223372036854775807]}"#, "options"),
        (#"{"elementWidth":-1}"#, "honeycomb"),
    ])
    func invalid(text: String, type: String) throws {
        #expect(throws: DecodingError.self) {
            switch type {
            case "span": _ = try decode(TileSpan.self, text)
            case "configuration": _ = try decode(GridConfiguration.self, text)
            case "snapshot": _ = try decode(GridSnapshot.self, text)
            case "options": _ = try decode(GridOptions.self, text)
            default: _ = try decode(HoneycombConfiguration.self, text)
            }
        }
    }
}
