/// Why a sync, or a bundle, was refused. A refused bundle changes nothing.
public struct SyncError: Error, Codable, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of refusal.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// The bundle is not JSON, or not a sync bundle, or holds a value gridstore refuses.
        case malformed
        /// The bundle is in a format newer than this gridstore reads.
        case newerFormat
        /// The bundle is larger than gridstore reads, or holds more than a grid may.
        case tooLarge
        /// The bundle holds a change stamped further ahead of this machine's clock than
        /// ``HybridClock/maximumDrift`` allows: the sender's clock is wrong.
        case clockAhead
        /// The bundle holds changes stamped as this database's own that it never made: it comes
        /// from a copy of this database, or was forged.
        case forged
        /// The bundle is for another grid than the one it was applied to.
        case wrongGrid
        /// Both sides of a sync are one database.
        case sameDatabase
        /// The database cannot take part in sync (a PostgreSQL database, for now).
        case unsupported
        /// The two grids never synced with each other and cannot be one grid (one a honeycomb
        /// and the other tiles, or four or more keys each with none in common); merged only when asked.
        case unrelated
        /// The grid was dropped here, and the bundle holds changes made since, but not the whole
        /// grid: a bundle since `none` brings it back (docs/sync.md, "Dropping a grid").
        case dropped
    }

    /// The kind of refusal.
    public let kind: Kind
    /// What was refused and why, in one line.
    public let message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// Text a bundle holds, as a refusal quotes it: its first 40 characters on one line, every
    /// control character (a line break, a bidirectional override) shown as `?`.
    static func excerpt(_ text: some StringProtocol) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(40).map { GridLimits.isControlCharacter($0) ? "?" : $0 }))
    }

    /// Why a bundle's grid name or item key cannot be one, quoting it as ``excerpt(_:)`` does;
    /// `nil` when it can.
    static func problem(name: String) -> String? {
        do { try GridLimits.validate(name: name) } catch {
            if case .invalidName(_, let reason) = error { return "the grid's name '\(excerpt(name))' is refused: \(reason)" }
        }
        return nil
    }

    static func problem(replicaName name: String) -> String? {
        do { try GridLimits.validate(replicaName: name) } catch {
            if case .invalidReplicaName(_, let reason) = error { return "a database's name '\(excerpt(name))' is refused: \(reason)" }
        }
        return GridLimits.canonical(name).utf8.elementsEqual(name.utf8) ? nil : "a database's name is not in its canonical form (NFC)"
    }

    static func problem(key: String) -> String? {
        do { try GridLimits.validate(key: key) } catch {
            if case .invalidKey(_, let reason) = error { return "an item's key '\(excerpt(key))' is refused: \(reason)" }
        }
        // Byte for byte: Swift's == takes a decomposed "é" for the composed one.
        return GridLimits.canonical(key).utf8.elementsEqual(key.utf8) ? nil : "an item's key is not in its canonical form (NFC)"
    }

    /// `text` as one shell word a user can paste: in single quotes, a quote in it written `'\''`.
    static func shellWord(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }

    /// A bundle for grid `grid` given for grid `expected`.
    public static func wrongGrid(_ grid: String, expected: String) -> SyncError {
        // A name cut short names another grid: only a whole one is given to paste.
        let whole = excerpt(grid) == grid
        let word = shellWord(excerpt(grid))
        return SyncError(.wrongGrid, "the sync bundle is for grid \(word)\(whole ? "" : "…"), not '\(excerpt(expected))'; "
                         + (whole ? "give --grid \(word) to apply it to that grid" : "give --grid with that grid's name to apply it to it"))
    }
}
