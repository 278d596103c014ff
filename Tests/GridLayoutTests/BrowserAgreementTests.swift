import Foundation
import GridLayout
import Testing

/// The packer against a real browser.
///
/// `Fixtures/css-grid-cases.json` holds 312 random cases (4, 6, 8 and 12 columns, both
/// directions, dense and sparse, 1 to 2,000 tiles, skewed size mixes, standard and custom
/// spans) with the positions Chromium computed for them using CSS Grid auto-placement
/// (`grid-auto-flow: row dense` or `row`; `column` flows, with transposed spans, for
/// horizontal grids). They were produced by `Fixtures/generate_css_fixtures.py`, which
/// drives the team's oracle `shared/oracle/css_dense.py`; the tests need no browser.
@Suite("Agreement with a browser's CSS Grid")
struct BrowserAgreementTests {
    struct Fixture: Decodable {
        struct Case: Decodable {
            var name: String
            var columns: Int
            var direction: String
            var strategy: String
            var spans: [String: [Int]]
            var sizes: String
            var positions: [Int]
        }
        var cases: [Case]
    }

    static let fixture: Fixture = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/css-grid-cases.json")
        return try! JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }()

    @Test("the fixtures cover what they claim")
    func coverage() {
        let cases = Self.fixture.cases
        #expect(cases.count >= 300)
        #expect(Set(cases.map(\.columns)) == [4, 6, 8, 12])
        #expect(Set(cases.map(\.direction)) == ["vertical", "horizontal"])
        #expect(Set(cases.map(\.strategy)) == ["dense", "sparse"])
        #expect(cases.map(\.sizes.count).min() == 1)
        #expect(cases.map(\.sizes.count).max() == 2000)
    }

    @Test("every tile lands where the browser put it")
    func agreement() throws {
        for testCase in Self.fixture.cases {
            let spans = try TileSpans(
                small: pair(testCase.spans["small"]), middle: pair(testCase.spans["middle"]), big: pair(testCase.spans["big"]))
            let configuration = try GridConfiguration(
                columns: testCase.columns, spans: spans, direction: ScrollDirection(rawValue: testCase.direction)!)
            let sizes = testCase.sizes.map { letter -> TileSize in
                switch letter {
                case "s": .small
                case "m": .middle
                default: .big
                }
            }
            let placed: [CellRect] = testCase.strategy == "dense"
                ? Array(TileGrid(configuration: configuration, strategy: DensePacking(), sections: [sizes]).sections[0])
                : Array(TileGrid(configuration: configuration, strategy: SparsePacking(), sections: [sizes]).sections[0])
            let positions = placed.flatMap { [$0.x, $0.y] }
            if let mismatch = zip(positions, testCase.positions).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
                let item = mismatch.offset / 2
                Issue.record("""
                    \(testCase.name): item \(item) (\(sizes[item])) at \(placed[item]), \
                    browser: (\(testCase.positions[item * 2]), \(testCase.positions[item * 2 + 1]))
                    """)
            }
            #expect(positions.count == testCase.positions.count, "\(testCase.name)")
        }
    }

    private func pair(_ values: [Int]?) -> (width: Int, height: Int) {
        (values?[0] ?? 0, values?[1] ?? 0)
    }
}
