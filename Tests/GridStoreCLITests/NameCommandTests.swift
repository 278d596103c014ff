import Foundation
import Testing
import TestSupport

/// `gridstore name`: the name a database goes by on its peers, shown in conflicts (text and JSON).
@Suite("gridstore name")
struct NameCommandTests {
    let directory = TemporaryDirectory()

    func run(_ database: String, _ arguments: String...) throws -> CommandResult {
        try CommandRunner.run(["--db", directory.file(database)] + arguments, environment: ["COLUMNS": "100"])
    }

    @Test("name sets and prints the name; a refused one, or a missing file, is one line and changes nothing; conflicts show names")
    func nameAndConflicts() throws {
        let missing = try run("nowhere.sqlite", "name", "Anna's iPad")
        #expect(missing.status == 1 && missing.standardError.hasPrefix("Error: no database at ") && missing.standardOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.file("nowhere.sqlite")))

        #expect(try run("phone.sqlite", "toggle", "3", "-q").status == 0)
        #expect(try run("tablet.sqlite", "toggle", "2", "-q").status == 0)
        #expect(try run("phone.sqlite", "name", "Anna's phone").standardOutput == "this database goes by 'Anna's phone' on its peers\n")
        #expect(try run("tablet.sqlite", "name", "Anna's iPad").status == 0)
        #expect(try run("tablet.sqlite", "name").standardOutput == "Anna's iPad\n")
        let before = try Data(contentsOf: URL(fileURLWithPath: directory.file("tablet.sqlite")))
        for bad in ["", "\u{1B}[2J", String(repeating: "x", count: 65)] {
            let refused = try run("tablet.sqlite", "name", bad)
            #expect(refused.status == 64 && refused.standardError.hasPrefix("Error: '") && refused.standardError.contains("cannot name a database")
                    && refused.standardError.split(separator: "\n")[1].hasPrefix("Usage: gridstore name") && !refused.standardError.contains("\u{1B}"),
                    "\(refused)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file("tablet.sqlite"))) == before)

        #expect(try run("phone.sqlite", "sync", directory.file("tablet.sqlite")).status == 0)
        #expect(try run("phone.sqlite", "set", "5", "big", "-q").status == 0)
        #expect(try run("tablet.sqlite", "set", "5", "middle", "-q").status == 0)
        #expect(try run("phone.sqlite", "sync", directory.file("tablet.sqlite")).status == 0)
        let listed = try run("phone.sqlite", "conflicts").standardOutput
        #expect(listed.hasPrefix("size of item 5 of section 0: middle by Anna's iPad (replica ")
                && listed.contains(" overwrote big by Anna's phone (replica "), "\(listed)")
        let json = try run("phone.sqlite", "conflicts", "--format", "json").standardOutput
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let conflict = (object?["conflicts"] as? [[String: Any]])?.first
        #expect(conflict?["keptByName"] as? String == "Anna's iPad" && conflict?["overwrittenByName"] as? String == "Anna's phone", "\(json)")
        // The cursor's replicas, labelled: this database's first.
        let cursor = try run("phone.sqlite", "sync-cursor", "--format", "json").standardOutput
        let labelled = try JSONSerialization.jsonObject(with: Data(cursor.utf8)) as? [String: Any]
        let replicas = labelled?["replicas"] as? [[String: Any]] ?? []
        #expect(labelled?["cursor"] as? String == (try run("phone.sqlite", "sync-cursor").standardOutput.dropLast().description))
        #expect(replicas.map { $0["name"] as? String } == ["Anna's phone", "Anna's iPad"] && replicas.map { $0["here"] as? Bool } == [true, false]
                && replicas.allSatisfy { ($0["latestChange"] as? Int ?? 0) > 1_700_000_000_000 && ($0["replica"] as? String)?.count == 32 }, "\(cursor)")
    }
}
