/// One change of a grid as the engine makes it, whichever way it is called: its history record
/// and its edits, which may read the grid's history. A ``Grid`` method runs it in a transaction
/// of its own; a ``GridWriteTransaction`` runs it in the app's.
struct GridOperation {
    /// The history entry the change records (its kind, its operation, what it acts on).
    var record: HistoryRecord
    /// The edits: applied to the grid as stored, with its history to read, completing `record`.
    var edit: (inout GridEditor, GridHistoryReader, inout HistoryRecord) throws -> Void

    /// An undo or a redo of the latest `count` changes.
    ///
    /// - Throws: ``GridError/invalidStepCount(_:)`` for a count below 1.
    static func moving(_ count: Int, through kind: GridHistoryEntry.Kind) throws(GridError) -> GridOperation {
        guard count >= 1 else { throw .invalidStepCount(count) }
        return GridOperation(record: HistoryRecord(kind: kind, operation: "\(kind.rawValue) \(count)")) { editor, reader, record in
            let targets = try GridHistory.targets(count, kind: kind, through: reader)
            record.targets = targets.revisions
            // By identity when each change recorded the registers it wrote (the grid synced), so
            // that it is taken back on the tiles it touched wherever they are now: sizes alone
            // from the tiles' stored ids, recorded then as any change of sizes is; anything else
            // through the grid's whole sync state.
            if targets.byIdentity {
                var changes: [[RegisterChange]] = []
                for target in targets.revisions { changes.append(try reader.registerChanges(of: target)) }
                if let sizes = try sizesByIdentity(changes, kind: kind, reader: reader, snapshot: editor.snapshot) {
                    try editor.setSizes(sizes)
                    return
                }
                if var side = try identitySide(of: editor.snapshot, reader: reader, orByPosition: targets.mergeAfter == nil) {
                    side.takeBack(changes, redo: kind == .redo)
                    try SyncSide.edit(&editor, to: side.layout.content)
                    let transaction = reader.transaction
                    record.recording = { new in try side.storeTakenBack(as: new, in: transaction) }
                    return
                }
            }
            if let merge = targets.mergeAfter {
                let oldest = targets.revisions.min() ?? merge.revision
                throw GridError.sync(SyncError(.unsupported, "grid '\(reader.grid)' cannot \(kind.rawValue) revision \(oldest) past the sync "
                                               + "at revision \(merge.revision): the change did not record the sync registers it wrote (it "
                                               + "was made on a copy of the database before the copy first synced, or while the grid's sync "
                                               + "state could not be read), and a sync's changes are never taken back by position; 'gridstore "
                                               + "revert --to N' makes an earlier revision current"))
            }
            try GridHistory.move(targets.revisions, kind: kind, through: reader, editor: &editor)
        }
    }

    /// For an undo or a redo of changes (`entries`, their registers) that set sizes alone: the sizes to set, each where its
    /// tile is now (found by its id in `sync_item_ids`), where the tile still has the size the
    /// change left (undo) or found (redo); `nil` when the changes did more, the grid is a
    /// honeycomb, or its sync state or stored ids are not of the grid as it is (the whole state
    /// is read then).
    ///
    /// - Complexity: O(*n* log *n*) for the grid's *n* tiles (their ids), plus the changes' registers.
    private static func sizesByIdentity(_ entries: [[RegisterChange]], kind: GridHistoryEntry.Kind, reader: GridHistoryReader,
                                        snapshot: GridSnapshot) throws -> [(GridIndexPath, TileSize?)]? {
        for change in entries.joined() {
            guard change.entity != nil, case .size = change.after else { return nil }
        }
        guard snapshot.kind == .tiles, let row = try reader.transaction.syncState(gridID: reader.gridID),
              row.revision == Int64(snapshot.revision) else { return nil }
        guard let ids = try StoredSyncItems.all(gridID: reader.gridID, itemCounts: snapshot.itemCounts, in: reader.transaction) else {
            return nil
        }
        var paths: [SyncEntityID: GridIndexPath] = [:]
        for (section, items) in ids.enumerated() {
            for (item, id) in items.enumerated() { paths[id] = GridIndexPath(item: item, section: section) }
        }
        var shown = snapshot.content.sections
        var sizes: [(GridIndexPath, TileSize?)] = []
        for changes in entries {
            for change in kind == .redo ? changes : changes.reversed() {
                // A tile deleted since is not shown, and keeps its size.
                guard case .size(let before) = change.before, case .size(let after) = change.after,
                      let entity = change.entity, let path = paths[entity] else { continue }
                let (from, to) = kind == .redo ? (before, after) : (after, before)
                guard from != to, shown[path.section][path.item] == from else { continue }
                shown[path.section][path.item] = to
                sizes.append((path, to))
            }
        }
        return sizes
    }

    /// The grid's sync state for an undo or a redo by identity (``SyncSide/sideForUndo(of:gridID:grid:in:)``).
    /// A state that cannot be read (damaged, past gridstore's limits) stops it only when it may
    /// not be done by position (`orByPosition`); the next sync reports it.
    private static func identitySide(of snapshot: GridSnapshot, reader: GridHistoryReader, orByPosition: Bool) throws -> SyncSide? {
        do {
            return try SyncSide.sideForUndo(of: snapshot, gridID: reader.gridID, grid: reader.grid, in: reader.transaction)
        } catch let error as GridError {
            if case .storage = error { throw error }
            if orByPosition { return nil }
            throw error
        }
    }

    /// A revert of the grid to how it was at `revision`.
    static func reverting(to revision: Int) -> GridOperation {
        GridOperation(record: HistoryRecord(kind: .revert, operation: "revert --to \(revision)")) { editor, reader, _ in
            try GridHistory.takeBack(to: revision, from: reader.revision, with: reader, into: &editor)
        }
    }
}

extension Grid {
    /// Runs `operation` in a transaction of its own, as ``perform(seenBy:record:_:)`` does.
    func perform(_ operation: GridOperation) throws -> GridSnapshot {
        try perform(record: operation.record, operation.edit)
    }

    /// Runs `operation` in `transaction`, the grid's state not cached (the transaction may roll back).
    ///
    /// - Returns: The grid's row id and its state after the change.
    func run(_ operation: GridOperation, in transaction: any GridStorageTransaction) throws -> (Int64, GridSnapshot) {
        var seen: GridSnapshot?
        return try change(in: transaction, record: operation.record, caching: false, seen: &seen, operation.edit)
    }
}

extension GridHistoryReader {
    /// The sync registers the change that made `revision` wrote.
    ///
    /// - Throws: ``GridError/corrupted(_:)`` when the entry has none, or none gridstore wrote.
    func registerChanges(of revision: Int) throws -> [RegisterChange] {
        guard let text = try transaction.historyRegisters(gridID: gridID, revision: revision) else {
            throw GridError.corrupted("grid '\(grid)' has no sync registers in its history entry for revision \(revision)")
        }
        return try RegisterChange.changes(in: text, revision: revision, grid: grid)
    }
}
