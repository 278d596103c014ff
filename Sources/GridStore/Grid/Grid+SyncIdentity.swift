import GridLayout

extension Grid {
    /// The sync ids and places of the grid's sections and items, for a document
    /// (``GridDocument/encode(_:syncIdentity:)``); `nil` when the grid never synced here, or is a honeycomb.
    public func syncIdentity() throws(GridError) -> GridSyncIdentity? {
        try GridError.catching { try database.storageRead { try syncIdentity(in: $0) } }
    }

    /// ``syncIdentity()`` read in `transaction`.
    func syncIdentity(in transaction: any GridStorageTransaction) throws -> GridSyncIdentity? {
        guard let header = try transaction.header(named: name)?.header(), header.honeycomb == nil,
              try transaction.syncState(gridID: header.id) != nil else { return nil }
        let side = try SyncSide.prepare(name, in: transaction, minting: false)
        var identity = side.state.identity(in: side.layout)
        identity.revision = side.stored?.snapshot.revision
        return identity
    }

    /// Replaces the grid's settings and sizes with a document's, as ``replaceContent(_:)``
    /// does, in one transaction, creating the grid if it is missing. When the document carries
    /// a ``GridSyncIdentity`` and the grid has no sync state here, the grid's sync state starts
    /// with it: the grid then syncs with the exporter's peers as the same sections and items.
    ///
    /// - Throws: ``GridError`` as ``replaceContent(_:)`` does; ``GridError/sync(_:)`` of kind
    ///   ``SyncError/Kind/malformed`` for an identity that does not fit the content.
    @discardableResult
    public func importDocument(_ document: GridDocument.Decoded, operation: String? = nil) throws(GridError) -> GridSnapshot {
        try Self.checkSyncIdentity(of: document)
        return try GridError.catching { try database.storageWrite { try importing(document, operation: operation, in: $0) } }
    }

    /// Refuses a document whose sync ids do not fit its grid, before anything is written.
    static func checkSyncIdentity(of document: GridDocument.Decoded) throws(GridError) {
        if let identity = document.syncIdentity, let problem = identity.problem(for: document.content) {
            throw .sync(SyncError(.malformed, "the document's sync ids do not fit its grid: \(problem)"))
        }
    }

    /// The import ``importDocument(_:operation:)`` makes, in `transaction`, of a document
    /// ``checkSyncIdentity(of:)`` passed.
    func importing(_ document: GridDocument.Decoded, operation: String?, in transaction: any GridStorageTransaction) throws -> GridSnapshot {
        let header = try transaction.header(named: name)?.header()
        let synced = try header.map { try transaction.syncState(gridID: $0.id) != nil } ?? false
        let changed = try run(GridOperation(record: HistoryRecord(operation: operation)) { editor, _, _ in
            try editor.replaceContent(document.content)
        }, in: transaction)
        if let identity = document.syncIdentity, !synced {
            try SyncSide.take(changed.1, identity: identity, gridID: changed.0, in: transaction, database: database)
        }
        return changed.1
    }
}
