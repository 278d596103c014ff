import Foundation
import Testing

/// `gridstore drop` of a synced grid, and a sync stopped by Ctrl-C.
@Suite("gridstore drop and sync, stopped or carried")
struct SyncDropCommandTests {
    let directory = TemporaryDirectory()

    func run(_ database: String, _ arguments: String...) throws -> CommandResult {
        try CommandRunner.run(["--db", directory.file(database)] + arguments, environment: ["COLUMNS": "100"])
    }

    @Test("drop of a synced grid says it reaches the peers; the sync says where it was dropped, as text and JSON; --keep-on-peers brings it back")
    func dropCarried() throws {
        #expect(try run("phone.sqlite", "--grid", "old", "init", "--items", "3", "-q").status == 0)
        #expect(try run("phone.sqlite", "sync", directory.file("tablet.sqlite"), "--create").status == 0)
        let dropped = try run("phone.sqlite", "drop", "old")
        #expect(dropped.status == 0 && dropped.standardOutput == "dropped grid 'old'; the next sync drops it on its peers too\n", "\(dropped)")
        let dry = try run("phone.sqlite", "sync", directory.file("tablet.sqlite"), "--dry-run")
        #expect(dry.standardOutput == "grid 'old': would be dropped in \(directory.file("tablet.sqlite")), as a drop of it knew every "
                + "change it held\n", "\(dry)")
        let synced = try run("phone.sqlite", "sync", directory.file("tablet.sqlite"), "--format", "json")
        let json = try JSONSerialization.jsonObject(with: Data(synced.standardOutput.utf8)) as? [String: Any]
        let grid = (json?["grids"] as? [[String: Any]])?.first
        #expect(grid?["grid"] as? String == "old" && grid?["drop"] as? String == "there", "\(synced)")
        #expect(try run("tablet.sqlite", "grids", "--names").standardOutput == "")
        // Made again, and dropped here alone: the next sync brings it back from the peer.
        #expect(try run("tablet.sqlite", "--grid", "old", "init", "--items", "2", "-q").status == 0)
        #expect(try run("tablet.sqlite", "sync", directory.file("phone.sqlite")).status == 0)
        let alone = try run("phone.sqlite", "drop", "old", "--keep-on-peers")
        #expect(alone.standardOutput == "dropped grid 'old' here alone; the next sync brings it back from a peer that has it\n")
        let back = try run("phone.sqlite", "sync", directory.file("tablet.sqlite"))
        #expect(back.standardOutput.hasPrefix("grid 'old': sent 0 change(s) to ") && back.standardOutput.contains("(a new grid at revision"))
        #expect(try run("phone.sqlite", "grids", "--names").standardOutput == "old\n")
    }

    @Test("a sync refused before it synced anything (this side is not a database) leaves no file it made for the other side")
    func refusedLeavesNoFile() throws {
        try Data(repeating: 0x6a, count: 100).write(to: URL(fileURLWithPath: directory.file("notadb.txt")))
        let refused = try run("notadb.txt", "sync", directory.file("new.sqlite"), "--create")
        #expect(refused.status != 0 && refused.standardError.split(separator: "\n").count == 1, "\(refused)")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("new.sqlite") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test("Ctrl-C during a sync that makes a new device: one line, exit 130, the new file removed, the other database whole; syncing again completes it")
    func interruptedSync() throws {
        #expect(try run("big.sqlite", "init", "--items", "50000", "-q").status == 0)
        #expect(try run("big.sqlite", "toggle", "1", "-q").status == 0)
        let made = directory.file("new.sqlite")
        let process = try CommandRunner.start(["--db", directory.file("big.sqlite"), "sync", made, "--create"])
        // The file appears once the sync has begun making it.
        while process.isRunning && !FileManager.default.fileExists(atPath: made) { usleep(1_000) }
        kill(process.pid, SIGINT)
        let stopped = CommandRunner.finish(process)
        #expect(stopped.status == 130 && stopped.standardOutput.isEmpty, "\(stopped)")
        #expect(stopped.standardError == "gridstore: sync interrupted; '\(made)', which it made, is removed; each grid is as before or "
                + "after its sync on each side, and syncing again completes it\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("new.sqlite") }
        #expect(left.isEmpty, "\(left)")
        #expect(try run("big.sqlite", "check").status == 0)
        #expect(try run("big.sqlite", "sync", made, "--create").status == 0)
        #expect(try run("new.sqlite", "get", "1").standardOutput == "middle\n")
    }
}
