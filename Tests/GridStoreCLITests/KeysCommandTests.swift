import Foundation
import GridStoreAudit
import Testing

/// `gridstore keys` and `--key` wherever a command takes an `<index>`.
@Suite("gridstore keys")
struct KeysCommandTests {
    let directory = TemporaryDirectory()

    func run(_ database: String, _ arguments: String...) throws -> CommandResult {
        try CommandRunner.run(["--db", database] + arguments, environment: ["COLUMNS": "80"])
    }

    @Test("keys set a section's items, and --key finds an item wherever it moved", arguments: Backend.all)
    func keysAndKeyOption(backend: Backend) throws {
        let database = try backend.database(in: directory)
        #expect(try run(database, "keys", "mail", "calendar", "news", "photos", "-q").status == 0)
        #expect(try run(database, "set", "--key", "news", "big", "-q").status == 0)
        #expect(try run(database, "toggle", "--key", "mail", "-q").status == 0)
        let listed = try run(database, "keys")
        #expect(listed.standardOutput == "0 mail\n1 calendar\n2 news\n3 photos\n")
        // Reordered by the app's data source: sizes follow the keys; calendar is gone, maps is new.
        let reordered = try run(database, "keys", "news", "maps", "mail")
        #expect(reordered.status == 0)
        #expect(reordered.standardOutput.hasSuffix("keys: 0 news · 1 maps · 2 mail\n"))
        #expect(try run(database, "get", "--key", "news").standardOutput == "big\n")
        #expect(try run(database, "get", "--key", "mail", "--format", "json").standardOutput
                == #"{"grid":"default","section":0,"index":2,"key":"mail","size":"middle","explicit":true}"# + "\n")
        #expect(try run(database, "move", "--key", "mail", "0", "-q").status == 0)
        #expect(try run(database, "delete", "--key", "maps", "-q").status == 0)
        #expect(try run(database, "insert", "1", "--key", "weather", "--size", "middle", "-q").status == 0)
        #expect(try run(database, "keys", "--format", "json").standardOutput
                == #"{"grid":"default","sections":[{"section":0,"keys":["mail","weather","news"]}]}"# + "\n")
        let document = try run(database, "show", "--format", "json").standardOutput
        #expect(document.contains(#"{"index":1,"key":"weather","size":"middle""#))
    }

    @Test("export and import carry keys", arguments: Backend.all)
    func transfer(backend: Backend) throws {
        let database = try backend.database(in: directory)
        _ = try run(database, "keys", "a", "b", "c", "-q")
        _ = try run(database, "set", "--key", "b", "big", "-q")
        let file = directory.file("grid.json")
        let exported = try run(database, "export")
        #expect(exported.status == 0)
        try exported.standardOutput.write(toFile: file, atomically: true, encoding: .utf8)
        let target = directory.file("target.sqlite")
        #expect(try run(target, "import", file, "-q").status == 0)
        #expect(try run(target, "keys").standardOutput == "0 a\n1 b\n2 c\n")
        #expect(try run(target, "get", "--key", "b").standardOutput == "big\n")
    }

    @Test("bad keys and misuse are one-line errors that change nothing", arguments: Backend.all)
    func refusals(backend: Backend) throws {
        let database = try backend.database(in: directory)
        _ = try run(database, "init", "--sections", "2", "--items", "3", "-q")
        _ = try run(database, "keys", "--section", "1", "mail", "-q")
        let before = try DatabaseAudit.rows(path: database)
        let cases: [([String], String)] = [
            (["toggle", "--key", "nope"], "Error: no item of grid 'default' has the key 'nope'; 'gridstore keys' lists the keys"),
            (["toggle", "--key", "mail", "--section", "1"], "Error: --key names an item in whichever section it is; leave out --section"),
            (["toggle"], "Error: missing <index> (or --key): the item's index in its section, from 0."),
            (["toggle", "3", "--key", "mail"], "Error: unexpected argument '3'"),
            (["keys", "a", "b", "a"], "Error: the key 'a' is given more than once; a key names one item of its grid"),
            (["keys", "mail"], "Error: the key 'mail' belongs to item 0 of section 1 already; a key names one item of its grid"),
            (["keys", "tab\there"], "Error: 'tab?here' cannot be an item's key: a key cannot contain control characters such as line breaks, tabs or bidirectional overrides"),
            (["keys", ""], "Error: '' cannot be an item's key: a key has at least one character"),
            (["insert", "0", "--key", "mail"], "Error: the key 'mail' belongs to item 0 of section 1 already; a key names one item of its grid"),
            (["keys", "--quiet"], "Error: --quiet goes with keys to set"),
            (["keys", "--section", "5"], "Error: section 5 does not exist: the grid has 2 section(s), 0 to 1"),
        ]
        for (arguments, message) in cases {
            let result = try CommandRunner.run(["--db", database] + arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.standardError.split(separator: "\n").first.map(String.init) == message, "\(arguments)")
            #expect(result.standardOutput.isEmpty, "\(arguments)")
        }
        #expect(try DatabaseAudit.rows(path: database) == before)
        let list = try run(database, "keys")
        #expect(list.standardOutput == "section 0:\n(no keys)\nsection 1:\n0 mail\n")
    }
}
