import Foundation

/// Writes `bytes` over the file at `path` itself, as `cp backup path` does: the same inode, and
/// the attributes the file has (a backup restored in place).
public func overwriteFile(at path: String, with bytes: Data) throws {
    guard let file = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileNoSuchFile) }
    defer { try? file.close() }
    try file.truncate(atOffset: 0)
    try file.write(contentsOf: bytes)
}
