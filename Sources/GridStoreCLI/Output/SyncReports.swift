import GridStore

/// What `sync --format json` prints: the other database, whether it was a dry run, and each
/// grid's outcome.
struct SyncReport: Encodable {
    /// A grid that synced, or one whose sync was refused (with the one-line error).
    struct Grid: Encodable {
        /// A revision before and after the sync; `null` where there was no grid.
        struct Revisions: Encodable {
            let before: Int?
            let after: Int?
        }

        let grid: String
        let synced: (sent: Int, received: Int, revision: Revisions, otherRevision: Revisions, conflicts: Int,
                     mergedUnrelated: Bool, drop: String?)?
        let error: String?

        init(synced result: GridSyncResult) {
            grid = result.grid
            synced = (result.sent, result.received, Revisions(before: result.revision.before, after: result.revision.after),
                      Revisions(before: result.otherRevision.before, after: result.otherRevision.after), result.conflicts,
                      result.mergedUnrelated, result.drop?.rawValue)
            error = nil
        }

        init(grid: String, refusal: String) {
            self.grid = grid
            synced = nil
            error = refusal
        }

        private enum CodingKeys: String, CodingKey {
            case grid, sent, received, revision, otherRevision, conflicts, mergedUnrelated, drop, error
        }

        /// `"mergedUnrelated"` and `"drop"` only where they apply; a refused grid has its `"error"` alone.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(grid, forKey: .grid)
            guard let synced else { return try container.encode(error ?? "", forKey: .error) }
            try container.encode(synced.sent, forKey: .sent)
            try container.encode(synced.received, forKey: .received)
            try container.encode(synced.revision, forKey: .revision)
            try container.encode(synced.otherRevision, forKey: .otherRevision)
            try container.encode(synced.conflicts, forKey: .conflicts)
            if synced.mergedUnrelated { try container.encode(true, forKey: .mergedUnrelated) }
            if let drop = synced.drop { try container.encode(drop, forKey: .drop) }
        }
    }

    let other: String
    let dryRun: Bool
    let grids: [Grid]
}

/// What `sync-conflicts --format json` prints.
struct ConflictList: Encodable {
    struct Conflict: Encodable {
        let field: String
        /// The item's place; `null` for a conflict of the grid's options.
        let section: Int?
        let item: Int?
        let key: String?
        let kept: String
        let keptBy: String
        let keptByName: String?
        let overwritten: String
        let overwrittenBy: String
        let overwrittenByName: String?
    }

    let grid: String
    let conflicts: [Conflict]
}

/// What `sync-cursor --format json` prints.
struct CursorReport: Encodable {
    struct Replica: Encodable {
        let replica: String
        /// The name its database goes by, when it gave one.
        let name: String?
        /// Whether it is this database's replica of the grid.
        let here: Bool
        /// When its latest change known here was made, in milliseconds since 1970.
        let latestChange: Int64?
        /// When a sync with it, or a bundle it made, was last merged here, in milliseconds since 1970.
        let lastSynced: Int64?
    }

    let grid: String
    let cursor: String
    let replicas: [Replica]
}
