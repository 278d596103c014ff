import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@Suite("gridstore honeycomb grids")
struct HoneycombCommandTests {
    let directory = TemporaryDirectory()

    func gridstore(at database: String, _ arguments: String..., input: String? = nil) throws -> CommandResult {
        try CommandRunner.run(["--db", database, "--grid", "hive"] + arguments, input: input.map { Data($0.utf8) })
    }

    @Test("init --layout honeycomb draws the rings as a character map", arguments: Backend.all)
    func initialize(backend: Backend) throws {
        let database = try backend.database(in: directory, name: "hive.sqlite")
        let result = try gridstore(at: database, "init", "--layout", "honeycomb", "--items", "19", "--element-width", "50", "--spacing", "5")
        #expect(result == CommandResult(status: 0, standardOutput: """
            hive · honeycomb (pointy-top, cells 50 wide, 5 apart, first item in the center)
              · revision 0 · 19 items on 3 rings
                 15  16  17
               14  5   6   18
             13  4   0   1   7
               12  3   2   8
                 11  10  9

            """, standardError: backend == .sqlite ? "Note: created a new database at '\(database)', which --db named\n" : ""))
        #expect(try gridstore(at: database, "type").standardOutput == "honeycomb\n")
        #expect(try gridstore(at: database, "sections").standardOutput == "section 0: 19 items on 3 rings (honeycomb)\n")
    }

    @Test("JSON gives each item's ring, axial coordinates and frame; a viewport adds scales", arguments: Backend.all)
    func json(backend: Backend) throws {
        let database = try backend.database(in: directory, name: "hive.sqlite")
        _ = try gridstore(at: database, "init", "--layout", "honeycomb", "--items", "61")
        let plain = try object(try gridstore(at: database, "show", "--format", "json").standardOutput)
        #expect(plain["layout"] as? String == "honeycomb")
        let items = plain["items"] as! [[String: Any]]
        #expect(items.count == 61)
        #expect(Set(items.map { $0["ring"] as! Int }) == [0, 1, 2, 3, 4])
        #expect(items[7]["q"] as? Int == 2 && items[7]["r"] as? Int == 0)
        #expect(items.allSatisfy { $0["scale"] == nil })
        let size = plain["contentSize"] as! [String: Double]
        let frames = items.map { $0["frame"] as! [String: Double] }
        #expect(abs(frames.map { $0["x"]! + $0["width"]! }.max()! - size["width"]!) < 0.001)
        #expect(abs(frames.map { $0["x"]! }.min()!) < 0.001)

        let scaled = try object(try gridstore(at: database, "show", "--format", "json", "--viewport", "0,0,300,300").standardOutput)
        let visible = (scaled["items"] as! [[String: Any]]).compactMap { $0["scale"] as? Double }
        #expect(!visible.isEmpty && visible.count < 61)
        #expect(visible.allSatisfy { (0.4...1).contains($0) })
    }

    @Test("the SVG draws one hexagon per item and the viewport", arguments: Backend.all)
    func svg(backend: Backend) throws {
        let database = try backend.database(in: directory, name: "hive.sqlite")
        _ = try gridstore(at: database, "init", "--layout", "honeycomb", "--items", "37", "--orientation", "flat-top")
        let result = try gridstore(at: database, "show", "--format", "svg", "--viewport", "50,50,250,250")
        #expect(result.status == 0)
        let parser = XMLParser(data: Data(result.standardOutput.utf8))
        #expect(parser.parse())
        #expect(result.standardOutput.components(separatedBy: "<polygon").count - 1 == 37)
        #expect(result.standardOutput.contains("class=\"viewport\""))
    }

    @Test("items changes the count; size changes are refused with how to switch the layout", arguments: Backend.all)
    func edits(backend: Backend) throws {
        let database = try backend.database(in: directory, name: "hive.sqlite")
        _ = try gridstore(at: database, "init", "--layout", "honeycomb", "--items", "7")
        #expect(try gridstore(at: database, "items", "12").standardOutput.hasPrefix("hive · honeycomb"))
        #expect(try gridstore(at: database, "insert", "0").status == 0)
        #expect(try object(try gridstore(at: database, "export").standardOutput)["items"].map { ($0 as! [Any]).count } == 13)
        let toggle = try gridstore(at: database, "toggle", "1")
        #expect(toggle.status == 64)
        #expect(toggle.standardError.hasPrefix(
            "Error: 'hive' is a honeycomb: its items have no sizes and it has one section, so it cannot have sizes. "
                + "To lay it out as tiles: gridstore --grid hive init --force\n"))
        for refused in [["get", "1"], ["set", "1", "big"], ["type", "less"], ["columns", "8"], ["direction", "horizontal"],
                        ["sections", "add"], ["swap", "0", "1"], ["move", "0", "1"], ["reset"]] {
            #expect(try CommandRunner.run(["--db", database, "--grid", "hive"] + refused).status == 64, "\(refused)")
        }
        #expect(try gridstore(at: database, "show", "--viewport", "1,2,3").status == 64)
        #expect(try gridstore(at: database, "init", "--layout", "honeycomb", "--columns", "6", "--force").status == 64)
        // Switching back to tiles.
        #expect(try gridstore(at: database, "init", "--force").standardOutput.hasPrefix("hive · more (6 columns)"))
        #expect(try gridstore(at: database, "toggle", "1").status == 0)
    }

    @Test("init takes the original ring order and scaling; show --viewport uses the grid's curve unless --scaling says otherwise",
          arguments: Backend.all)
    func originalOptions(backend: Backend) throws {
        let database = try backend.database(in: directory)
        let created = try CommandRunner.run(["--db", database, "--grid", "hive", "init", "--layout", "honeycomb", "--items", "7",
                                             "--center", "last", "--ring-order", "original", "--scaling", "original"],
                                            environment: ["COLUMNS": "80"])
        #expect(created.standardOutput == """
            hive · honeycomb (pointy-top, cells 60 wide, 6 apart, last item in the center)
              · original ring order · original scaling · revision 0 · 7 items on 2 rings
               3   4
             2   6   5
               1   0

            """)
        let show = { (extra: [String]) throws -> String in
            try CommandRunner.run(["--db", database, "--grid", "hive", "show", "--format", "json", "--viewport", "0,0,150,150"] + extra)
                .standardOutput
        }
        #expect(try show([]).contains(#""curve":"original"}"#))
        #expect(try show(["--scaling", "smooth"]).contains(#""curve":"smooth"}"#))
        for (arguments, message) in [
            (["show", "--scaling", "smooth"], "Error: --scaling goes with --viewport"),
            (["init", "--force", "--ring-order", "original"], "Error: --ring-order applies only to a grid with --layout honeycomb"),
            (["init", "--force", "--layout", "honeycomb", "--ring-order", "spiral"],
             "Error: --ring-order must be one of standard, original, not 'spiral'"),
        ] {
            let result = try CommandRunner.run(["--db", database, "--grid", "hive"] + arguments)
            #expect(result.status == 64)
            #expect(result.standardError.hasPrefix(message + "\n"), "\(result.standardError)")
        }
    }

    @Test("export then import round-trips a honeycomb", arguments: Backend.all)
    func roundTrip(backend: Backend) throws {
        let database = try backend.database(in: directory, name: "hive.sqlite")
        _ = try gridstore(at: database, "init", "--layout", "honeycomb", "--items", "25", "--center", "last", "--spacing", "2.5")
        let exported = try gridstore(at: database, "export").standardOutput
        #expect(try CommandRunner.run(["--db", database, "--grid", "copy", "import", "-"], input: Data(exported.utf8)).status == 0)
        var copy = try object(try CommandRunner.run(["--db", database, "--grid", "copy", "export"]).standardOutput)
        let original = try object(exported)
        copy["grid"] = original["grid"]
        copy["revision"] = original["revision"]
        #expect(NSDictionary(dictionary: copy) == NSDictionary(dictionary: original))
    }

    private func object(_ json: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
    }
}
