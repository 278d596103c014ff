import Foundation
import Testing

@Suite("gridstore import-defaults")
struct ImportDefaultsTests {
    let directory = TemporaryDirectory()
    var database: String { directory.file("grids.sqlite") }

    /// A property list as Foundation writes a UserDefaults domain.
    func plist(_ values: [String: Any]) throws -> String {
        let path = directory.file("defaults.plist")
        let data = try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
        _ = FileManager.default.createFile(atPath: path, contents: data)
        return path
    }

    @Test("the original's keys set sizes, growing sections and items as needed; other keys are ignored")
    func importsSizes() throws {
        let path = try plist([
            "r:0_s:0_grid_item_size": "grid_size_big",
            "r:3_s:0_grid_item_size": "grid_size_middle",
            "r:14_s:1_grid_item_size": "grid_size_middle",
            "r:2_s:0_grid_item_size": "grid_size_small",
            "AppleLanguages": ["en"],
            "launchCount": 3,
            "r:x_s:0_grid_item_size": "grid_size_big",
            "nested": ["r:5_s:0_grid_item_size": "grid_size_big"],
        ])
        let result = try CommandRunner.run(["--db", database, "import-defaults", path])
        #expect(result == CommandResult(status: 0, standardOutput:
            "imported 4 size(s) into grid 'default' (revision 1); ignored 4 other key(s); added section 1, grew section 1 to 15 items\n",
            standardError: "Note: created a new database at '\(database)', which --db named\n"))
        let get = { (index: String, section: String) in
            try CommandRunner.run(["--db", self.database, "get", index, "--section", section]).standardOutput
        }
        #expect(try get("0", "0") == "big\n")
        #expect(try get("3", "0") == "middle\n")
        #expect(try get("14", "1") == "middle\n")
        #expect(try get("5", "0") == "small\n")
    }

    @Test("a value that is not a size is skipped with a warning; broken XML is refused with exit 65, changing nothing")
    func refusals() throws {
        _ = try CommandRunner.run(["--db", database, "init", "-q"])
        let badValue = try plist(["r:0_s:0_grid_item_size": "grid_size_huge", "r:1_s:0_grid_item_size": "grid_size_big",
                                  "r:2_s:0_grid_item_size": 7])
        let value = try CommandRunner.run(["--db", database, "import-defaults", badValue])
        #expect(value.status == 0)
        #expect(value.standardOutput == "imported 1 size(s) into grid 'default' (revision 1)\n")
        let warnings = value.standardError.split(separator: "\n").sorted()
        #expect(warnings == [
            "warning: \(badValue): skipped r:0_s:0_grid_item_size: its value is not grid_size_small, grid_size_middle or grid_size_big",
            "warning: \(badValue): skipped r:2_s:0_grid_item_size: its value is not grid_size_small, grid_size_middle or grid_size_big",
        ])
        #expect(try CommandRunner.run(["--db", database, "get", "1"]).standardOutput == "big\n")

        let before = try CommandRunner.run(["--db", database, "export"]).standardOutput
        let broken = try CommandRunner.run(["--db", database, "import-defaults", "-"], input: Data("<plist><dict><key>a</key>".utf8))
        #expect(broken.status == 65)
        #expect(broken.standardError.hasPrefix("Error: standard input is not a valid property list: line 1:"))
        let truncated = try CommandRunner.run(["--db", database, "import-defaults", "-"], input: Data("bplist00\u{0}".utf8))
        #expect(truncated.status == 65)
        #expect(truncated.standardError.hasPrefix("Error: standard input is not a valid property list: line 1: not a valid binary"))
        #expect(try CommandRunner.run(["--db", database, "export"]).standardOutput == before)
    }

    @Test("a binary property list, as an iOS app's preferences file is, imports as the XML one does")
    func binary() throws {
        let values: [String: Any] = [
            "r:0_s:0_grid_item_size": "grid_size_big", "r:3_s:0_grid_item_size": "grid_size_middle",
            "r:1_s:1_grid_item_size": "grid_size_middle", "AppleLanguages": ["en", "fr"], "launchCount": 300_000,
            "ratio": 0.5, "flag": true, "blob": Data([1, 2, 3]), "when": Date(timeIntervalSince1970: 0),
            "name": "Grüße 🧩", "nested": ["deep": [1, 2, ["x": "y"]]],
        ]
        let binary = directory.file("binary.plist")
        _ = FileManager.default.createFile(atPath: binary, contents: try PropertyListSerialization.data(
            fromPropertyList: values, format: .binary, options: 0))
        let result = try CommandRunner.run(["--db", database, "import-defaults", binary])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput
                == "imported 3 size(s) into grid 'default' (revision 1); ignored 8 other key(s); added section 1, grew section 1 to 2 items\n")
        #expect(try CommandRunner.run(["--db", database, "get", "0"]).standardOutput == "big\n")
        #expect(try CommandRunner.run(["--db", database, "get", "1", "--section", "1"]).standardOutput == "middle\n")
    }

    @Test("--items drops the keys of items the app no longer has and sets the app's counts, for all sections or per section")
    func itemLimit() throws {
        let path = try plist([
            "r:0_s:0_grid_item_size": "grid_size_big", "r:19_s:0_grid_item_size": "grid_size_big",
            "r:7_s:0_grid_item_size": "grid_size_middle", "r:2_s:1_grid_item_size": "grid_size_middle",
            "r:0_s:2_grid_item_size": "grid_size_middle",
        ])
        _ = try CommandRunner.run(["--db", database, "init", "--items", "8", "-q"])
        let all = try CommandRunner.run(["--db", database, "import-defaults", path, "--items", "8"])
        #expect(all.standardOutput == "imported 4 size(s) into grid 'default' (revision 1); dropped 1 key(s) past --items; "
                + "added section 1, grew section 1 to 8 items, added section 2, grew section 2 to 8 items\n")
        let every = try CommandRunner.run(["--db", database, "sections"]).standardOutput
        #expect((0...2).allSatisfy { every.contains("section \($0): 8 items") }, "\(every)")
        // A new grid (12 items) takes the app's counts: 20 and 4, whatever the keys say.
        let perSection = try CommandRunner.run(["--db", database, "--grid", "other", "import-defaults", path, "--items", "20,4"])
        #expect(perSection.standardOutput == "imported 4 size(s) into grid 'other' (revision 1); dropped 1 key(s) past --items; "
                + "grew section 0 to 20 items, added section 1, grew section 1 to 4 items\n", "\(perSection.standardError)")
        let sections = try CommandRunner.run(["--db", database, "--grid", "other", "sections"]).standardOutput
        #expect(sections.contains("section 0: 20 items") && sections.contains("section 1: 4 items"), "\(sections)")
        #expect(try CommandRunner.run(["--db", database, "import-defaults", path, "--items", "8,x"]).status == 64)
    }

    @Test("a honeycomb has no sizes to import: said as for any command, with what to type instead")
    func honeycomb() throws {
        let path = try plist(["r:0_s:0_grid_item_size": "grid_size_big"])
        _ = try CommandRunner.run(["--db", database, "-q", "init", "--layout", "honeycomb"])
        let result = try CommandRunner.run(["--db", database, "import-defaults", path])
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("Error: 'default' is a honeycomb: its items have no sizes"), "\(result.standardError)")
        #expect(result.standardError.contains("init --force"))
    }
}
