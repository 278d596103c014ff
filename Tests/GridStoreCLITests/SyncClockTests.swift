import Foundation
import Testing
import TestSupport

/// Sync with devices whose clocks are wrong, each gridstore run under `faketime`: a fast
/// device never stops another, a slow one always syncs, and a PostgreSQL hub judges every
/// device by the server's clock.
@Suite("gridstore sync with wrong clocks", .enabled(if: Faketime.shouldTest))
struct SyncClockTests {
    let directory = TemporaryDirectory()

    /// Runs gridstore on `database` with a clock `offset` off (`+2h`, `-10m`, `+365d`), or the machine's.
    func run(_ database: String, _ arguments: [String], clock offset: String? = nil) throws -> CommandResult {
        let location = database.hasPrefix("postgresql://") ? database : directory.file(database)
        let command = (["\"$GRIDSTORE\"", "--db", "'\(location)'"] + arguments.map { "'\($0)'" }).joined(separator: " ")
        return try CommandRunner.shell(offset.map { "faketime -f '\($0)' \(command)" } ?? command)
    }

    /// The grid's JSON document without its revision, which differs between databases.
    func layout(_ database: String) throws -> String {
        try run(database, ["show", "--format", "json"]).standardOutput.replacing(#/"revision":\d+,/#, with: "")
    }

    func sync(_ database: String, with other: String, clock offset: String? = nil) throws -> CommandResult {
        try run(database, ["sync", other.hasPrefix("postgresql://") ? other : directory.file(other)], clock: offset)
    }

    @Test("a device hours or a year fast syncs with a file hub, and every device with a correct or slow clock still syncs with it",
          arguments: ["+2h", "+365d"])
    func fastDeviceThroughAFileHub(offset: String) throws {
        #expect(try run("hub.sqlite", ["toggle", "0", "-q"]).status == 0)
        for device in ["fast.sqlite", "right.sqlite", "slow.sqlite"] {
            #expect(try run(device, ["sync", directory.file("hub.sqlite"), "--create"]).status == 0)
        }
        // The fast device's change reaches the hub: its own run judges it by its own clock.
        #expect(try run("fast.sqlite", ["set", "2", "middle", "-q"], clock: offset).status == 0)
        #expect(try sync("fast.sqlite", with: "hub.sqlite", clock: offset).status == 0)
        // The hub still answers, and the others sync with it; a change made after seeing the
        // fast one replaces it everywhere, though its stamp is earlier.
        #expect(try run("hub.sqlite", ["conflicts"]).standardOutput == "no conflicts in grid 'default'\n")
        #expect(try run("hub.sqlite", ["sync-cursor"]).status == 0)
        let right = try sync("right.sqlite", with: "hub.sqlite")
        #expect(right.status == 0 && right.standardError.isEmpty, "\(right)")
        #expect(try run("right.sqlite", ["get", "2"]).standardOutput == "middle\n")
        #expect(try run("right.sqlite", ["set", "2", "big", "-q"]).status == 0)
        #expect(try sync("right.sqlite", with: "hub.sqlite").status == 0)
        let slow = try sync("slow.sqlite", with: "hub.sqlite", clock: "-10m")
        #expect(slow.status == 0 && slow.standardError.isEmpty, "\(slow)")
        #expect(try run("slow.sqlite", ["get", "2"]).standardOutput == "big\n")
        // The slow device, having synced, changes and syncs again.
        #expect(try run("slow.sqlite", ["set", "3", "big", "-q"], clock: "-10m").status == 0)
        let again = try sync("slow.sqlite", with: "hub.sqlite", clock: "-10m")
        #expect(again.status == 0 && again.standardError.isEmpty, "\(again)")
        // The fast device, its clock put right, takes everything and its later changes sync.
        let mended = try sync("fast.sqlite", with: "hub.sqlite")
        #expect(mended.status == 0 && mended.standardError.isEmpty, "\(mended)")
        #expect(try run("fast.sqlite", ["set", "4", "big", "-q"]).status == 0)
        #expect(try sync("fast.sqlite", with: "hub.sqlite").status == 0)
        #expect(try sync("right.sqlite", with: "hub.sqlite").status == 0)
        #expect(try sync("slow.sqlite", with: "hub.sqlite", clock: "-10m").status == 0)
        let shown = try ["fast.sqlite", "right.sqlite", "slow.sqlite", "hub.sqlite"].map(layout)
        #expect(Set(shown).count == 1, "\(shown)")
        #expect(try run("right.sqlite", ["get", "2"]).standardOutput == "big\n" && run("right.sqlite", ["get", "4"]).standardOutput == "big\n")
    }

    @Test("once a year-fast device's change reached everyone, the later of two concurrent changes on correct clocks still wins")
    func laterChangeStillWins() throws {
        #expect(try run("hub.sqlite", ["toggle", "0", "-q"]).status == 0)
        for device in ["fast.sqlite", "x.sqlite", "y.sqlite"] {
            #expect(try run(device, ["sync", directory.file("hub.sqlite"), "--create"]).status == 0)
        }
        #expect(try run("fast.sqlite", ["set", "5", "big", "-q"], clock: "+365d").status == 0)
        #expect(try sync("fast.sqlite", with: "hub.sqlite", clock: "+365d").status == 0)
        for device in ["x.sqlite", "y.sqlite"] { #expect(try sync(device, with: "hub.sqlite").status == 0) }
        // y, then x a moment later, each without seeing the other's change.
        #expect(try run("y.sqlite", ["set", "2", "big", "-q"]).status == 0)
        let madeAt = Int64(Date().timeIntervalSince1970 * 1000)
        while Int64(Date().timeIntervalSince1970 * 1000) <= madeAt + 5 {}
        #expect(try run("x.sqlite", ["set", "2", "middle", "-q"]).status == 0)
        for device in ["y.sqlite", "x.sqlite", "y.sqlite"] { #expect(try sync(device, with: "hub.sqlite").status == 0) }
        for database in ["x.sqlite", "y.sqlite", "hub.sqlite"] {
            #expect(try run(database, ["get", "2"]).standardOutput == "middle\n", "\(database)")
        }
        // A slow device takes the correct devices' changes.
        #expect(try run("y.sqlite", ["toggle", "3", "-q"]).status == 0)
        #expect(try sync("y.sqlite", with: "hub.sqlite").status == 0)
        let slow = try sync("x.sqlite", with: "hub.sqlite", clock: "-10m")
        #expect(slow.status == 0 && slow.standardError.isEmpty, "\(slow)")
    }

    @Test("check finds values a year-fast device stamped, and --repair writes them again at this database's time, for every replica")
    func checkRepairsFutureStamps() throws {
        #expect(try run("hub.sqlite", ["toggle", "0", "-q"]).status == 0)
        #expect(try run("fast.sqlite", ["sync", directory.file("hub.sqlite"), "--create"]).status == 0)
        #expect(try run("fast.sqlite", ["set", "2", "big", "-q"], clock: "+365d").status == 0)
        #expect(try sync("fast.sqlite", with: "hub.sqlite", clock: "+365d").status == 0)
        let found = try run("hub.sqlite", ["check"])
        #expect(found.status == 1 && found.standardOutput.hasPrefix("grid 'default': 1 value(s) of its sync state are stamped up to ")
                && found.standardError == "Error: 1 grid(s) have sync states with problems; 'gridstore check --repair' mends what it can\n",
                "\(found)")
        let repaired = try run("hub.sqlite", ["check", "--repair"])
        #expect(repaired.status == 0 && repaired.standardOutput.contains("grid 'default': sync state mended\n"), "\(repaired)")
        #expect(try run("hub.sqlite", ["check"]).status == 0 && run("hub.sqlite", ["get", "2"]).standardOutput == "big\n")
        // The new writes replace the old ones on the device too.
        #expect(try sync("fast.sqlite", with: "hub.sqlite").status == 0)
        #expect(try run("fast.sqlite", ["check"]).status == 0 && run("fast.sqlite", ["get", "2"]).standardOutput == "big\n")
        // A damaged sync state is found, and the line says how to get the grid again.
        #expect(try CommandRunner.shell("sqlite3 \(directory.file("hub.sqlite")) \"UPDATE sync_registers SET register = 'garbage'\"").status == 0)
        let damaged = try run("hub.sqlite", ["check", "--repair"])
        #expect(damaged.status == 1 && damaged.standardOutput.contains("grid 'default': its sync state cannot be read (")
                && damaged.standardOutput.contains("to take the grid again from a peer, drop it here alone ('gridstore drop default "
                                                   + "--keep-on-peers', on this database) and sync with the peer"), "\(damaged)")
        // Followed, the advice brings the grid back from the peer, and the peer keeps it.
        #expect(try run("hub.sqlite", ["drop", "default", "--keep-on-peers"]).status == 0)
        #expect(try sync("fast.sqlite", with: "hub.sqlite").status == 0)
        #expect(try run("hub.sqlite", ["check"]).status == 0 && run("hub.sqlite", ["get", "2"]).standardOutput == "big\n")
        #expect(try run("fast.sqlite", ["get", "2"]).standardOutput == "big\n")
    }

    @Test("a device whose clock is ten minutes slow, synced before, keeps syncing with another file")
    func slowDevice() throws {
        #expect(try run("phone.sqlite", ["toggle", "1", "-q"]).status == 0)
        #expect(try run("slow.sqlite", ["sync", directory.file("phone.sqlite"), "--create"], clock: "-10m").status == 0)
        for round in 0..<3 {
            #expect(try run("phone.sqlite", ["toggle", String(2 + round), "-q"]).status == 0)
            #expect(try run("slow.sqlite", ["toggle", String(6 + round), "-q"], clock: "-10m").status == 0)
            let result = try sync("slow.sqlite", with: "phone.sqlite", clock: "-10m")
            #expect(result.status == 0 && result.standardError.isEmpty, "round \(round): \(result)")
        }
        #expect(try layout("slow.sqlite") == layout("phone.sqlite"))
    }

    @Test("a PostgreSQL hub judges each device by the server's clock: a fast device is refused in one line, the others sync",
          .enabled(if: PostgreSQLTestServer.shouldTest))
    func fastDeviceAndAPostgreSQLHub() throws {
        let hub = try PostgreSQLTestServer.shared().makeDatabase()
        #expect(try run("right.sqlite", ["toggle", "0", "-q"]).status == 0)
        #expect(try sync("right.sqlite", with: hub).status == 0)
        #expect(try run("fast.sqlite", ["sync", hub, "--create"]).status == 0)
        #expect(try run("fast.sqlite", ["set", "2", "big", "-q"], clock: "+2h").status == 0)
        let refused = try sync("fast.sqlite", with: hub, clock: "+2h")
        #expect(refused.status == 1 && refused.standardError.hasPrefix("Error: grid 'default' was not synced: the sync bundle holds changes its sender")
                && refused.standardError.contains("minutes ahead of this database's clock")
                && refused.standardError.split(separator: "\n").count == 1, "\(refused)")
        #expect(try run(hub, ["get", "2"]).standardOutput == "small\n")
        // The device with a correct clock is not stopped by it, nor is the fast one once put right.
        #expect(try run("right.sqlite", ["toggle", "3", "-q"]).status == 0)
        let right = try sync("right.sqlite", with: hub)
        #expect(right.status == 0 && right.standardError.isEmpty, "\(right)")
        let mended = try sync("fast.sqlite", with: hub)
        #expect(mended.status == 0 && mended.standardError.isEmpty, "\(mended)")
        #expect(try run(hub, ["get", "2"]).standardOutput == "big\n" && run(hub, ["get", "3"]).standardOutput == "middle\n")
        let slow = try sync("right.sqlite", with: hub, clock: "-10m")
        #expect(slow.status == 0 && slow.standardError.isEmpty, "\(slow)")
    }
}

/// `faketime` (Debian's package of libfaketime), which runs a process with a wrong clock.
enum Faketime {
    /// Whether to run the tests that need it: where it is installed, and always with `CI` set,
    /// where a missing one fails them (CI installs it).
    static var shouldTest: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime") || ProcessInfo.processInfo.environment["CI"] != nil
    }
}
