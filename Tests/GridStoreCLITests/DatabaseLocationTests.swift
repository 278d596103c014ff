import GridStore
@testable import GridStoreCLI
import Testing

@Suite("DatabaseLocation")
struct DatabaseLocationTests {
    @Test("an explicit path wins, then GRIDSTORE_DB, then XDG_DATA_HOME, then ~/.local/share")
    func order() throws {
        let everything: NamedValues = ["GRIDSTORE_DB": "/env/db.sqlite", "XDG_DATA_HOME": "/xdg", "HOME": "/home/me"]
        #expect(try DatabaseLocation.resolve(explicitPath: "/cli.sqlite", environment: everything) == "/cli.sqlite")
        #expect(try DatabaseLocation.resolve(environment: everything) == "/env/db.sqlite")
        #expect(try DatabaseLocation.resolve(environment: ["XDG_DATA_HOME": "/xdg", "HOME": "/home/me"])
                == "/xdg/gridstore/gridstore.sqlite")
        #expect(try DatabaseLocation.resolve(environment: ["HOME": "/home/me"]) == "/home/me/.local/share/gridstore/gridstore.sqlite")
    }

    @Test("empty and relative values count as unset")
    func unsetValues() throws {
        let environment: NamedValues = ["GRIDSTORE_DB": "", "XDG_DATA_HOME": "relative/path", "HOME": "/home/me"]
        #expect(try DatabaseLocation.resolve(explicitPath: "", environment: environment)
                == "/home/me/.local/share/gridstore/gridstore.sqlite")
    }

    @Test("without HOME the account's home folder is used; without either, a database must be named")
    func noHome() throws {
        #expect(try DatabaseLocation.resolve(environment: ["HOME": ""], accountHome: { "/home/account" })
                == "/home/account/.local/share/gridstore/gridstore.sqlite")
        #expect(throws: DatabaseLocation.noHomeDirectory) {
            try DatabaseLocation.resolve(environment: [:], accountHome: { nil })
        }
        #expect(DatabaseLocation.noHomeDirectory.message.hasSuffix("name a database with --db or GRIDSTORE_DB"))
        #expect(throws: DatabaseLocation.noHomeDirectory) {
            try DatabaseLocation.resolve(environment: [:], accountHome: { "" })
        }
    }
}
