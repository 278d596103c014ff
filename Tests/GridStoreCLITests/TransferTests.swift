import Foundation
import GridStore
import GridStoreSQLite
import GridStoreAudit
import Testing

@Suite("gridstore export and import")
struct TransferTests {
    let directory = TemporaryDirectory()
    var database: String { directory.file("grids.sqlite") }

    func gridstore(_ arguments: [String], input: String? = nil) throws -> CommandResult {
        try CommandRunner.run(["--db", database] + arguments, input: input.map { Data($0.utf8) })
    }

    @Test("export then import into a new grid gives the same JSON but for the name")
    func roundTrip() throws {
        _ = try gridstore(["init", "--type", "less", "--items", "30", "--sections", "2", "--default-size", "middle"])
        for index in [0, 3, 7, 12, 29] { _ = try gridstore(["toggle", String(index)]) }
        _ = try gridstore(["set", "4", "big", "--section", "1"])
        let exported = try gridstore(["export"])
        #expect(exported.status == 0)
        let imported = try gridstore(["--grid", "copy", "import", "-"], input: exported.standardOutput)
        #expect(imported == CommandResult(status: 0, standardOutput: "imported 60 item(s) in 2 section(s) into grid 'copy' (revision 1)\n",
                                          standardError: ""))
        let original = try object(exported.standardOutput)
        var copy = try object(try gridstore(["--grid", "copy", "show", "--format", "json"]).standardOutput)
        #expect(copy["grid"] as? String == "copy")
        copy["grid"] = original["grid"]
        copy["revision"] = original["revision"]
        #expect(NSDictionary(dictionary: copy) == NSDictionary(dictionary: original))
        // The same document imported again is a change of nothing but the revision.
        #expect(try gridstore(["--grid", "copy", "import", "-"], input: exported.standardOutput).status == 0)
    }

    @Test("import takes the grid name from the document and creates the grid")
    func nameFromDocument() throws {
        let document = """
            {"grid":"from-file","columns":8,"direction":"horizontal","sections":[
              {"items":[{"index":0,"size":"big"},{"index":1,"size":"small","x":99,"y":99}]}]}
            """
        let file = directory.file("grid.json")
        try document.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try gridstore(["import", file]).status == 0)
        let shown = try object(try gridstore(["--grid", "from-file", "show", "--format", "json"]).standardOutput)
        let items = (shown["sections"] as! [[String: Any]])[0]["items"] as! [[String: Any]]
        // Positions in the document are ignored and recomputed: a horizontal big tile is 2 wide, 4 tall.
        #expect(items[0]["w"] as? Int == 2 && items[0]["h"] as? Int == 4)
        #expect(items[1]["x"] as? Int == 0 && items[1]["y"] as? Int == 4)
    }

    @Test("malformed documents are refused with exit 65 and change nothing", arguments: [
        ("{", "line 1, column 2: the document ends before an object is closed with '}'"),
        ("[]", "line 1, column 1: expected an object, found an array"),
        (#"{"grid":"g","type":"more"}"#, "the document has no \"sections\" array"),
        (#"{"grid":"g","sections":[]}"#, "the document gives neither \"type\" nor \"columns\""),
        (#"{"grid":"g","type":"more","sections":[{"items":[{"index":0,"size":"huge"}]}]}"#,
         "line 1, column 67: the size of item 0 of section 0 is \"huge\"; sizes are small, middle and big"),
        (#"{"grid":"g","type":"more","sections":[{"items":[{"index":1,"size":"big"}]}]}"#,
         "line 1, column 49: item 0 of section 0 has index 1; items must be listed in order with indices 0, 1, 2, … (no gaps, no duplicates)"),
        (#"{"grid":"g","type":"more","sections":[{"items":[{"index":0,"size":"big"},{"index":0,"size":"big"}]}]}"#,
         "line 1, column 74: item 1 of section 0 has index 0; items must be listed in order with indices 0, 1, 2, … (no gaps, no duplicates)"),
        (#"{"grid":"g","type":"more","columns":"6","sections":[]}"#, "line 1, column 37: expected a number, found a string"),
        (#"{"grid":"g","type":"less","columns":6,"sections":[]}"#, "\"type\" less has 4 columns, but \"columns\" is 6"),
        (#"{"grid":"g","columns":2,"sections":[]}"#,
         "cannot be imported: a big tile spans 4 columns but the grid has only 2; use at least 4 columns or a narrower big span"),
        (#"{"type":"more","sections":[]}"#, "names no grid; add \"grid\" to it or give --grid"),
    ])
    func malformed(document: String, message: String) throws {
        _ = try gridstore(["--grid", "g", "set", "0", "big"])
        let before = try gridstore(["--grid", "g", "export"]).standardOutput
        let result = try gridstore(["import", "-"], input: document)
        #expect(result.status == 65)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("Error: standard input "))
        #expect(result.standardError.hasSuffix(message + "\n"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(try gridstore(["--grid", "g", "export"]).standardOutput == before)
    }

    private func object(_ json: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
    }
}
