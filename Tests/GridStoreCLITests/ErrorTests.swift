import Foundation
import GridStore
import GridStoreSQLite
import GridStoreAudit
import Testing

/// Exact error and help text, exit statuses, and that failed commands change nothing.
@Suite("gridstore errors")
struct ErrorTests {
    let directory = TemporaryDirectory()
    var database: String { directory.file("grids.sqlite") }

    @Test("the help of toggle, exactly")
    func toggleHelp() throws {
        let result = try CommandRunner.run(["toggle", "--help"])
        #expect(result == CommandResult(status: 0, standardOutput: """
            OVERVIEW: Cycle a tile's size small → middle → big → small, re-pack, and show
            the grid.

            USAGE: gridstore toggle (<index> | --key <KEY>) [--section <S>]
                                    [--format <text|json>] [--quiet]

            ARGUMENTS:
              <index>                 The item's index in its section, from 0.

            OPTIONS:
              --section <S>           The section, from 0 (default: 0).
              --key <KEY>             The item with this key (see 'gridstore keys'), instead
                                      of <index> and --section.
              --format <text|json>    Print the changed grid as text (the default) or as the
                                      JSON of show --format json.
              -q, --quiet             Print nothing on success.
              --db <path>             The database: an SQLite file, or a postgresql:// URI
                                      (default: $GRIDSTORE_DB, else
                                      $XDG_DATA_HOME/gridstore/gridstore.sqlite).
              --grid <name>           The grid to use (default: default).
              -h, --help              Show help information.

            """, standardError: ""))
    }

    @Test("usage errors: one line, the usage, where to find help, exit 64", arguments: [
        (["toggle", "99"], "Error: item 99 does not exist: section 0 has 12 item(s), so the index is 0 to 11",
         "Usage: gridstore toggle (<index> | --key <KEY>) [--section <S>]\n" + String(repeating: " ", count: 24) + "[--format <text|json>] [--quiet]", "See 'gridstore toggle --help'."),
        (["toggle", "three"], "Error: <index> must be a whole number from 0 up, not 'three'",
         "Usage: gridstore toggle (<index> | --key <KEY>) [--section <S>]\n" + String(repeating: " ", count: 24) + "[--format <text|json>] [--quiet]", "See 'gridstore toggle --help'."),
        (["toggle"], "Error: missing <index> (or --key): the item's index in its section, from 0.",
         "Usage: gridstore toggle (<index> | --key <KEY>) [--section <S>]\n" + String(repeating: " ", count: 24) + "[--format <text|json>] [--quiet]", "See 'gridstore toggle --help'."),
        (["set", "1", "huge"], "Error: <size> must be one of small, middle, big, not 'huge'",
         "Usage: gridstore set (<index> | --key <KEY>) <size> [--section <S>]\n" + String(repeating: " ", count: 21) + "[--format <text|json>] [--quiet]", "See 'gridstore set --help'."),
        (["toggle", "1", "--colour"], "Error: unknown option '--colour'; the usage below lists the options 'toggle' accepts",
         "Usage: gridstore toggle (<index> | --key <KEY>) [--section <S>]\n" + String(repeating: " ", count: 24) + "[--format <text|json>] [--quiet]", "See 'gridstore toggle --help'."),
        (["frobnicate"], "Error: unknown command 'frobnicate'; give one of init, toggle, set, get, show, type, columns, "
            + "direction, items, insert, delete, move, swap, sections, keys, reset, undo, redo, history, revert, edit, grids, drop, export, import, import-defaults, copy, sync, name, conflicts, sync-cursor, sync-export, sync-import, sync-show, check, migrate, completions",
         "Usage: gridstore [--db <path>] [--grid <name>] <command> [<arguments>]", "See 'gridstore --help'."),
        (["--format", "json", "show"], "Error: unknown command 'json': --format is an option of the command; give it after the "
            + "command, as in 'gridstore show --format json'",
         "Usage: gridstore [--db <path>] [--grid <name>] <command> [<arguments>]", "See 'gridstore --help'."),
        (["--grid", "show"], "Error: missing command: --grid took 'show' as its value; give --grid a value first, as in "
            + "'gridstore --grid <value> show'",
         "Usage: gridstore [--db <path>] [--grid <name>] <command> [<arguments>]", "See 'gridstore --help'."),
        (["--db"], "Error: --db needs a value: a database file or a postgresql:// URI",
         "Usage: gridstore [--db <path>] [--grid <name>] <command> [<arguments>]", "See 'gridstore --help'."),
        (["--db", "x.sqlite", "--grid"], "Error: --grid needs a value: a grid's name",
         "Usage: gridstore [--db <path>] [--grid <name>] <command> [<arguments>]", "See 'gridstore --help'."),
        (["set", "1", "Big"], "Error: <size> must be one of small, middle, big, not 'Big'; did you mean 'big'?",
         "Usage: gridstore set (<index> | --key <KEY>) <size> [--section <S>]\n" + String(repeating: " ", count: 21) + "[--format <text|json>] [--quiet]", "See 'gridstore set --help'."),
        (["set", "big", "1"], "Error: <index> must be a whole number from 0 up, not 'big'; did you mean 'set 1 big'?",
         "Usage: gridstore set (<index> | --key <KEY>) <size> [--section <S>]\n" + String(repeating: " ", count: 21) + "[--format <text|json>] [--quiet]", "See 'gridstore set --help'."),
        (["help", "togle"], "Error: no help for 'togle'; did you mean 'toggle'?",
         "Usage: gridstore [--db <path>] [--grid <name>] <command> [<arguments>]", "See 'gridstore --help'."),
        (["columns", "3"], "Error: <count> must be from 4 to 64, not 3",
         "Usage: gridstore columns <count> [--format <text|json>] [--quiet]", "See 'gridstore columns --help'."),
        (["columns", "8", "--x"], "Error: unknown option '--x'; 'columns' accepts --format, --quiet, --db, --grid",
         "Usage: gridstore columns <count> [--format <text|json>] [--quiet]", "See 'gridstore columns --help'."),
        (["toggle", "1", "--section", "1", "--section", "2"], "Error: option '--section' is given more than once; give it once",
         "Usage: gridstore toggle (<index> | --key <KEY>) [--section <S>]\n" + String(repeating: " ", count: 24) + "[--format <text|json>] [--quiet]", "See 'gridstore toggle --help'."),
    ])
    func usageErrors(arguments: [String], error: String, usage: String, hint: String) throws {
        let result = try CommandRunner.run(["--db", database] + arguments)
        #expect(result.status == 64)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == [error, usage, hint, ""].joined(separator: "\n"))
    }

    @Test("failures other than usage: one line, exit 1")
    func failures() throws {
        let result = try CommandRunner.run(["--db", directory.path, "toggle", "1"])
        #expect(result == CommandResult(status: 1, standardOutput: "",
                                        standardError: "Error: \(directory.path) is a directory; give the path of a database file\n"))
        let missing = try CommandRunner.run(["--db", database, "import", directory.file("nope.json")])
        #expect(missing.status == 1)
        #expect(missing.standardError == "Error: cannot read \(directory.file("nope.json")): No such file or directory\n")
        // A UserDefaults suite given to import is pointed to import-defaults, binary or XML, and nothing is created.
        for (name, text) in [("prefs.plist", "bplist00\u{1}\u{2}"),
                             ("suite.xml", "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n")] {
            let file = directory.file(name)
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            let result = try CommandRunner.run(["--db", database, "import", file])
            #expect(result.status != 0)
            #expect(result.standardError == "Error: \(file) is a property list, not a grid document; 'gridstore import-defaults "
                    + "\(file)' reads the sizes a UserDefaults suite kept\n", "\(result.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    @Test("a failed command leaves the database as it was, and a refused first use leaves no grid")
    func failedCommandsChangeNothing() throws {
        #expect(try CommandRunner.run(["--db", database, "toggle", "12"]).status == 64)
        #expect(!FileManager.default.fileExists(atPath: database))
        _ = try CommandRunner.run(["--db", database, "set", "2", "big"])
        let before = try CommandRunner.run(["--db", database, "export"]).standardOutput
        for arguments in [["toggle", "12"], ["delete", "-1"], ["columns", "65"], ["items", "-3"], ["move", "0", "12"],
                          ["swap", "0", "99"], ["sections", "remove", "1"], ["insert", "13"], ["type", "huge"]] {
            #expect(try CommandRunner.run(["--db", database] + arguments).status == 64, "\(arguments)")
        }
        #expect(try CommandRunner.run(["--db", database, "export"]).standardOutput == before)
    }
}

/// What a user sees when a PostgreSQL server cannot be reached.
@Suite("gridstore with an unreachable PostgreSQL server")
struct UnreachableServerTests {
    @Test("one line naming the server, without its password, exit 1, at once", arguments: ["grids", "toggle 3", "migrate --status"])
    func unreachable(command: String) throws {
        let directory = TemporaryDirectory()
        let uri = "postgresql://app:s3cret@/layouts?host=\(directory.path)&port=5999"
        let result = try CommandRunner.run(["--db", uri] + command.split(separator: " ").map(String.init))
        #expect(result.status == 1)
        #expect(result.standardOutput == "" || command.hasPrefix("migrate"))
        #expect(result.standardError.hasPrefix(
            "Error: cannot reach PostgreSQL server postgresql://app@/layouts?host=\(directory.path)&port=5999: "))
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(!(result.standardError + result.standardOutput).contains("s3cret"))
    }

    @Test("a URI libpq refuses (a misspelt parameter, a value it does not know) says so, not that the server is unreachable",
          arguments: [("sslmod=require", #"invalid URI query parameter: "sslmod""#), ("sslmode=bogus", #"invalid sslmode value: "bogus""#)])
    func invalidURI(parameter: String, message: String) throws {
        let uri = "postgresql://app:s3cret@localhost/layouts?\(parameter)"
        let result = try CommandRunner.run(["--db", uri, "grids"])
        #expect(result.status == 1 && result.standardError == "Error: the PostgreSQL connection URI postgresql://app@localhost/layouts?"
                + "\(parameter) is not one libpq accepts: \(message) (the parameters are listed in libpq's documentation, "
                + "\"Parameter Key Words\")\n", "\(result.standardError)")
    }
}
