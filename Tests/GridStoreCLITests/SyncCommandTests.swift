import Foundation
import GridStore
import GridStoreAudit
import GridStoreSQLite
import Testing

/// `gridstore sync` and `gridstore conflicts`.
@Suite("gridstore sync")
struct SyncCommandTests {
    let directory = TemporaryDirectory()

    func run(_ database: String, _ arguments: String...) throws -> CommandResult {
        try CommandRunner.run(["--db", directory.file(database)] + arguments, environment: ["COLUMNS": "100"])
    }

    @Test("sync says what moved each way, as text and JSON; a second sync moves nothing; conflicts lists what was overwritten")
    func syncAndConflicts() throws {
        #expect(try run("phone.sqlite", "toggle", "3", "-q").status == 0)
        #expect(try run("tablet.sqlite", "insert", "0", "--size", "big", "--key", "mail", "-q").status == 0)
        #expect(try run("tablet.sqlite", "name", "Anna's iPad").standardOutput == "this database goes by 'Anna's iPad' on its peers\n")
        let first = try run("phone.sqlite", "sync", directory.file("tablet.sqlite"))
        #expect(first.status == 0 && first.standardError.isEmpty)
        #expect(first.standardOutput == "grid 'default': sent 1 change(s) to \(directory.file("tablet.sqlite")) (revision 1 → 2), "
                + "received 4 (revision 1 → 2)\n")
        let again = try run("tablet.sqlite", "sync", directory.file("phone.sqlite"), "--format", "json")
        let json = try JSONSerialization.jsonObject(with: Data(again.standardOutput.utf8)) as? [String: Any]
        let grid = (json?["grids"] as? [[String: Any]])?.first
        #expect(grid?["sent"] as? Int == 0 && grid?["received"] as? Int == 0 && grid?["conflicts"] as? Int == 0)
        #expect(try run("phone.sqlite", "show", "--format", "json").standardOutput
                == run("tablet.sqlite", "show", "--format", "json").standardOutput)
        // Both change one size without seeing the other's change.
        #expect(try run("phone.sqlite", "set", "5", "big", "-q").status == 0)
        #expect(try run("tablet.sqlite", "set", "5", "middle", "-q").status == 0)
        let conflicted = try run("phone.sqlite", "sync", directory.file("tablet.sqlite"))
        // The hint runs as printed: it names the database --db chose.
        #expect(conflicted.standardOutput.hasSuffix("; 1 conflict(s), see gridstore --db \(directory.file("phone.sqlite")) --grid default conflicts\n"))
        let listed = try run("tablet.sqlite", "conflicts")
        #expect(listed.status == 0 && listed.standardOutput.hasPrefix("size of item 5 of section 0: ")
                && listed.standardOutput.split(separator: "\n").count == 1)
        #expect(try run("phone.sqlite", "conflicts", "--format", "json").standardOutput.contains("\"field\":\"size\",\"section\":0,\"item\":5"))
        // The history names the merge and the database it came from. Undo takes back the phone's
        // own change made before it, by identity (the size, unless the tablet's later one won),
        // never the merge, nor the toggle made before the grid first synced.
        #expect(try run("phone.sqlite", "history", "--limit", "1").standardOutput.contains("sync from Anna's iPad (replica "))
        #expect(try run("phone.sqlite", "undo", "-q").status == 0)
        #expect(try run("phone.sqlite", "get", "5").standardOutput != "big\n")
        let undo = try run("phone.sqlite", "undo")
        #expect(undo.status == 64 && undo.standardError.hasPrefix("Error: there is nothing to undo: the sync at revision 2 (sync from Anna's iPad (replica ")
                && undo.standardError.contains(") stops undo, which never takes back a sync nor a change made before the grid first synced; "
                                               + "'gridstore --db \(directory.file("phone.sqlite")) --grid default revert --to N' makes the grid as "
                                               + "it was at revision N again"),
                "\(undo.standardError)")
    }

    @Test("one grid that cannot sync does not stop the others: each is synced or refused on its own line, and the exit status says so")
    func oneGridNeverBlocksAnother() throws {
        for grid in ["alpha", "beta", "gamma"] {
            #expect(try run("a.sqlite", "--grid", grid, "toggle", "1", "-q").status == 0)
        }
        #expect(try run("a.sqlite", "sync", directory.file("b.sqlite"), "--create").status == 0)
        for grid in ["alpha", "beta", "gamma"] {
            #expect(try run("a.sqlite", "--grid", grid, "toggle", "2", "-q").status == 0)
        }
        // beta's sync state damaged: it cannot sync until it is mended.
        let tamper = try CommandRunner.shell("sqlite3 \(directory.file("a.sqlite")) \"UPDATE sync_registers SET register = 'garbage' "
                                             + "WHERE grid_id = (SELECT id FROM grids WHERE name = 'beta')\"")
        #expect(tamper.status == 0, "\(tamper)")
        let result = try run("a.sqlite", "sync", directory.file("b.sqlite"))
        #expect(result.status == 1)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("grid 'alpha': sent 1 change(s)") && lines[1].hasPrefix("grid 'gamma': sent 1 change(s)"),
                "\(result.standardOutput)")
        #expect(result.standardError.hasPrefix("Error: grid 'beta' was not synced: the stored grid is inconsistent: grid 'beta' has a sync state")
                && result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        for grid in ["alpha", "gamma"] {
            #expect(try run("b.sqlite", "--grid", grid, "get", "2").standardOutput == "middle\n")
        }
        #expect(try run("b.sqlite", "--grid", "beta", "get", "2").standardOutput == "small\n")
        let json = try run("a.sqlite", "sync", directory.file("b.sqlite"), "--format", "json")
        let grids = try #require((try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])?["grids"] as? [[String: Any]])
        #expect(json.status == 1 && grids.count == 3 && (grids[1]["error"] as? String)?.contains("sync state") == true && grids[0]["error"] == nil)
    }

    @Test("a dry run writes nothing; one database given twice, a missing one, or a missing grid is one line")
    func refusals() throws {
        #expect(try run("a.sqlite", "toggle", "1", "-q").status == 0)
        #expect(try run("b.sqlite", "toggle", "2", "-q").status == 0)
        let before = try ["a.sqlite", "b.sqlite"].map { try Data(contentsOf: URL(fileURLWithPath: directory.file($0))) }
        let dry = try run("a.sqlite", "sync", directory.file("b.sqlite"), "--dry-run")
        #expect(dry.status == 0 && dry.standardOutput.contains("would send 1 change(s)"))
        #expect(try ["a.sqlite", "b.sqlite"].map { try Data(contentsOf: URL(fileURLWithPath: directory.file($0))) } == before)
        let same = try run("a.sqlite", "sync", directory.file("a.sqlite"))
        #expect(same.status == 64 && same.standardError.hasPrefix("Error: ") && same.standardError.contains("are one database"))
        // A new file is made at its first commit: one path spelled twice is still one database.
        let sameNew = try CommandRunner.run(["--db", directory.file("new.sqlite"), "sync", directory.path + "/./new.sqlite", "--create"])
        #expect(sameNew.status == 64 && sameNew.standardError.contains("are one database"), "\(sameNew)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("new.sqlite")))
        let missing = try run("a.sqlite", "sync", directory.file("nothere.sqlite"), "--dry-run")
        #expect(missing.status == 1 && missing.standardError == "Error: no database at '\(directory.file("nothere.sqlite"))'; a dry run creates none\n")
        #expect(!FileManager.default.fileExists(atPath: directory.file("nothere.sqlite")))
        let grid = try run("a.sqlite", "--grid", "nope", "sync", directory.file("b.sqlite"))
        #expect(grid.status == 1 && grid.standardError.hasPrefix("Error: no grid named 'nope'"))
        // A dry run opens both databases to be read only: an older schema is not migrated.
        let old = directory.file("old.sqlite")
        _ = try GridDatabase(path: old, migrations: MigrationSet(MigrationSet.gridStore.migrations.filter { $0.version <= 13 }))
        let oldBytes = try Data(contentsOf: URL(fileURLWithPath: old))
        let older = try run("a.sqlite", "sync", old, "--dry-run")
        #expect(older.status == 1 && older.standardError == "Error: \(old) is at an older schema, and a dry run migrates nothing; "
                + "run 'gridstore --db \(old) migrate' first\n", "\(older.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: old)) == oldBytes)
    }

    @Test("grids that never synced and cannot be one (tiles and a honeycomb, keys with none in common) are refused unless asked; both sides unchanged")
    func unrelatedGrids() throws {
        #expect(try run("phone.sqlite", "--grid", "home", "toggle", "1", "-q").status == 0)
        #expect(try run("other.sqlite", "--grid", "home", "init", "--layout", "honeycomb", "--items", "7", "-q").status == 0)
        let before = try ["phone.sqlite", "other.sqlite"].map { try run($0, "--grid", "home", "show", "--format", "json").standardOutput }
        for arguments in [["sync", directory.file("other.sqlite")], ["sync", directory.file("other.sqlite"), "--dry-run"]] {
            let refused = try CommandRunner.run(["--db", directory.file("phone.sqlite")] + arguments)
            #expect(refused.status == 1 && refused.standardOutput.isEmpty && refused.standardError == "Error: grid 'home' was not synced: grid "
                    + "'home' here and in \(directory.file("other.sqlite")) never synced with each other, and cannot be one grid: it is a grid "
                    + "of tiles here and a honeycomb there; to merge them anyway give --allow-unrelated (allowingUnrelated in Swift), or sync "
                    + "one under another name\n", "\(refused)")
        }
        #expect(try ["phone.sqlite", "other.sqlite"].map { try run($0, "--grid", "home", "show", "--format", "json").standardOutput } == before)
        // Keys with none in common.
        for (database, keys) in [("a.sqlite", ["mail", "maps", "news", "notes"]), ("b.sqlite", ["chess", "go", "poker", "bridge"])] {
            for key in keys { #expect(try run(database, "--grid", "apps", "insert", "0", "--key", key, "-q").status == 0) }
        }
        let keys = try run("a.sqlite", "sync", directory.file("b.sqlite"))
        #expect(keys.status == 1 && keys.standardError.contains("cannot be one grid: each has 4 or more keyed items and no key in common"),
                "\(keys)")
        // Three keys each, none shared: two devices of one user that each added apps; merged.
        #expect(try run("a.sqlite", "--grid", "few", "insert", "0", "--key", "mail", "-q").status == 0)
        #expect(try run("b.sqlite", "--grid", "few", "insert", "0", "--key", "chess", "-q").status == 0)
        #expect(try run("a.sqlite", "--grid", "few", "sync", directory.file("b.sqlite")).status == 0)
        // Asked for: merged, and the line says how to get this side's layout back.
        let merged = try run("phone.sqlite", "sync", directory.file("other.sqlite"), "--allow-unrelated")
        #expect(merged.status == 0 && merged.standardOutput.hasSuffix("; merged with an unrelated grid: 'gridstore --db "
                                                                     + "\(directory.file("phone.sqlite")) --grid home revert --to 1' brings back the layout it had here "
                                                                     + "(a change that syncs: copy the grid first to keep both)\n"),
                "\(merged)")
        #expect(try run("phone.sqlite", "--grid", "home", "revert", "--to", "1", "-q").status == 0)
        #expect(try run("phone.sqlite", "--grid", "home", "show", "--format", "json").standardOutput.replacing(#/"revision":\d+,/#, with: "")
                == before[0].replacing(#/"revision":\d+,/#, with: ""))
        // Grids that synced once are related from then on.
        #expect(try run("phone.sqlite", "sync", directory.file("other.sqlite")).status == 0)
    }

    @Test("a bundle of the whole grid from replicas the grid never synced with, that cannot be the same grid, is refused by sync-import unless asked; the grid unchanged")
    func unrelatedBundle() throws {
        func withInput(_ database: String, _ arguments: [String], input: [UInt8]) throws -> CommandResult {
            try CommandRunner.run(["--db", directory.file(database)] + arguments, input: Data(input))
        }
        for (database, keys) in [("a.sqlite", ["mail", "maps", "news", "notes"]), ("b.sqlite", ["chess", "go", "poker", "bridge"])] {
            for key in keys { #expect(try run(database, "--grid", "apps", "insert", "0", "--key", key, "-q").status == 0) }
        }
        #expect(try run("c.sqlite", "--grid", "apps", "init", "--layout", "honeycomb", "--items", "7", "-q").status == 0)
        let before = try run("a.sqlite", "--grid", "apps", "show", "--format", "json").standardOutput
        let reasons = [("b.sqlite", "each has 4 or more keyed items and no key in common"),
                       ("c.sqlite", "it is a grid of tiles here and a honeycomb in the bundle")]
        for (other, reason) in reasons {
            let bundle = try run(other, "--grid", "apps", "sync-export", "--since", "none").standardOutputBytes
            let refused = try withInput("a.sqlite", ["--grid", "apps", "sync-import", "-"], input: bundle)
            #expect(refused.status == 65 && refused.standardError == "Error: standard input cannot be applied: grid 'apps' here and in "
                    + "the bundle never synced with each other, and cannot be one grid: \(reason); to merge them anyway give "
                    + "--allow-unrelated (allowingUnrelated in Swift)\n", "\(refused)")
            #expect(try run("a.sqlite", "--grid", "apps", "show", "--format", "json").standardOutput == before)
        }
        // Asked for: merged.
        let bundle = try run("b.sqlite", "--grid", "apps", "sync-export", "--since", "none").standardOutputBytes
        let merged = try withInput("a.sqlite", ["--grid", "apps", "sync-import", "-", "--allow-unrelated"], input: bundle)
        #expect(merged.status == 0 && merged.standardOutput.hasPrefix("grid 'apps': took "), "\(merged)")
        #expect(try run("a.sqlite", "--grid", "apps", "keys").standardOutput.contains("chess"))
        // Related from then on: a whole bundle of the grid it merged with is taken.
        #expect(try run("b.sqlite", "--grid", "apps", "insert", "0", "--key", "solitaire", "-q").status == 0)
        let later = try run("b.sqlite", "--grid", "apps", "sync-export", "--since", "none").standardOutputBytes
        #expect(try withInput("a.sqlite", ["--grid", "apps", "sync-import", "-", "-q"], input: later).status == 0)
        #expect(try run("a.sqlite", "--grid", "apps", "keys").standardOutput.contains("solitaire"))
    }

    @Test("a sync blocked by the other database's lock says which database is busy")
    func busyNamesTheDatabase() throws {
        #expect(try run("a.sqlite", "toggle", "1", "-q").status == 0)
        #expect(try run("b.sqlite", "toggle", "2", "-q").status == 0)
        let (a, b, flag) = (directory.file("a.sqlite"), directory.file("b.sqlite"), directory.file("locked"))
        // sqlite3 holds b's write lock past the busy timeout; the sync starts once it has said so.
        let result = try CommandRunner.shell("""
            set -m
            ( echo 'BEGIN IMMEDIATE;'; echo "SELECT 'locked';"; sleep 30 ) 2>/dev/null | sqlite3 \(b) > \(flag) 2>/dev/null &
            until grep -q locked \(flag) 2>/dev/null; do sleep 0.05; done
            "$GRIDSTORE" --db \(a) sync \(b); status=$?
            kill -KILL %1; exit $status
            """)
        #expect(result.status == 1 && result.standardError == "Error: grid 'default' was not synced: \(b) is busy: another process or "
                + "connection kept it locked for longer than gridstore waits; try again\n", "\(result)")
    }

    @Test("a mistyped database name, either side, makes no file and copies nothing; --create starts a new device")
    func seedingIsExplicit() throws {
        #expect(try run("phone.sqlite", "toggle", "1", "-q").status == 0)
        let typo = try run("phone.sqlite", "sync", directory.file("tabelt.sqlite"))
        #expect(typo.status == 1 && typo.standardError == "Error: no database at '\(directory.file("tabelt.sqlite"))' (<other-db>); "
                + "to start a new device from the other one, give --create\n", "\(typo.standardError)")
        let mine = try run("phnoe.sqlite", "sync", directory.file("phone.sqlite"))
        #expect(mine.status == 1 && mine.standardError.hasPrefix("Error: no database at '\(directory.file("phnoe.sqlite"))' (--db); "))
        #expect(!FileManager.default.fileExists(atPath: directory.file("tabelt.sqlite"))
                && !FileManager.default.fileExists(atPath: directory.file("phnoe.sqlite")))
        let created = try run("phone.sqlite", "sync", directory.file("tablet.sqlite"), "--create")
        #expect(created.status == 0 && created.standardError == "Note: created a new database at '\(directory.file("tablet.sqlite"))', "
                + "which <other-db> named\n", "\(created.standardError)")
        #expect(try run("tablet.sqlite", "get", "1").standardOutput == "middle\n")
        let both = try run("a.sqlite", "sync", directory.file("b.sqlite"), "--create", "--dry-run")
        #expect(both.status == 64 && both.standardError.hasPrefix("Error: give --dry-run or --create, not both"))
    }

    @Test("export of a grid that syncs carries each tile's sync id; a new device imports it and syncs as the same tiles")
    func exportCarriesIdentity() throws {
        #expect(try run("phone.sqlite", "toggle", "1", "-q").status == 0)
        #expect(try run("phone.sqlite", "sync", directory.file("hub.sqlite"), "--create").status == 0)
        #expect(try run("phone.sqlite", "insert", "0", "--size", "big", "-q").status == 0)
        #expect(try run("phone.sqlite", "sync", directory.file("hub.sqlite")).status == 0)
        let exported = try run("hub.sqlite", "export")
        #expect(exported.status == 0 && exported.standardOutput.contains("\"sync\":{\"id\":"), "\(exported)")
        try exported.standardOutput.write(toFile: directory.file("home.json"), atomically: true, encoding: .utf8)
        #expect(try run("tablet.sqlite", "import", directory.file("home.json"), "-q").status == 0)
        #expect(try run("tablet.sqlite", "toggle", "5", "-q").status == 0)
        #expect(try run("tablet.sqlite", "sync", directory.file("hub.sqlite")).status == 0)
        let hub = try run("hub.sqlite", "show", "--format", "json").standardOutput
        #expect(try run("tablet.sqlite", "show", "--format", "json").standardOutput == hub)
        #expect(hub.components(separatedBy: "\"index\":").count - 1 == 13, "\(hub)")
        // A document whose ids do not fit is refused in one line, and no file is made.
        let broken = exported.standardOutput.replacingOccurrences(of: "\"sync\":{\"id\":\"", with: "\"sync\":{\"id\":\"z")
        try broken.write(toFile: directory.file("broken.json"), atomically: true, encoding: .utf8)
        let refused = try run("laptop.sqlite", "import", directory.file("broken.json"))
        #expect(refused.status != 0 && refused.standardError.split(separator: "\n").count == 1
                && refused.standardError.contains("is not a sync id"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("laptop.sqlite")))
    }
}

/// `gridstore sync-cursor`, `sync-export` and `sync-import`.
@Suite("gridstore sync bundles")
struct SyncBundleCommandTests {
    let directory = TemporaryDirectory()

    func run(_ database: String, _ arguments: [String], input: [UInt8]? = nil) throws -> CommandResult {
        try CommandRunner.run(["--db", directory.file(database)] + arguments, input: input.map { Data($0) })
    }

    @Test("a bundle made for a state this database no longer has (restored from a backup in place) says how many tiles it could not take; a sync brings the rest")
    func bundleForLostState() throws {
        #expect(try run("tablet.sqlite", ["toggle", "0", "-q"]).status == 0)
        #expect(try run("tablet.sqlite", ["sync", directory.file("hub.sqlite"), "--create"]).status == 0)
        let (tablet, backup) = (directory.file("tablet.sqlite"), directory.file("backup.sqlite"))
        #expect(try CommandRunner.shell("cp \(tablet) \(backup)").status == 0)
        // The hub inserts a tile the tablet takes; the hub then deletes it and resizes another.
        #expect(try run("hub.sqlite", ["insert", "2", "--size", "big", "-q"]).status == 0)
        #expect(try run("tablet.sqlite", ["sync", directory.file("hub.sqlite")]).status == 0)
        let cursor = try run("tablet.sqlite", ["sync-cursor"]).standardOutput.trimmingCharacters(in: .newlines)
        #expect(try run("hub.sqlite", ["delete", "2", "-q"]).status == 0)
        #expect(try run("hub.sqlite", ["set", "5", "middle", "-q"]).status == 0)
        let bundle = try run("hub.sqlite", ["sync-export", "--since", cursor])
        // Restored in place: the same file, its content from before the tile was inserted.
        #expect(try CommandRunner.shell("cp \(backup) \(tablet)").status == 0)
        let applied = try run("tablet.sqlite", ["sync-import", "-"], input: bundle.standardOutputBytes)
        #expect(applied.status == 0 && applied.standardOutput.hasSuffix("; 1 tile(s) or section(s) it changes are not in this database, "
                                                                        + "which no longer has the state the bundle was made for (a restore "
                                                                        + "from a backup): a sync with the database it came from brings them\n"),
                "\(applied.standardOutput)")
        #expect(try run("tablet.sqlite", ["get", "5"]).standardOutput.hasPrefix("middle"))
        #expect(try run("tablet.sqlite", ["sync", directory.file("hub.sqlite")]).status == 0)
        // The same grid (the revisions differ: the tablet took the tile's deletion with no visible change).
        func shown(_ database: String) throws -> String {
            try run(database, ["show", "--format", "json"]).standardOutput.replacing(/"revision":\d+,/, with: "")
        }
        #expect(try shown("tablet.sqlite") == shown("hub.sqlite"))
    }

    @Test("a bundle exported since the peer's cursor brings it up to date; applied again it takes nothing")
    func roundTrip() throws {
        #expect(try run("a.sqlite", ["toggle", "3", "-q"]).status == 0)
        #expect(try run("b.sqlite", ["toggle", "4", "-q"]).status == 0)
        let cursor = try run("b.sqlite", ["sync-cursor"]).standardOutput.trimmingCharacters(in: .newlines)
        let bundle = try run("a.sqlite", ["sync-export", "--since", cursor])
        #expect(bundle.status == 0 && bundle.standardOutputBytes.starts(with: [0, 0x47, 0x53, 0x42, 2]))
        let applied = try run("b.sqlite", ["sync-import", "-"], input: bundle.standardOutputBytes)
        #expect(applied.standardOutput == "grid 'default': took 1 change(s) (revision 1 → 2)\n")
        #expect(try run("b.sqlite", ["sync-import", "-"], input: bundle.standardOutputBytes).standardOutput
                == "grid 'default': took 0 change(s)\n")
        // Format 1, JSON, for people: sync-show prints a binary bundle as sync-export --format json writes it.
        let json = try run("a.sqlite", ["sync-export", "--since", cursor, "--format", "json"])
        #expect(json.status == 0 && json.standardOutput.hasPrefix("{\"gridstore-sync\":1,") && json.standardOutput.hasSuffix("}}\n"))
        let shown = try CommandRunner.run(["sync-show", "-"], input: Data(bundle.standardOutputBytes))
        #expect(shown.status == 0 && shown.standardOutput == json.standardOutput && shown.standardError.isEmpty)
        #expect(try run("b.sqlite", ["sync-import", "-"], input: Array(json.standardOutput.utf8)).standardOutput
                == "grid 'default': took 0 change(s)\n")
        // A binary bundle is not written to a terminal, and nothing is recorded.
        let terminal = try CommandRunner.shell("script -qec '\"$GRIDSTORE\" --db \(directory.file("a.sqlite")) sync-export' /dev/null")
        #expect(terminal.status == 64 && terminal.standardOutput.contains("Error: a sync bundle is binary and standard output is a terminal"),
                "\(terminal)")
    }

    @Test("sync-export whose output fails does not say nothing was changed: it may have recorded the grid's changes for sync (exit 3)")
    func exportToFullDisk() throws {
        #expect(try run("a.sqlite", ["toggle", "3", "-q"]).status == 0)
        let script = "\"$GRIDSTORE\" --db \(directory.file("a.sqlite")) sync-export > /dev/full"
        for _ in 0..<2 {
            let result = try CommandRunner.shell(script)
            #expect(result.status == 3 && result.standardError == "Error: the change was made and committed (any changes of grid 'default' "
                    + "since its last sync were recorded for sync), but cannot write standard output: No space left on device\n", "\(result)")
        }
    }

    @Test("a new device starts from a bundle: sync-import makes the file and the grid; a refused bundle makes no file")
    func newDevice() throws {
        #expect(try run("a.sqlite", ["toggle", "3", "-q"]).status == 0)
        let bundle = try run("a.sqlite", ["sync-export"]).standardOutputBytes
        let damaged = Array(bundle.dropLast())
        let refused = try run("new.sqlite", ["sync-import", "-"], input: damaged)
        #expect(refused.status == 65 && refused.standardError.hasPrefix("Error: standard input cannot be applied: ")
                && refused.standardError.split(separator: "\n").count == 1, "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("new.sqlite")))
        let applied = try run("new.sqlite", ["sync-import", "-"], input: bundle)
        #expect(applied.status == 0 && applied.standardOutput.hasPrefix("grid 'default': took ")
                && applied.standardOutput.hasSuffix(" change(s) (a new grid at revision 0)\n"), "\(applied)")
        #expect(try run("new.sqlite", ["get", "3"]).standardOutput == run("a.sqlite", ["get", "3"]).standardOutput)
        // A bundle from the past that the clock check refuses: no file either.
        let shown = try CommandRunner.run(["sync-show", "-"], input: Data(bundle)).standardOutput
        let future = (Int64(Date().timeIntervalSince1970 * 1000) + 86_400_000) << 16
        let ahead = shown.replacing(#/"versions":\[\[0,\d+\]\]/#, with: "\"versions\":[[0,\(future)]]")
            .replacing(#/"middle",\d+,/#, with: "\"middle\",\(future),")
        let late = try run("later.sqlite", ["sync-import", "-"], input: Array(ahead.utf8))
        #expect(late.status == 65 && late.standardError.contains("ahead of this database's clock"), "\(late.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("later.sqlite")))
    }

    @Test("a bundle refused is one line, exit 65, and no file changes; a bad cursor is a usage error")
    func refusals() throws {
        #expect(try run("a.sqlite", ["toggle", "3", "-q"]).status == 0)
        let bundle = try run("a.sqlite", ["sync-export", "--format", "json"]).standardOutput
        let before = try Data(contentsOf: URL(fileURLWithPath: directory.file("a.sqlite")))
        for (input, message) in [
            ("{\"x\":1}", "not a gridstore sync bundle"),
            (bundle.replacingOccurrences(of: "\"gridstore-sync\":1", with: "\"gridstore-sync\":9"), "newer than the format 2"),
            (bundle.replacingOccurrences(of: "\"middle\"", with: "\"enormous\""), "is not one of small, middle, big"),
        ] {
            let result = try run("a.sqlite", ["--grid", "default", "sync-import", "-"], input: Array(input.utf8))
            #expect(result.status == 65 && result.standardError.hasPrefix("Error: standard input cannot be applied: ")
                    && result.standardError.contains(message) && result.standardError.split(separator: "\n").count == 1,
                    "\(result.standardError)")
        }
        let other = try run("c.sqlite", ["--grid", "other", "sync-import", "-"], input: Array(bundle.utf8))
        #expect(other.status == 65 && other.standardError.contains("give --grid 'default'"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("c.sqlite")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file("a.sqlite"))) == before)
        let cursor = try run("a.sqlite", ["sync-export", "--since", "nonsense"])
        #expect(cursor.status == 64 && cursor.standardError.hasPrefix("Error: 'nonsense' is not a cursor"))
    }
}

extension SyncCommandTests {
    @Test("a grid whose name is stored in another Unicode form (a hand edit, an older gridstore) is refused by sync in one line of its own, not left out; the other grids sync")
    func nameInAnotherForm() throws {
        #expect(try run("here.sqlite", "--grid", "caf\u{E9}", "init", "--items", "3", "-q").status == 0)
        #expect(try run("here.sqlite", "--grid", "x", "init", "--items", "7", "-q").status == 0)
        // "café" with a combining accent: Swift's == takes it for the grid above, a lookup by bytes does not.
        let connection = try SQLiteConnection(path: directory.file("here.sqlite"), mode: .readWrite)
        try connection.execute("UPDATE grids SET name = 'cafe' || char(769) WHERE name = 'x'")
        connection.close()
        let synced = try run("here.sqlite", "sync", directory.file("new.sqlite"), "--create")
        #expect(synced.status == 1)
        #expect(synced.standardOutput.hasPrefix("grid 'caf\u{E9}': sent 4 change(s)"), "\(synced)")
        #expect(synced.standardError == "Error: grid 'cafe\u{301}' was not synced: the stored grid is inconsistent: grid 'cafe\u{301}' in "
                + "\(directory.file("here.sqlite")) has a name not in the composed form (NFC) gridstore writes names in, which no call reaches\n")
        #expect(try Grid.list(in: GridDatabase(path: directory.file("new.sqlite"))).map { $0.name.unicodeScalars.count } == [4])
    }
}

extension SyncCommandTests {
    @Test("a grid's sync started anew (exported, dropped, imported again, as a refusal at a limit says) takes its old place on its peers, the deleted tiles' records gone on both sides")
    func syncStartedAnew() throws {
        let there = directory.file("there.sqlite")
        #expect(try run("here.sqlite", "items", "40", "-q").status == 0)
        #expect(try run("here.sqlite", "sync", there, "--create").status == 0)
        #expect(try run("here.sqlite", "items", "5", "-q").status == 0)
        #expect(try run("here.sqlite", "toggle", "2", "-q").status == 0)
        #expect(try run("here.sqlite", "sync", there).status == 0)
        func registers(_ path: String) throws -> Int {
            try SQLiteConnection(path: path).fetchOne("SELECT count(*) FROM sync_registers") { $0.int(at: 0) } ?? -1
        }
        #expect(try registers(directory.file("here.sqlite")) > 40 && registers(there) > 40)

        let document = try run("here.sqlite", "export")
        try Data(document.standardOutput.utf8).write(to: URL(fileURLWithPath: directory.file("grid.json")))
        #expect(try run("here.sqlite", "drop", "default").status == 0)
        #expect(try run("here.sqlite", "import", directory.file("grid.json")).status == 0)
        let synced = try run("here.sqlite", "sync", there)
        #expect(synced.status == 0 && synced.standardOutput.contains("was dropped first"), "\(synced)")
        func tiles(_ database: String) throws -> String {
            try run(database, "show", "--format", "json").standardOutput.split(separator: "\n").dropFirst().joined(separator: "\n")
        }
        #expect(try tiles("there.sqlite") == tiles("here.sqlite"))
        #expect(try run("there.sqlite", "get", "2").standardOutput == "middle\n")
        // Five tiles' registers (place, size of one, and the grid's own), not forty.
        #expect(try registers(directory.file("here.sqlite")) < 20 && registers(there) < 20)
        #expect(try run("there.sqlite", "toggle", "3", "-q").status == 0)
        #expect(try run("there.sqlite", "sync", directory.file("here.sqlite")).status == 0)
        #expect(try run("here.sqlite", "get", "3").standardOutput == "middle\n")
    }
}
