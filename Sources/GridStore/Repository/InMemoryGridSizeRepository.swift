import GridLayout

/// A ``GridSizeRepository`` that keeps its grid in memory: for tests, previews and
/// tools that do not need to persist sizes. It keeps a history as a database does.
public final class InMemoryGridSizeRepository: GridSizeRepository {
    /// The grid and its history.
    private struct State {
        var snapshot: GridSnapshot
        var history: [(entry: GridHistoryEntry, edits: [GridEdit])] = []
        var keep = GridHistory.defaultKeep
    }

    private let state: Locked<State>

    /// Creates a grid named `name` with `options`.
    ///
    /// - Throws: ``GridError`` for an invalid name or options.
    public init(name: String = "default", options: GridOptions = GridOptions()) throws(GridError) {
        try GridLimits.validate(name: name)
        try options.validate()
        state = Locked(State(snapshot: try GridSnapshot(name: name, revision: 0, content: GridContent(options))))
    }

    /// This instance's registration domain (see ``register(defaultSize:)``).
    private let registration = RegisteredDefaultSize()

    public func register(defaultSize: TileSize) {
        registration.register(defaultSize)
    }

    public var registeredDefaultSize: TileSize? { registration.size }

    public func snapshot() throws(GridError) -> GridSnapshot {
        registration.apply(to: state.withLock { $0.snapshot })
    }

    @discardableResult
    public func update(_ body: (inout GridEditor) throws -> Void) throws -> GridSnapshot {
        registration.apply(to: try perform(HistoryRecord(), seenBy: registration) { editor, _, _ in
            try body(&editor)
        })
    }

    // MARK: History

    public func history(limit: Int?) throws(GridError) -> [GridHistoryEntry] {
        state.withLock { state in Array(state.history.reversed().prefix(limit.map { max(0, $0) } ?? Int.max).map(\.entry)) }
    }

    @discardableResult
    public func undo(_ count: Int) throws(GridError) -> GridSnapshot {
        try moveThroughHistory(count, kind: .undo)
    }

    @discardableResult
    public func redo(_ count: Int) throws(GridError) -> GridSnapshot {
        try moveThroughHistory(count, kind: .redo)
    }

    public func snapshot(at revision: Int) throws(GridError) -> GridSnapshot {
        try GridError.catching {
            try state.withLock { state in
                registration.apply(to: try GridHistory.state(at: revision, from: state.snapshot, with: MemoryHistory(state)))
            }
        }
    }

    @discardableResult
    public func revert(to revision: Int) throws(GridError) -> GridSnapshot {
        try GridError.catching {
            registration.apply(to: try perform(HistoryRecord(kind: .revert, operation: "revert --to \(revision)")) { editor, history, _ in
                try GridHistory.takeBack(to: revision, from: history.revision, with: history, into: &editor)
            })
        }
    }

    /// How many history entries the repository keeps (1000 unless set).
    public func historyRetention() -> Int { state.withLock { $0.keep } }

    /// Sets how many history entries the repository keeps, deleting older ones now.
    public func setHistoryRetention(_ keep: Int) throws(GridError) {
        guard (0...GridHistory.maximumKeep).contains(keep) else {
            throw .limitExceeded("a grid keeps 0 to \(GridHistory.maximumKeep) history entries, not \(keep)")
        }
        state.withLock { state in
            state.keep = keep
            Self.trim(&state)
        }
    }

    private func moveThroughHistory(_ count: Int, kind: GridHistoryEntry.Kind) throws(GridError) -> GridSnapshot {
        guard count >= 1 else { throw .invalidItemCount(count) }
        return try GridError.catching {
            registration.apply(to: try perform(HistoryRecord(kind: kind, operation: "\(kind.rawValue) \(count)")) { editor, history, record in
                record.targets = try GridHistory.move(count, kind: kind, through: history, editor: &editor)
            })
        }
    }

    /// Applies `body` as one change and records it, as ``Grid`` does in a database.
    private func perform(_ initial: HistoryRecord, seenBy registration: RegisteredDefaultSize? = nil,
                         _ body: (inout GridEditor, MemoryHistory, inout HistoryRecord) throws -> Void) throws -> GridSnapshot {
        try state.withLock { state in
            let current = state.snapshot
            var record = initial
            let history = MemoryHistory(state)
            let edited = try GridEditor.edit(current, seenAs: registration?.apply(to: current)) { try body(&$0, history, &record) }
            var new = edited.snapshot
            // As in a database: a change that changes nothing adds no revision.
            if GridChangeSet(old: current, new: new, changes: edited.changes).leavesUnchanged(current) && record.kind == .change {
                return current
            }
            new.revision = current.revision + 1
            state.snapshot = new
            if var seen = edited.seen, let registration {
                seen.revision = new.revision
                registration.remember(stored: new, seen: seen)
            }
            if state.keep > 0 {
                let row = record.entry(revision: new.revision, edits: edited.edits, from: current, to: new)
                let entry = GridHistoryEntry(revision: new.revision, madeAt: HistoryClock.now(), kind: record.kind,
                                             operation: row.operation, actor: row.actor, targets: record.targets)
                state.history.append((entry, edited.edits))
            }
            Self.trim(&state)
            return new
        }
    }

    private static func trim(_ state: inout State) {
        let oldestKept = state.snapshot.revision - state.keep
        state.history.removeAll { $0.entry.revision <= oldestKept }
    }

    /// The history as ``GridHistory`` reads it.
    private struct MemoryHistory: HistorySource {
        let grid: String
        let revision: Int
        let kept: [(entry: GridHistoryEntry, edits: [GridEdit])]

        init(_ state: State) {
            grid = state.snapshot.name
            revision = state.snapshot.revision
            kept = state.history
        }

        func entries() throws -> (entries: [GridHistoryEntry], isComplete: Bool) {
            (kept.map(\.entry), (kept.first?.entry.revision ?? revision + 1) == 1)
        }

        func edits(of revision: Int) throws -> [GridEdit] {
            guard let found = kept.first(where: { $0.entry.revision == revision }) else {
                throw GridError.historyTrimmed(oldestKept: nil, grid: grid)
            }
            return found.edits
        }

        func oldestReachableRevision() throws -> Int {
            (kept.first?.entry.revision ?? revision + 1) - 1
        }
    }
}
