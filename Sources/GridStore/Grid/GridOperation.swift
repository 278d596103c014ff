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
            record.targets = try GridHistory.move(count, kind: kind, through: reader, editor: &editor)
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
