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
            standardError: ""))
        let get = { (index: String, section: String) in
            try CommandRunner.run(["--db", self.database, "get", index, "--section", section]).standardOutput
        }
        #expect(try get("0", "0") == "big\n")
        #expect(try get("3", "0") == "middle\n")
        #expect(try get("14", "1") == "middle\n")
        #expect(try get("5", "0") == "small\n")
    }

    @Test("a value that is not a size, a binary plist and broken XML are refused with exit 65, changing nothing")
    func refusals() throws {
        let before = try CommandRunner.run(["--db", database, "export"]).standardOutput
        let badValue = try plist(["r:0_s:0_grid_item_size": "grid_size_huge"])
        let value = try CommandRunner.run(["--db", database, "import-defaults", badValue])
        #expect(value.status == 65)
        #expect(value.standardError == "Error: \(badValue): the value of r:0_s:0_grid_item_size is not grid_size_small, grid_size_middle or grid_size_big\n")

        let binary = directory.file("binary.plist")
        _ = FileManager.default.createFile(atPath: binary, contents: try PropertyListSerialization.data(
            fromPropertyList: ["r:0_s:0_grid_item_size": "grid_size_big"], format: .binary, options: 0))
        let binaryResult = try CommandRunner.run(["--db", database, "import-defaults", binary])
        #expect(binaryResult.status == 65)
        #expect(binaryResult.standardError.contains("binary property list; convert it to XML first (plutil -convert xml1 FILE)"))

        let broken = try CommandRunner.run(["--db", database, "import-defaults", "-"], input: Data("<plist><dict><key>a</key>".utf8))
        #expect(broken.status == 65)
        #expect(broken.standardError.hasPrefix("Error: standard input is not a valid XML property list: line 1:"))
        #expect(try CommandRunner.run(["--db", database, "export"]).standardOutput == before)
    }
}
