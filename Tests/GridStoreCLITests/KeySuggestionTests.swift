import Foundation
@testable import GridStoreCLI
import Testing

/// A mistyped key gets a suggestion, as grid names, commands and options do.
@Suite("Key suggestions")
struct KeySuggestionTests {
    @Test("toggle --key mial suggests mail; a key far from every key gets the list's command")
    func suggestion() throws {
        let directory = TemporaryDirectory()
        let database = directory.file("keys.sqlite")
        _ = try CommandRunner.run(["--db", database, "-q", "keys", "mail", "news", "weather"])
        for command in [["toggle", "--key", "mial"], ["get", "--key", "mial"], ["set", "--key", "mial", "big"]] {
            let result = try CommandRunner.run(["--db", database] + command)
            #expect(result.status == 64, "\(command)")
            #expect(result.standardError.hasPrefix("Error: no item of grid 'default' has the key 'mial'; did you mean 'mail'?\n"),
                    "\(command): \(result.standardError)")
        }
        let far = try CommandRunner.run(["--db", database, "toggle", "--key", "zzzzzz"])
        #expect(far.standardError.hasPrefix("Error: no item of grid 'default' has the key 'zzzzzz'; 'gridstore keys' lists the keys\n"))
    }
}
