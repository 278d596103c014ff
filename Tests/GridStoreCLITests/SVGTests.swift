import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@Suite("gridstore show --format svg")
struct SVGTests {
    /// Counts elements and collects the tiles' classes while checking that the document is well-formed XML.
    final class Collector: NSObject, XMLParserDelegate {
        var elements: [String: Int] = [:]
        var tileClasses: [String] = []
        var texts: [String] = []
        private var inText = false

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            elements[name, default: 0] += 1
            if name == "g", let tileClass = attributes["class"], tileClass.hasPrefix("tile ") { tileClasses.append(tileClass) }
            inText = name == "text"
            if inText { texts.append("") }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inText { texts[texts.count - 1] += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            inText = false
        }
    }

    @Test("the SVG is well-formed XML with one rounded rectangle and label per tile, colored by size")
    func wellFormed() throws {
        let directory = TemporaryDirectory()
        let database = directory.file("g.sqlite")
        _ = try CommandRunner.run(["--db", database, "--grid", "<&'\"> name", "init", "--items", "9", "--sections", "2"])
        _ = try CommandRunner.run(["--db", database, "--grid", "<&'\"> name", "set", "2", "big"])
        _ = try CommandRunner.run(["--db", database, "--grid", "<&'\"> name", "set", "4", "middle", "--section", "1"])
        let result = try CommandRunner.run(["--db", database, "--grid", "<&'\"> name", "show", "--format", "svg", "--width", "480"])
        #expect(result.status == 0)
        let parser = XMLParser(data: Data(result.standardOutput.utf8))
        let collector = Collector()
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { String(describing: $0) } ?? "")")
        #expect(collector.elements["svg"] == 1)
        #expect(collector.elements["rect"] == 18 + 1 + 3)   // the tiles, the background and the legend's swatches
        #expect(collector.tileClasses.filter { $0 == "tile big" }.count == 1)
        #expect(collector.tileClasses.filter { $0 == "tile middle" }.count == 1)
        #expect(collector.texts.contains("Section 1 · 9 items"))
        #expect(result.standardOutput.contains("<title>&lt;&amp;&apos;&quot;&gt; name: more, 6 columns, vertical, revision 2</title>"))
        #expect(collector.texts.contains("<&'\"> name · more, 6 columns, vertical · revision 2"))
        #expect(collector.texts.contains("small 1×1") && collector.texts.contains("middle 2×2") && collector.texts.contains("big 4×2"))
        #expect(result.standardOutput.contains("width=\"480\""))
    }

    @Test("a width too small for the columns is refused")
    func tooNarrow() throws {
        let directory = TemporaryDirectory()
        _ = try CommandRunner.run(["--db", directory.file("g.sqlite"), "init"])
        let result = try CommandRunner.run(["--db", directory.file("g.sqlite"), "show", "--format", "svg", "--width", "40", "--spacing", "8"])
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("Error: --width 40 with --spacing 8 leaves no room for 6 columns;"))
    }

    /// The SVG of `arguments`' grid, parsed.
    func parsed(_ arguments: [String]) throws -> (svg: String, collector: Collector) {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 0, "\(result.standardError)")
        let parser = XMLParser(data: Data(result.standardOutput.utf8))
        let collector = Collector()
        parser.delegate = collector
        #expect(parser.parse())
        return (result.standardOutput, collector)
    }

    @Test("a horizontal grid is described by rows, and its legend gives the spans as drawn")
    func horizontal() throws {
        let directory = TemporaryDirectory()
        let database = directory.file("g.sqlite")
        _ = try CommandRunner.run(["--db", database, "init", "--direction", "horizontal", "--type", "less", "-q"])
        let (svg, collector) = try parsed(["--db", database, "show", "--format", "svg"])
        #expect(svg.contains("<title>default: less, 4 rows, horizontal, revision 0</title>"))
        #expect(collector.texts.contains("big 2×4"))
    }

    @Test("64 columns: the default width grows so labels stay legible; at a forced small width unreadable labels are left out")
    func manyColumns() throws {
        let directory = TemporaryDirectory()
        let database = directory.file("g.sqlite")
        _ = try CommandRunner.run(["--db", database, "init", "--columns", "64", "--items", "128", "-q"])
        let (wide, labelled) = try parsed(["--db", database, "show", "--format", "svg"])
        #expect(wide.contains("width=\"1808\""))
        #expect(labelled.texts.filter { Int($0) != nil }.count == 128)
        let (_, unlabelled) = try parsed(["--db", database, "show", "--format", "svg", "--width", "400", "--spacing", "1"])
        #expect(unlabelled.texts.filter { Int($0) != nil }.isEmpty)
        #expect(unlabelled.tileClasses.count == 128)
    }
}
