import CSQLite
import GridStore

/// The marks a database file carries, outside its contents, of the latest send of its own
/// changes (a sync, an exported bundle): the extended attribute `user.gridstore.sent`.
///
/// A backup restored over the file (`cp backup grids.sqlite`, `sqlite3 .restore`) brings back
/// older contents but leaves the file's attributes, so the database it brings back no longer
/// passes for the one that sent since (``StoredReplicaRow/isMinted(for:)``) and syncs as a copy:
/// no two databases make changes under one replica id. The database records the token of its
/// latest send with its replica id (`replica.file_identity`, after `#`); the file carries that
/// token, or two while a send commits (the one before and the one committing), so a send that
/// rolls back or a process killed in between leaves a pair the database still matches, until
/// the next write transaction narrows it.
///
/// A file system without extended attributes carries none, and its databases are told apart
/// as before (docs/sync.md, *Replicas, copies and backups*).
enum SendMark {
    static let attribute = "user.gridstore.sent"

    /// The tokens the file at `path` carries; `nil` when it carries none that gridstore writes
    /// (no attribute, a file system without them, or one written by hand).
    static func tokens(of path: String) -> [String]? {
        value(of: path).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    /// The attribute's value when it holds tokens gridstore writes: one, or two separated by a comma.
    static func value(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 80)
        let length = csqlite_file_attribute(path, attribute, &buffer, UInt(buffer.count))
        guard length > 0, length <= buffer.count else { return nil }
        let text = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let tokens = text.split(separator: ",", omittingEmptySubsequences: false)
        guard (1...2).contains(tokens.count), tokens.allSatisfy(isToken) else { return nil }
        return text
    }

    /// Whether `text` is a token gridstore writes: 32 lowercase hexadecimal digits, or `-` for
    /// a database that recorded no send.
    static func isToken(_ text: some StringProtocol) -> Bool {
        text == StoredReplicaRow.noSend
            || text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Sets the tokens the file carries, written through to the disk when `durable`; whether it could.
    static func write(_ tokens: [String], to path: String, durable: Bool = true) -> Bool {
        // Not `joined(separator:)`, whose generic metadata would cost a toggle more than the rest.
        let value = tokens.dropFirst().reduce(tokens.first ?? "") { $0 + "," + $1 }
        return value.withCString { csqlite_set_file_attribute(path, attribute, $0, UInt(value.utf8.count), durable ? 1 : 0) } == 0
    }

    /// Removes the attribute from the file; whether it carries none now.
    static func remove(from path: String) -> Bool {
        csqlite_remove_file_attribute(path, attribute) == 0 || tokens(of: path) == nil
    }
}
