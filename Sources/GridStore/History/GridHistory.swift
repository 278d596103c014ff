import GridLayout

/// How undo and redo move through a grid's history, as an editor's do.
///
/// The history is replayed from its oldest kept entry: a change (or a revert) is pushed on the
/// done stack and empties the redo stack; an undo moves its targets from the done stack to
/// the undone one; a redo moves them back. So a second undo goes one change further back,
/// an undo is never itself undone by undo (redo re-applies what it took back), and any
/// new change ends what could be redone. Where the history was trimmed, the stacks start
/// with a barrier: an undo that would cross it is refused.
///
/// A merge (a sync that changed the grid) is never taken back. The changes before it that
/// recorded the sync registers they wrote (every change of a grid that syncs) stay on the
/// stacks, and are taken back by identity (``RegisterChange``); one that did not (made before
/// the grid first synced) is where undo stops, and so is everything before it.
enum GridHistory {
    /// How many entries a grid keeps unless told otherwise.
    static let defaultKeep = 1000

    /// The most entries a grid can keep.
    static let maximumKeep = 1_000_000

    /// The grid's kept entries, newest first, at most `limit` of them (`nil`: all). At most
    /// `bound` (``maximumKeep``) are read, so a table holding more (rows added by hand) is found
    /// inconsistent instead of read whole.
    static func entries(in transaction: any GridStorageTransaction, gridID: Int64, grid: String,
                        limit: Int? = nil, deltas: Bool, bound: Int = maximumKeep) throws -> [StoredHistoryEntry] {
        let rows = try transaction.historyEntries(gridID: gridID, limit: min(max(0, limit ?? .max), bound + 1), deltas: deltas)
        guard rows.count <= bound else {
            throw GridError.corrupted("grid '\(grid)' has more history entries than a grid can keep (\(bound))")
        }
        return rows
    }

    /// What undo and redo would act on, newest first.
    struct Stacks: Equatable {
        /// Changes that undo would take back, the next one last; a `nil` is the trimmed past.
        var done: [Int?]
        /// Changes that redo would re-apply, the next one last; a `nil` is the trimmed past.
        var undone: [Int?]
        /// The merge below which undo stops (the changes before it did not record what they
        /// changed by identity); `nil` when no merge stops it.
        var stoppedBy: Int?
    }

    /// The stacks after `entries` (oldest first); `isComplete` says the history goes back to
    /// the grid's first change, and `byIdentity` (in the order of `entries`) which entries recorded
    /// the sync registers they wrote.
    ///
    /// - Throws: ``GridError/corrupted(_:)`` for an undo or redo whose target is a kept change
    ///   that it could not have acted on (one not next on its stack): the history was edited.
    static func stacks(_ entries: [GridHistoryEntry], isComplete: Bool, byIdentity: [Bool] = [],
                       grid: String) throws(GridError) -> Stacks {
        var stacks = Stacks(done: isComplete ? [] : [nil], undone: isComplete ? [] : [nil])
        let oldestKept = entries.first?.revision ?? 1
        // Kept entries run without gaps, so an entry's place in `byIdentity` follows from its revision.
        func isByIdentity(_ revision: Int?) -> Bool {
            guard let revision, revision >= oldestKept, revision - oldestKept < byIdentity.count else { return false }
            return byIdentity[revision - oldestKept]
        }
        // Until an entry acts on a change no longer kept, every kept change's place is known.
        var pastIsKnown = true
        for entry in entries {
            switch entry.kind {
            case .change, .revert:
                stacks.done.append(entry.revision)
                stacks.undone = []
            case .merge:
                // Undo takes back this replica's own changes, never another's: what came before a
                // merge is taken back by identity, or not at all.
                for stack in [\Stacks.done, \Stacks.undone] {
                    guard let cut = stacks[keyPath: stack].lastIndex(where: { !isByIdentity($0) }) else { continue }
                    stacks[keyPath: stack].removeFirst(cut + 1)
                    if stack == \Stacks.done { stacks.stoppedBy = entry.revision }
                }
                if stacks.done.isEmpty { stacks.stoppedBy = entry.revision }
            case .undo, .redo:
                for target in entry.targets {
                    let (from, to) = entry.kind == .undo ? (\Stacks.done, \Stacks.undone) : (\Stacks.undone, \Stacks.done)
                    if stacks[keyPath: from].last == target {
                        stacks[keyPath: from].removeLast()
                        stacks[keyPath: to].append(target)
                    } else if pastIsKnown && (target >= oldestKept || isComplete) {
                        throw .corrupted("grid '\(grid)' has a history entry for revision \(entry.revision) whose "
                                         + "\(entry.kind.rawValue) of revision \(target) does not follow from the entries before it")
                    } else {
                        // It acted on a change that is no longer kept: what came before is unknown.
                        stacks = Stacks(done: [nil], undone: [nil], stoppedBy: stacks.stoppedBy)
                        pastIsKnown = false
                    }
                }
            }
        }
        return stacks
    }
}

/// What a change records in the history beside its edits.
struct HistoryRecord {
    /// The entry's kind.
    var kind: GridHistoryEntry.Kind = .change
    /// The operation as given; `nil` to describe it from the edits.
    var operation: String?
    /// For an undo or a redo, the changes it acts on, newest first.
    var targets: [Int] = []
    /// Records the change in the grid's sync state instead of the change's own recording (an
    /// undo or a redo by identity, which wrote its registers), given the grid after it; returns
    /// the registers written, which the entry keeps.
    var recording: ((GridSnapshot) throws -> String?)?

    /// The row to store for the change from `old` to `new` that made `revision` with `edits`.
    ///
    /// A change of more edits than an entry may hold when read back (``HistoryDelta/fits(_:)``)
    /// is stored as one replacement of the whole content, which undoes the same.
    func entry(revision: Int, edits: [GridEdit], from old: GridSnapshot, to new: GridSnapshot) -> StoredHistoryEntry {
        let recorded = HistoryDelta.fits(edits) ? edits : [.content(from: old.content, to: new.content)]
        // Appended rather than `joined(separator:)`, whose generic code costs a process that
        // makes one change 120,000 instructions the first time.
        var targetList = ""
        for target in targets {
            if !targetList.isEmpty { targetList += "," }
            targetList += String(target)
        }
        return StoredHistoryEntry(revision: Int64(revision), madeAt: "", kind: kind.rawValue,
                                  operation: GridHistoryEntry.storable(operation ?? GridEdit.describe(edits)),
                                  actor: GridHistoryEntry.storable(HistoryActor.current),
                                  targets: targetList, delta: HistoryDelta.encode(recorded))
    }
}

/// A grid's kept history, as a change or a read sees it.
protocol HistorySource {
    /// The grid's name, for messages.
    var grid: String { get }
    /// The grid's revision before the change.
    var revision: Int { get }
    /// The edits of the change that made `revision`.
    func edits(of revision: Int) throws -> [GridEdit]
    /// The oldest revision whose state can be rebuilt: the one before the oldest kept entry.
    func oldestReachableRevision() throws -> Int
}

extension GridHistory {
    /// What an undo or a redo of the last `count` changes acts on.
    struct Targets {
        /// The changes' revisions, in the order they are acted on.
        var revisions: [Int]
        /// Whether each recorded the sync registers it wrote, so it can be acted on by identity.
        var byIdentity: Bool
        /// The latest merge after the oldest of them, which they may not be acted on by position past.
        var mergeAfter: GridHistoryEntry?
    }

    /// The last `count` changes an undo (or a redo) acts on.
    ///
    /// - Throws: ``GridError/nothingToUndo(requested:available:)`` or
    ///   ``GridError/nothingToRedo(requested:available:)``; ``GridError/historyTrimmed(oldestKept:grid:)``.
    static func targets(_ count: Int, kind: GridHistoryEntry.Kind, through history: GridHistoryReader) throws -> Targets {
        let (entries, isComplete, byIdentity) = try history.entries()
        let all = try stacks(entries, isComplete: isComplete, byIdentity: byIdentity, grid: history.grid)
        let stack = kind == .undo ? all.done : all.undone
        var targets: [Int] = []
        for candidate in stack.reversed().prefix(count) {
            guard let candidate else {
                throw GridError.historyTrimmed(oldestKept: (entries.first?.revision ?? history.revision + 1) - 1, grid: history.grid)
            }
            targets.append(candidate)
        }
        guard targets.count == count else {
            throw kind == .undo ? GridError.nothingToUndo(requested: count, available: targets.count)
                : GridError.nothingToRedo(requested: count, available: targets.count)
        }
        let oldestKept = entries.first?.revision ?? 1
        let oldest = targets.min() ?? history.revision
        return Targets(revisions: targets, byIdentity: targets.allSatisfy { $0 >= oldestKept && byIdentity[$0 - oldestKept] },
                       mergeAfter: entries.last { $0.kind == .merge && $0.revision > oldest })
    }

    /// Takes back (undo) or re-applies (redo) the changes that made `revisions` through
    /// `editor`, by position: their edits inverted (undo), or as they were (redo).
    static func move(_ revisions: [Int], kind: GridHistoryEntry.Kind, through history: some HistorySource,
                     editor: inout GridEditor) throws {
        for target in revisions {
            let edits = try history.edits(of: target)
            try apply(kind == .undo ? edits.reversed().map(\.inverse) : edits, of: target, grid: history.grid, to: &editor)
        }
    }

    /// The grid as it was at `revision`: `current` with every change after `revision` taken
    /// back, newest first, packed once.
    static func state(at revision: Int, from current: GridSnapshot, with history: some HistorySource) throws -> GridSnapshot {
        guard revision >= 0, revision <= current.revision else {
            throw GridError.revisionOutOfRange(revision, current: current.revision)
        }
        guard revision < current.revision else { return current }
        let oldest = try history.oldestReachableRevision()
        guard revision >= oldest else { throw GridError.historyTrimmed(oldestKept: oldest, grid: history.grid) }
        // Through an editor, as every edit is made, packed once at the end rather than at each edit.
        var editor = GridEditor(packingOnceAtTheEnd: current)
        for changed in stride(from: current.revision, to: revision, by: -1) {
            let edits = try history.edits(of: changed)
            do {
                // The editor refuses an edit that would grow the grid past its limits, as for any
                // change, so no entry can grow a replayed grid without bound.
                try editor.apply(edits.reversed().lazy.map(\.inverse))
            } catch {
                throw GridError.corrupted("grid '\(history.grid)' has a history entry for revision \(changed) that does not fit "
                                          + "the grid: \(error)")
            }
        }
        var then = editor.packedSnapshot
        then.revision = revision
        return then
    }

    /// Makes, through `editor`, the grid as it was at `revision` (see ``state(at:from:with:)``).
    static func takeBack(to revision: Int, from current: Int, with history: some HistorySource,
                         into editor: inout GridEditor) throws {
        let then = try state(at: revision, from: editor.snapshot, with: history)
        guard then.revision != editor.snapshot.revision else { return }
        try editor.replaceContent(then.content)
    }

    /// Makes `edits` (from the entry for `revision`) through `editor`.
    ///
    /// - Throws: ``GridError/corrupted(_:)`` when they do not fit the grid: the history and the grid disagree.
    private static func apply(_ edits: [GridEdit], of revision: Int, grid: String, to editor: inout GridEditor) throws {
        do {
            try editor.apply(edits)
        } catch {
            throw GridError.corrupted("grid '\(grid)' has a history entry for revision \(revision) that does not fit "
                                      + "the grid: \(error)")
        }
    }
}

/// The history of one grid, read inside a change's transaction.
struct GridHistoryReader: HistorySource {
    let transaction: any GridStorageTransaction
    let gridID: Int64
    let grid: String
    /// The grid's revision before the change.
    let revision: Int

    /// Every kept entry, oldest first, whether they go back to the grid's first change, and
    /// which recorded the sync registers they wrote.
    func entries() throws -> (entries: [GridHistoryEntry], isComplete: Bool, byIdentity: [Bool]) {
        let rows = try GridHistory.entries(in: transaction, gridID: gridID, grid: grid, deltas: false)
        var entries: [GridHistoryEntry] = []
        var byIdentity: [Bool] = []
        entries.reserveCapacity(rows.count)
        byIdentity.reserveCapacity(rows.count)
        for row in rows.reversed() {
            entries.append(try GridHistoryEntry(row, grid: grid))
            byIdentity.append(row.registers != nil)
        }
        // Kept entries run without gaps up to the grid's revision; the first change made revision 1.
        if let newest = entries.last, newest.revision != revision {
            throw GridError.corrupted("grid '\(grid)' is at revision \(revision), but its newest history entry is for revision \(newest.revision)")
        }
        for (older, newer) in zip(entries, entries.dropFirst()) where newer.revision != older.revision + 1 {
            throw GridError.corrupted("grid '\(grid)' has no history entry for revision \(older.revision + 1)")
        }
        let oldest = entries.first?.revision ?? revision + 1
        return (entries, oldest == 1, byIdentity)
    }

    /// The merge below which undo stops (``GridHistory/Stacks/stoppedBy``).
    func undoStop() throws -> GridHistoryEntry? {
        let (entries, isComplete, byIdentity) = try entries()
        let stop = try GridHistory.stacks(entries, isComplete: isComplete, byIdentity: byIdentity, grid: grid).stoppedBy
        return entries.first { $0.revision == stop }
    }

    /// The edits of the change that made `revision`.
    func edits(of revision: Int) throws -> [GridEdit] {
        guard let text = try transaction.historyDelta(gridID: gridID, revision: revision) else {
            throw GridError.historyTrimmed(oldestKept: nil, grid: grid)
        }
        return try HistoryDelta.decode(text, revision: revision, grid: grid)
    }

    /// The oldest revision whose state can be rebuilt: the one before the oldest kept entry.
    func oldestReachableRevision() throws -> Int {
        let rows = try GridHistory.entries(in: transaction, gridID: gridID, grid: grid, deltas: false)
        return Int(rows.last?.revision ?? Int64(revision + 1)) - 1
    }
}
