import Foundation
import Testing

/// File permissions, checked as an unprivileged user (root ignores them): the suite runs
/// gridstore through `setpriv` as `nobody` when it runs as root.
@Suite("gridstore and file permissions")
struct PermissionTests {
    /// Runs `gridstore` as `nobody` (when root) from a copy anyone may execute.
    func runUnprivileged(_ arguments: [String], in directory: TemporaryDirectory) throws -> CommandResult {
        let copy = directory.file("gridstore-copy")
        if !FileManager.default.fileExists(atPath: copy) {
            try CommandRunner.copyExecutable(to: copy)
        }
        let environment = ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"]
        let process = getuid() == 0
            ? try ChildProcess(program: "/usr/bin/setpriv", arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", copy] + arguments,
                               environment: environment)
            : try ChildProcess(program: copy, arguments: arguments, environment: environment)
        return CommandRunner.finish(process)
    }

    /// A database made by the unprivileged user in `directory`, which anyone may change.
    func initializedDatabase(in directory: TemporaryDirectory) throws -> String {
        chmod(directory.path, 0o777)
        let path = directory.file("grids.sqlite")
        #expect(try runUnprivileged(["--db", path, "init"], in: directory).status == 0)
        return path
    }

    @Test("a database in a read-only folder without its -wal and -shm files gives a clear error (regression)")
    func readOnlyFolderWithoutLogFiles() throws {
        let directory = TemporaryDirectory()
        chmod(directory.path, 0o777)
        let folder = directory.file("locked")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        chmod(folder, 0o777)
        let path = folder + "/grids.sqlite"
        #expect(try runUnprivileged(["--db", path, "init"], in: directory).status == 0)
        for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
        chmod(folder, 0o555)
        defer { chmod(folder, 0o777) }
        let before = FileManager.default.contents(atPath: path)
        for command in [["toggle", "1"], ["show"]] {
            let result = try runUnprivileged(["--db", path] + command, in: directory)
            #expect(result.status == 1)
            #expect(result.standardError == "Error: cannot open \(path): its write-ahead log files (\(path)-wal and \(path)-shm) "
                    + "cannot be created or opened; make its folder writable, or the -wal and -shm files if they exist\n")
        }
        #expect(FileManager.default.contents(atPath: path) == before)
    }

    @Test("a database the user may not read is refused with the system's reason, and left as it was")
    func unreadableFile() throws {
        let directory = TemporaryDirectory()
        let path = try initializedDatabase(in: directory)
        chmod(path, 0o000)
        defer { chmod(path, 0o644) }
        let before = FileManager.default.contents(atPath: path)
        for command in [["show"], ["toggle", "1"]] {
            let result = try runUnprivileged(["--db", path] + command, in: directory)
            #expect(result.status == 1)
            #expect(result.standardError == "Error: cannot open \(path): Permission denied\n", "\(command)")
        }
        #expect(FileManager.default.contents(atPath: path) == before)
    }

    @Test("a read-only database can be shown but not changed")
    func readOnlyFile() throws {
        let directory = TemporaryDirectory()
        let path = try initializedDatabase(in: directory)
        chmod(path, 0o444)
        let before = FileManager.default.contents(atPath: path)
        #expect(try runUnprivileged(["--db", path, "show"], in: directory).status == 0)
        let toggle = try runUnprivileged(["--db", path, "toggle", "1"], in: directory)
        #expect(toggle.status == 1)
        #expect(toggle.standardError == "Error: \(path) is read-only; changes need write access to the file and its folder\n")
        #expect(FileManager.default.contents(atPath: path) == before)
    }
}
