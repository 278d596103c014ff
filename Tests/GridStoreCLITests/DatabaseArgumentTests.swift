import Foundation
@testable import GridStoreCLI
import Testing

/// Where the data goes: a mistyped server location is a usage error, never a local file named
/// after the text.
@Suite("Database locations on the command line")
struct DatabaseArgumentTests {
    let directory = TemporaryDirectory()

    @Test("anything shaped like a URI that is not a PostgreSQL one is refused with a suggestion, creating nothing", arguments: [
        ("postgresq://app@db/layouts", "is not a PostgreSQL URI; did you mean 'postgresql://app@db/layouts'?"),
        ("pg://x/y", "is not a PostgreSQL URI; did you mean 'postgresql://x/y'?"),
        ("postgres:/layouts", "is not a PostgreSQL URI; did you mean 'postgresql:///layouts'?"),
        ("PostgreSQL+ssl://db/x", "is not a PostgreSQL URI; did you mean 'postgresql://db/x'?"),
        ("mysql://u@h/db", "looks like a URI of scheme 'mysql', but gridstore keeps grids in SQLite files and on PostgreSQL servers"),
        ("file:x.db?immutable=1", "looks like a URI of scheme 'file'"),
    ])
    func refused(location: String, message: String) throws {
        for arguments in [["--db", location, "toggle", "1"], ["--db", location, "show"], ["copy", location, directory.file("to.sqlite")],
                          ["copy", directory.file("from.sqlite"), location]] {
            let result = try CommandRunner.shell("cd '\(directory.path)' && \"$GRIDSTORE\" "
                                                 + arguments.map { "'\($0)'" }.joined(separator: " "))
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
            let hint = location.dropFirst(location.prefix { $0 != ":" }.count + 1).contains("/")
                ? "a file path cannot start like a URI" : "a file of that name is './\(location)'"
            #expect(result.standardError.contains(hint), "\(result.standardError)")
        }
        let environment = try CommandRunner.shell("cd '\(directory.path)' && GRIDSTORE_DB='\(location)' \"$GRIDSTORE\" toggle 1")
        #expect(environment.status == 64)
        #expect(environment.standardError.hasPrefix("Error: $GRIDSTORE_DB '\(location)'"), "\(environment.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("a password in a refused URI of any scheme is never printed", arguments: [
        "pg://app:s3cret@db/x", "mysql://root:s3cret@h/db", "postgresq://app:s3cret@db:5432/layouts?sslmode=require",
    ])
    func refusedPassword(location: String) throws {
        let result = try CommandRunner.shell("cd '\(directory.path)' && \"$GRIDSTORE\" --db '\(location)' toggle 1")
        #expect(result.status == 64)
        #expect(!result.standardError.contains("s3cret") && result.standardError.contains(":***@"), "\(result.standardError)")
        #expect(DatabaseArgument.withoutPassword("pg://a:b@c@h/x") == "pg://a:***@h/x")
        #expect(DatabaseArgument.withoutPassword("pg://a@h/x?Password=z&b=1&password=") == "pg://a@h/x?Password=***&b=1&password=***")
        #expect(DatabaseArgument.withoutPassword("notes:today.sqlite") == "notes:today.sqlite")
    }

    @Test("paths stay paths: absolute, relative, ./name with a colon, and names without one")
    func paths() throws {
        for path in [directory.file("a.sqlite"), "./b:c.sqlite", "d.sqlite", "sub/dir:e.sqlite", "9pm:grids.sqlite",
                     "backup-2026-12-01T10:30:00.sqlite", "notes:today.sqlite"] {
            let result = try CommandRunner.shell("cd '\(directory.path)' && mkdir -p sub && \"$GRIDSTORE\" --db '\(path)' -q toggle 1")
            #expect(result.status == 0, "\(path): \(result.standardError)")
        }
    }
}
