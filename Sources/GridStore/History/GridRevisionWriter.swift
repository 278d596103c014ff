/// Writes one revision of a grid: what differs between the grid before and after its edits, and
/// its history entry. The one write path of every change, a sync's merge included.
enum GridRevisionWriter {
    /// Writes `edited`, made from `old`, as the grid's next revision, in `transaction`.
    ///
    /// Only placement chunks that differ are written, which is right only while the stored
    /// chunks are what `old` says: when their keys or lengths say otherwise (a hand edit), all
    /// are rewritten, so a change always leaves placements equal to a fresh pack.
    ///
    /// - Parameters:
    ///   - keep: How many history entries the grid keeps; none is written for 0.
    ///   - recording: Records the change in the grid's sync state, given the grid after it,
    ///     before its history entry is written; returns the registers it wrote, which the entry keeps.
    /// - Returns: The grid after the change; `nil` when the edits leave it as it was and
    ///   `record` is a change (an undo, a redo or a revert is written all the same, so the
    ///   history moves on).
    /// - Throws: ``GridError/limitExceeded(_:)`` at the last revision gridstore can store; the
    ///   backend's errors as they are.
    static func write(_ edited: (snapshot: GridSnapshot, changes: GridChanges, edits: [GridEdit]), from old: GridSnapshot,
                      gridID: Int64, grid name: String, record: HistoryRecord, keep: Int,
                      in transaction: any GridStorageTransaction,
                      recording: (GridSnapshot) throws -> String? = { _ in nil }) throws -> GridSnapshot? {
        var new = edited.snapshot
        new.revision = old.revision + 1
        var changes = GridChangeSet(old: old, new: new, changes: edited.changes)
        if changes.leavesUnchanged(old) && record.kind == .change { return nil }
        // A reader takes revisions below Int64.max; one at the last of them (a hand edit, or
        // a copy of such a grid) takes no more changes.
        guard old.revision < Int(Int64.max) - 1 else {
            throw GridError.limitExceeded("grid '\(name)' is at revision \(old.revision), the last one gridstore can store")
        }
        if old.kind == .tiles,
           try !PlacementChunks.match(stored: transaction.placementChunkSizes(gridID: gridID), layout: old.layout,
                                      isRewritten: changes.rewrites) {
            changes.rewriteAllChunks(of: new)
        }
        try transaction.write(changes, gridID: gridID)
        let registers = try recording(new)
        if keep > 0 {
            var entry = record.entry(revision: new.revision, edits: edited.edits, from: old, to: new)
            entry.registers = registers
            try transaction.appendHistory(entry, gridID: gridID, keep: keep)
        }
        return new
    }
}
