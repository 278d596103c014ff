import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GridLayout
@testable import GridStore
@testable import GridStoreSQLite
@testable import GridStoreCLI
import SeededRandom
import TestSupport
import Testing

/// Every drawing, of every legal grid, at every width: no trap, and no line wider than the width
/// (or, below ``TerminalWidth/minimum``, the one line that says the width is too narrow).
@Suite("Drawings fit every width")
struct DrawingWidthTests {
    static let widths = 1...200

    /// The widths round `round` draws at: a quarter of them, so every width meets a quarter of
    /// the random grids (each grid is drawn at 50 widths, spread over the range) and the suite
    /// stays within seconds in a debug build.
    static func widths(forRound round: Int) -> [Int] {
        widths.filter { ($0 + round) % 4 == 0 }
    }

    @Test("grids of tiles, both directions, drawn as text in every mode at every width from 1 to 200")
    func tiles() throws {
        var random = SeededGenerator(seed: 24_01)
        for round in 0..<32 {
            let snapshot = try Self.randomTiles(&random, round: round)
            let focus = snapshot.itemCounts.indices.randomElement(using: &random).flatMap { section in
                snapshot.itemCounts[section] > 0
                    ? GridIndexPath(item: Int.random(in: 0..<snapshot.itemCounts[section], using: &random), section: section) : nil
            }
            let rows = Int.random(in: 0...8, using: &random)
            let modes: [(String, TextGridRenderer)] = [
                ("plain", TextGridRenderer()),
                ("color", TextGridRenderer(useColor: true)),
                ("changed", TextGridRenderer(maximumRows: 12, focus: focus)),
                ("rows", TextGridRenderer(rows: rows...(rows + Int.random(in: 0...20, using: &random)))),
                ("section", TextGridRenderer(section: snapshot.itemCounts.isEmpty ? nil : 0)),
            ]
            for width in Self.widths(forRound: round) {
                // The plain drawing and one other mode at each width, in turn from round to round.
                for (mode, base) in [modes[0], modes[1 + (width + round) / 4 % (modes.count - 1)]] {
                    var renderer = base
                    renderer.maximumWidth = width
                    let text = String(decoding: renderer.renderBytes(snapshot), as: UTF8.self)
                    try Self.expectFits(text, width: width, "\(mode) drawing of \(Self.describe(snapshot))")
                }
            }
        }
    }

    @Test("the compact drawing, one character a cell, at every width")
    func compact() throws {
        var random = SeededGenerator(seed: 24_02)
        for round in 0..<48 {
            let snapshot = try Self.randomTiles(&random, round: round)
            for width in Self.widths(forRound: round) {
                for section in snapshot.layout.sections where !section.isEmpty {
                    var output: [UInt8] = []
                    CompactGridRenderer(maximumWidth: width)
                        .draw(section, rows: 0..<section.extent, direction: snapshot.direction, into: &output)
                    try Self.expectFits(String(decoding: output, as: UTF8.self), width: width, minimum: 1,
                                        "compact drawing of \(Self.describe(snapshot))")
                }
            }
        }
    }

    @Test("honeycombs drawn as text, whole and summarised, with and without a viewport, at every width")
    func honeycombs() throws {
        var random = SeededGenerator(seed: 24_03)
        for round in 0..<24 {
            let snapshot = try Self.randomHoneycomb(&random)
            let viewport = (rect: LayoutRect(x: 0, y: 0, width: 390, height: 844), scaling: try EdgeScaling())
            for width in Self.widths(forRound: round) {
                for renderer in [HoneycombTextRenderer(maximumWidth: width), HoneycombTextRenderer(maximumItems: 10, maximumWidth: width),
                                 HoneycombTextRenderer(maximumWidth: width, viewport: viewport)] {
                    try Self.expectFits(renderer.render(snapshot), width: width, "honeycomb of \(snapshot.totalItemCount) items")
                }
            }
        }
    }

    @Test("SVG drawings of random grids and honeycombs are well-formed")
    func svg() throws {
        var random = SeededGenerator(seed: 24_04)
        for round in 0..<32 {
            let tiles = try Self.randomTiles(&random, round: round)
            let length = SVGGridRenderer.defaultCrossAxisLength(columns: tiles.columns)
            let drawing = try SVGGridRenderer(crossAxisLength: length).render(tiles)
            #expect(XMLParser(data: Data(drawing.utf8)).parse(), "SVG of \(Self.describe(tiles))")
            let honeycomb = try Self.randomHoneycomb(&random)
            #expect(XMLParser(data: Data(HoneycombSVGRenderer().render(honeycomb).utf8)).parse(), "SVG of a honeycomb")
        }
    }

    @Test("the editor's screen at every width, for grids of tiles and honeycombs")
    func editor() throws {
        var random = SeededGenerator(seed: 24_05)
        let directory = TemporaryDirectory()
        let database = try GridDatabase(path: directory.file("editor.sqlite"))
        for round in 0..<12 {
            let content = round % 4 == 3 ? try Self.randomHoneycomb(&random).content : try Self.randomTiles(&random, round: round).content
            let grid = try Grid(named: "g\(round)", in: database, creatingWith: GridOptions())
            _ = try grid.replaceContent(content)
            let model = try EditorModel(grid: grid)
            for width in Self.widths {
                let lines = [1, 2, 5, 24][width % 4]
                let screen = model.render(columns: width, lines: lines)
                for line in screen.plainLines {
                    #expect(line.count <= width, "editor at \(width)x\(lines): \(line)")
                }
            }
        }
    }

    // MARK: Helpers

    /// Fails unless every line of `text` is at most `width` columns, escapes aside; below the
    /// minimum width the drawing must be the one line saying so.
    static func expectFits(_ text: String, width: Int, minimum: Int = TerminalWidth.minimum,
                           _ what: @autoclosure () -> String) throws {
        if width < minimum {
            #expect(text == TerminalWidth.tooNarrow(width) + "\n", "\(what()) at width \(width)")
            return
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let columns = DisplayWidth.columns(of: Self.withoutEscapes(String(line)))
            if columns > width {
                Issue.record("\(what()) at width \(width): a line of \(columns) columns: \(line)")
                return
            }
        }
    }

    static func withoutEscapes(_ line: String) -> String {
        var result = ""
        var inEscape = false
        for scalar in line.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func describe(_ snapshot: GridSnapshot) -> String {
        "\(snapshot.direction) grid of \(snapshot.columns) columns, sections \(snapshot.itemCounts)"
    }

    /// A random grid of tiles: 4 to 64 columns, 0 to 3 sections of up to 40 or 300 items, random
    /// sizes, keys in some, names of every kind (long, wide characters).
    static func randomTiles(_ random: inout SeededGenerator, round: Int) throws -> GridSnapshot {
        // A big tile spans 4 columns, so 4 is the fewest a grid may have.
        let columns = round < 6 ? [4, 5, 6, 7, 8, 64][round] : Int.random(in: 4...64, using: &random)
        let sectionCount = Int.random(in: 0...3, using: &random)
        let legal: [TileSize] = [.small, .middle, .big]
        let sizes: [TileSize?] = [nil] + legal
        let sections = (0..<sectionCount).map { _ in
            (0..<Int.random(in: 0...(round.isMultiple(of: 2) ? 300 : 40), using: &random)).map { _ in sizes.randomElement(using: &random)! }
        }
        var content = GridContent(columns: columns, direction: Bool.random(using: &random) ? .vertical : .horizontal,
                                  defaultSize: legal.randomElement(using: &random)!, sections: sections)
        if Bool.random(using: &random) {
            var used = 0
            content.keys = sections.map { items in
                items.map { _ in
                    guard Bool.random(using: &random) else { return nil }
                    used += 1
                    return "key-\(used)" + String(repeating: "x", count: Int.random(in: 0...40, using: &random))
                }
            }
        }
        let names = ["default", String(repeating: "n", count: 255), "表示名の長いグリッド", "a b c d e f g"]
        return try GridSnapshot(name: names.randomElement(using: &random)!, revision: Int.random(in: 0...10_000, using: &random),
                                content: content)
    }

    /// A random honeycomb of 0 to 200 items, either orientation.
    static func randomHoneycomb(_ random: inout SeededGenerator) throws -> GridSnapshot {
        let configuration = try HoneycombConfiguration(
            orientation: Bool.random(using: &random) ? .pointyTop : .flatTop,
            centerItem: Bool.random(using: &random) ? .first : .last,
            ringOrder: Bool.random(using: &random) ? .standard : .original)
        return try GridSnapshot(name: "honeycomb", revision: 1,
                                content: GridContent(honeycomb: configuration, itemCount: Int.random(in: 0...200, using: &random)))
    }
}
