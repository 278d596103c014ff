#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite
import GridStore

/// The few file-system calls gridstore needs, on top of the C library.
enum FileSystem {
    /// What is at a path.
    enum Entry: Equatable {
        case missing
        case file(size: Int)
        case directory
        /// Anything else, in words a user knows: "a symbolic link to /x, which does not exist",
        /// "a FIFO", "a kernel pseudo-file (under /proc or /sys)".
        case other(String)
    }

    /// The kind of entry at `path`, following symbolic links.
    static func entry(at path: String) -> Entry {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let reason = errno
            if reason == ELOOP { return .other("a loop of symbolic links") }
            var link = stat()
            if lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK {
                return .other("a symbolic link to \(linkTarget(path) ?? "?"), which does not exist")
            }
            if reason == ENOENT || reason == ENOTDIR { return .missing }  // a path through a file: creating it says why
            return .other("not reachable (\(String(cString: strerror(reason))))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return isPseudoFile(path) ? .other("a kernel pseudo-file (under /proc or /sys), not a file on disk")
                                                : .file(size: Int(info.st_size))
        case S_IFDIR: return .directory
        default: return .other(kindName(info.st_mode))
        }
    }

    /// What is at `path` without following a symbolic link: `nil` for a regular file or nothing,
    /// else what it is (for the -wal and -shm files, which SQLite would follow or fail on).
    static func nonRegularEntry(at path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let kind = info.st_mode & S_IFMT
        return kind == S_IFREG ? nil : kindName(info.st_mode)
    }

    private static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFLNK: "a symbolic link"
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "not a regular file"
        }
    }

    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length >= 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `path` is under /proc or /sys, whose files only look regular.
    private static func isPseudoFile(_ path: String) -> Bool {
        guard let resolved = realpath(path, nil) else { return false }
        defer { free(resolved) }
        let text = String(cString: resolved)
        return text.hasPrefix("/proc/") || text.hasPrefix("/sys/")
    }

    /// The permission bits of the file at `path`, or `nil` when it cannot be read.
    static func permissions(at path: String) -> UInt32? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return UInt32(info.st_mode) & 0o7777
    }

    /// Creates `path` and its missing parents with `mode`, like `mkdir -p`.
    static func createDirectories(_ path: String, mode: mode_t = 0o700) throws(DatabaseFileError) {
        if path.isEmpty || entry(at: path) == .directory { return }
        let parent = parentDirectory(of: path)
        if parent != path { try createDirectories(parent, mode: mode) }
        if mkdir(path, mode) != 0 {
            guard errno == EEXIST else { throw .cannotCreate(path: path, reason: lastErrorMessage()) }
            return
        }
        // The new folder's name survives a power loss with the file made in it.
        syncDirectory(parent)
    }

    /// The folder part of `path`: `"."` for a bare file name, `"/"` for the root.
    static func parentDirectory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let parent = trimmed[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }

    /// Where `path` leads, its folder's symbolic links and `.` and `..` resolved, whether or not
    /// the file is there; `nil` when the folder is not.
    static func resolvedPath(_ path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let folder = realpath(parentDirectory(of: path), nil) else { return nil }
        defer { free(folder) }
        return String(cString: folder) + "/" + name
    }

    /// Why SQLite could not keep a database at `path`, whose file name the folder allows but
    /// not the companions SQLite makes beside it (`-journal`, `-wal`, `-shm`); `nil` when it can.
    ///
    /// Checked before anything is created: the database file alone would be made, then fail on
    /// its write-ahead log.
    static func companionNameProblem(_ path: String) -> String? {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let name = trimmed.lastIndex(of: "/").map { trimmed[trimmed.index(after: $0)...] } ?? trimmed
        let longest = "-journal"
        // The limit of the nearest folder that exists; 255 bytes, the usual one, when none answers.
        var folder = parentDirectory(of: path)
        var limit = -1
        while true {
            limit = pathconf(folder, Int32(_PC_NAME_MAX))
            let parent = parentDirectory(of: folder)
            if limit > 0 || parent == folder { break }
            folder = parent
        }
        if limit <= 0 { limit = 255 }
        let needed = name.utf8.count + longest.utf8.count
        guard needed > limit else { return nil }
        return "the file name is \(name.utf8.count) bytes, and SQLite keeps files named after it with '\(longest)' "
            + "and '-wal' added beside it, which this file system allows at most \(limit) bytes for: "
            + "use a name of at most \(limit - longest.utf8.count) bytes"
    }

    /// Creates a new, empty file with `mode`, failing if anything exists at `path`.
    static func createExclusively(_ path: String, mode: mode_t) throws(DatabaseFileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw .cannotCreate(path: path, reason: lastErrorMessage()) }
        // The mode given to open() is reduced by the umask; set it exactly.
        fchmod(descriptor, mode)
        close(descriptor)
    }

    /// Gives the file at `source` the additional name `destination`, failing if `destination` exists.
    ///
    /// - Returns: `false` when `destination` already exists.
    static func linkExclusively(_ source: String, to destination: String) throws(DatabaseFileError) -> Bool {
        if link(source, destination) == 0 { return true }
        if errno == EEXIST { return false }
        throw .cannotCreate(path: destination, reason: lastErrorMessage())
    }

    /// Flushes the file's contents to disk; `false` when it cannot be opened or flushed.
    static func syncFile(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return fsync(descriptor) == 0
    }

    /// Flushes a directory's entries to disk, so a new name in it survives a power loss.
    static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// The first `count` bytes of the file at `path` (fewer if it is shorter), or `nil` when it
    /// cannot be read; an interrupted read is tried again.
    static func leadingBytes(of path: String, count: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer in read(descriptor, buffer.baseAddress! + filled, count - filled) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        return Array(bytes.prefix(filled))
    }

    #if canImport(Glibc)
    private static let openFilesLimit = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let openFilesLimit = RLIMIT_NOFILE
    #endif

    /// What to say when `code` (an `errno`) means the process or the system has no file
    /// descriptor left; `nil` for any other code.
    static func openFilesReason(_ code: Int32) -> String? {
        if code == ENFILE { return "the system has too many files open; close some programs and try again" }
        guard code == EMFILE else { return nil }
        var limit = rlimit()
        let most = getrlimit(openFilesLimit, &limit) == 0 ? " (\(limit.rlim_cur))" : ""
        return "this process may have no more files open than its limit\(most) allows, and gridstore needs a few more; "
            + "raise it (ulimit -n) and try again"
    }

    #if canImport(Glibc)
    private static let fileSizeLimit = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
    #else
    private static let fileSizeLimit = RLIMIT_FSIZE
    #endif

    /// What to say when a write failed for `code` (an `errno`) because there is no room for it,
    /// or failed as an I/O error (`isIOError`) in a process with a file-size limit: SQLite may
    /// report another `errno` than the write's once it has tidied up. `nil` otherwise.
    static func writeFailureReason(_ code: Int32, isIOError: Bool) -> String? {
        switch code {
        case EFBIG: return "a file would grow past this process's file-size limit (ulimit -f)"
        case ENOSPC: return "the disk is full"
        case EDQUOT: return "the disk quota is used up"
        default: break
        }
        var limit = rlimit()
        guard isIOError, getrlimit(fileSizeLimit, &limit) == 0, limit.rlim_cur < rlim_t(Int64.max) else { return nil }
        return "this process has a file-size limit (ulimit -f) of \(limit.rlim_cur) bytes, which a file may have reached"
    }

    /// Whether a process other than this one holds a lock on byte `offset` of the file at
    /// `path` (as SQLite's writers lock their reserved byte), read from `/proc/locks`.
    ///
    /// The file itself is not opened: closing a descriptor drops every POSIX lock this process
    /// holds on the file, which would pull the locks from under another connection of the process.
    /// Where `/proc/locks` cannot be read (not Linux), the answer is `false`.
    static func isLockedByAnotherProcess(_ path: String, at offset: Int) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0,
              let locks = try? readWhole("/proc/locks", atMost: 1 << 20) else { return false }
        let device = UInt64(status.st_dev)
        let major = ((device >> 8) & 0xFFF) | ((device >> 32) & ~0xFFF), minor = (device & 0xFF) | ((device >> 12) & ~0xFF)
        let file = "\(String(major, radix: 16, uppercase: false).leftPadded(2)):\(String(minor, radix: 16).leftPadded(2)):\(status.st_ino)"
        let me = String(getpid())
        for line in locks.split(separator: "\n") {
            // `1: POSIX  ADVISORY  WRITE 14143 fe:00:16500390 1073741824 1073742335`, or `-> …` for a waiter.
            let fields = line.split(separator: " ")
            guard fields.count >= 8, fields[1] != "->", fields[5] == file, fields[4] != me,
                  let start = Int(fields[6]) else { continue }
            let end = fields[7] == "EOF" ? Int.max : Int(fields[7]) ?? Int.max
            if start <= offset && offset <= end { return true }
        }
        return false
    }

    /// The text of a small file, at most `limit` bytes of it.
    private static func readWhole(_ path: String, atMost limit: Int) throws -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DatabaseFileError.cannotOpen(path: path, reason: lastErrorMessage()) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < limit {
            let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            bytes += buffer[0..<got]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Removes the file at `path`, ignoring a missing one.
    static func removeFile(_ path: String) {
        unlink(path)
    }

    /// The process id, for naming temporary files.
    static var processID: Int { Int(getpid()) }

    /// The C library's message for the current `errno`.
    static func lastErrorMessage() -> String {
        String(cString: strerror(errno))
    }

    /// Removes the files in `folder` whose names are `prefix`, a process id and `-` (and any
    /// suffix), when that process no longer runs: what a process killed while creating a
    /// database left behind.
    static func removeStaleFiles(in folder: String, prefix: String) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        var stale: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard name.hasPrefix(prefix) else { continue }
            let digits = name.dropFirst(prefix.count).prefix(while: \.isNumber)
            guard let pid = pid_t(digits), pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
            stale.append(name)
        }
        for name in stale { removeFile(folder + "/" + name) }
    }
}

private extension String {
    /// The text with zeros in front up to `width` characters, as the kernel prints a device number.
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// Which file a path names: its device and inode, unchanged by renames of other paths to it.
package struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `path` now, following symbolic links; `nil` when there is none.
    package static func of(_ path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The identity a database's replica id is recorded with: `<device>:<inode>`, then
    /// `:<seconds>.<nanoseconds>` of the file's birth time where the file system records one, so
    /// that a copy put in place of the original under a freed inode number of the original's is
    /// another file; empty when there is no file at `path`.
    package static func replicaText(of path: String) -> String {
        guard let identity = of(path) else { return "" }
        var seconds: Int64 = 0, nanoseconds: UInt32 = 0
        guard csqlite_file_birth_time(path, &seconds, &nanoseconds) == 0 else { return "\(identity.device):\(identity.inode)" }
        return "\(identity.device):\(identity.inode):\(seconds).\(nanoseconds)"
    }
}
