import CSQLite
import GridStore

/// The mark a database file carries, outside its contents, of the latest send of its own
/// changes (a sync, an exported bundle): the extended attribute `user.gridstore.sent`.
///
/// A backup restored over the file (`cp backup grids.sqlite`, `sqlite3 .restore`) brings back
/// older contents but leaves the file's attributes, so the database it brings back no longer
/// passes for the one that sent since (``StoredReplicaRow/isMinted(for:)``) and syncs as a copy:
/// no two databases make changes under one replica id. The database records the token of its
/// latest send with its replica id (`replica.file_identity`, after `#`); the file takes the
/// token, written through to the disk, just before the send's transaction commits
/// (``SQLiteGridTransaction/markSend()``): a send that rolls back leaves the file as it was, and
/// only a crash or a failed commit in between leaves a database that takes itself for a copy.
///
/// A file system without extended attributes carries none, and its databases are told apart
/// as before (docs/sync.md, *Replicas, copies and backups*).
enum SendMark {
    static let attribute = "user.gridstore.sent"

    /// The token the file at `path` carries; `nil` when it carries none that gridstore writes
    /// (no attribute, a file system without them, or one written by hand).
    static func token(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 40)
        let length = csqlite_file_attribute(path, attribute, &buffer, UInt(buffer.count))
        guard length > 0, length <= buffer.count else { return nil }
        let text = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return isToken(text) ? text : nil
    }

    /// Whether `text` is a token gridstore writes: 32 lowercase hexadecimal digits, or `-` for
    /// a database that recorded no send.
    static func isToken(_ text: String) -> Bool {
        text == StoredReplicaRow.noSend
            || text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Sets the token the file carries, written through to the disk; whether it could.
    static func write(_ token: String, to path: String) -> Bool {
        token.withCString { csqlite_set_file_attribute(path, attribute, $0, UInt(token.utf8.count)) } == 0
    }

    /// Removes the attribute from the file; whether it carries none now.
    static func remove(from path: String) -> Bool {
        csqlite_remove_file_attribute(path, attribute) == 0 || token(of: path) == nil
    }
}
