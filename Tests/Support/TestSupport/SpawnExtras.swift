import Foundation

/// glibc functions for starting children that Swift's Glibc module does not import (they need
/// `_GNU_SOURCE`), found at run time.
enum SpawnExtras {
    /// Makes a spawned process close every descriptor above standard error (glibc 2.34's
    /// `posix_spawn_file_actions_addclosefrom_np`), as Foundation's `Process` does: a child keeps
    /// no other test's pipe, terminal or socket open.
    static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            return
        }
        _ = unsafeBitCast(address, to: CloseFrom.self)(&actions, 3)
    }

    /// Makes a spawned process start in `directory` (`posix_spawn_file_actions_addchdir_np`).
    static func changeDirectory(_ actions: inout posix_spawn_file_actions_t, to directory: String) {
        typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>) -> Int32
        let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")!
        _ = unsafeBitCast(address, to: ChangeDirectory.self)(&actions, directory)
    }

    /// A pipe whose two ends are close-on-exec from the start (`pipe2` with `O_CLOEXEC`): made
    /// with `pipe` and then marked, a child another test starts in between would keep an end
    /// open, and the reader would wait for that child's end.
    static func closeOnExecPipe() throws -> (read: Int32, write: Int32) {
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
        let pipe2 = unsafeBitCast(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2")!, to: Pipe2.self)
        var ends: [Int32] = [-1, -1]
        guard pipe2(&ends, O_CLOEXEC) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return (ends[0], ends[1])
    }
}
