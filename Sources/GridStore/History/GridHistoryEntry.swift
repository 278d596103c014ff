/// One entry of a grid's history: a change, as recorded in the transaction that made it.
///
/// ```swift
/// for entry in try grid.history(limit: 5) {
///     print(entry.revision, entry.kind, entry.operation, entry.actor)   // 7 change toggle 3 ada (pid 4121)
/// }
/// ```
public struct GridHistoryEntry: Sendable, Hashable, Codable {
    /// What kind of change an entry records.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// An ordinary change.
        case change
        /// An undo: it took back the changes ``GridHistoryEntry/targets`` names.
        case undo
        /// A redo: it re-applied the changes ``GridHistoryEntry/targets`` names.
        case redo
        /// A revert: it made an earlier revision's state current (see ``Grid/revert(to:)``).
        case revert
        /// A sync that brought other replicas' changes (see ``GridDatabase/sync(with:grids:dryRun:)``);
        /// the actor names the replica. Undo never takes one back; it goes past one only to changes that recorded
        /// what they changed by identity (those made while the grid syncs).
        case merge
    }

    /// The revision the change made.
    public let revision: Int
    /// When it was made: ISO 8601, UTC, to the millisecond.
    public let madeAt: String
    /// What kind of change it was.
    public let kind: Kind
    /// The operation as it was given (`toggle 3`, `insert 0 --section 1`, `import 812 items`).
    public let operation: String
    /// Who made it, where known: the user and the process (`ada (pid 4121)`).
    public let actor: String
    /// For an undo or a redo, the revisions of the changes it took back or re-applied, newest first.
    public let targets: [Int]

    /// Creates an entry.
    public init(revision: Int, madeAt: String, kind: Kind, operation: String, actor: String, targets: [Int] = []) {
        self.revision = revision
        self.madeAt = madeAt
        self.kind = kind
        self.operation = operation
        self.actor = actor
        self.targets = targets
    }
}

extension GridHistoryEntry {
    /// The entry a stored row holds, every value checked.
    ///
    /// - Throws: ``GridError/corrupted(_:)`` for a row gridstore would not have written.
    init(_ row: StoredHistoryEntry, grid: String) throws(GridError) {
        func inconsistent(_ what: String) -> GridError {
            .corrupted("grid '\(grid)' has a history entry for revision \(row.revision) with \(what)")
        }
        guard row.revision > 0, row.revision < Int64.max else { throw inconsistent("an impossible revision") }
        guard let kind = Kind(rawValue: row.kind) else { throw inconsistent("an unknown kind") }
        guard Self.isTimestamp(row.madeAt) else { throw inconsistent("a time that is not of the form 2026-11-30T11:32:01.123Z") }
        guard row.operation.utf8.count <= Self.maximumTextBytes, row.actor.utf8.count <= Self.maximumTextBytes else {
            throw inconsistent("an operation or actor longer than \(Self.maximumTextBytes) bytes")
        }
        var targets: [Int] = []
        if !row.targets.isEmpty {
            for part in row.targets.split(separator: ",", omittingEmptySubsequences: false) {
                guard let target = Int(part), target > 0, target < row.revision else { throw inconsistent("targets '\(row.targets.prefix(40))'") }
                targets.append(target)
            }
        }
        guard (kind == .undo || kind == .redo) != targets.isEmpty else { throw inconsistent("targets that do not fit its kind") }
        self.init(revision: Int(row.revision), madeAt: row.madeAt, kind: kind, operation: row.operation, actor: row.actor,
                  targets: targets)
    }

    /// The longest operation or actor read back, in UTF-8 bytes; what is written is cut to it
    /// (see ``storable(_:)``).
    static let maximumTextBytes = 65_536

    /// `text` as an entry stores an operation or an actor: cut at a character boundary to at
    /// most ``maximumTextBytes`` bytes, ending in `…` when cut, with NUL (which PostgreSQL's
    /// text cannot hold) replaced by U+FFFD.
    static func storable(_ text: String) -> String {
        var text = text
        if text.utf8.contains(0) { text = String(text.unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : Character($0) }) }
        guard text.utf8.count > maximumTextBytes else { return text }
        let ellipsis = "…"
        var cut = ""
        var bytes = 0
        for character in text {
            let length = character.utf8.count
            guard bytes + length + ellipsis.utf8.count <= maximumTextBytes else { break }
            cut.append(character)
            bytes += length
        }
        return cut + ellipsis
    }

    /// Whether `text` is a time as gridstore records it: ISO 8601 in UTC with milliseconds,
    /// `2026-11-30T11:32:01.123Z`, each field in range.
    static func isTimestamp(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 24 else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard bytes[index] >= 48, bytes[index] <= 57 else { return nil }
                value = value * 10 + Int(bytes[index] - 48)
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "."), (23, "Z")]
        guard separators.allSatisfy({ bytes[$0.0] == $0.1.asciiValue! }),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
              let minute = number(14..<16), let second = number(17..<19), number(20..<23) != nil, year >= 1, (1...12).contains(month)
        else { return false }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day) && hour < 24 && minute < 60 && second < 60
    }
}
