import Foundation
@testable import GridStoreCLI
import Testing

/// `gridstore grids`: the layout of each grid, at every width.
@Suite("gridstore grids")
struct GridsWidthTests {
    let directory = TemporaryDirectory()

    @Test("a honeycomb is listed as one, in text and JSON", arguments: Backend.all)
    func honeycomb(backend: Backend) throws {
        let database = try backend.database(in: directory)
        _ = try CommandRunner.run(["--db", database, "--grid", "hive", "-q", "init", "--layout", "honeycomb"])
        _ = try CommandRunner.run(["--db", database, "-q", "init"])
        let text = try CommandRunner.run(["--db", database, "grids"], environment: ["COLUMNS": "200"]).standardOutput
        let lines = text.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).prefix(4) }
        #expect(lines.map { Array($0) } == [["NAME", "TYPE", "COLUMNS", "DIRECTION"], ["default", "more", "6", "vertical"],
                                            ["hive", "honeycomb", "-", "-"]])
        let json = try CommandRunner.run(["--db", database, "grids", "--format", "json"]).standardOutput
        #expect(json.contains(#"{"name":"default","layout":"tiles","type":"more","columns":6,"direction":"vertical","sections":1"#))
        #expect(json.contains(#"{"name":"hive","layout":"honeycomb","type":null,"columns":null,"direction":null,"sections":1,"items":19"#))
    }

    @Test("every line fits the width from 20 to 120, columns left out as it narrows, long names cut")
    func widths() throws {
        let database = directory.file("widths.sqlite")
        for name in ["default", String(repeating: "n", count: 90), "表示名"] {
            _ = try CommandRunner.run(["--db", database, "--grid", name, "-q", "init", "--items", "100000"])
        }
        for width in 20...120 {
            let text = try CommandRunner.run(["--db", database, "grids"], environment: ["COLUMNS": String(width)]).standardOutput
            for line in text.split(separator: "\n") {
                #expect(DisplayWidth.columns(of: line) <= width, "at \(width): \(line)")
            }
            #expect(text.hasPrefix("NAME"))
            // A 90-character name leaves no room for the update time below 120 columns.
            #expect(!text.contains("UPDATED"))
        }
        let piped = try CommandRunner.run(["--db", database, "grids"]).standardOutput
        #expect(piped.hasPrefix("NAME") && piped.contains("UPDATED") && piped.contains(String(repeating: "n", count: 90)))
    }
}
