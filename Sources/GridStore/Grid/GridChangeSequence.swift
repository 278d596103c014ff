import GridLayout

/// A grid's changes as an `AsyncSequence`: the current state first, then one ``GridChange``
/// whenever the grid changes, whichever process changed it.
///
/// It is pulled, not pushed: each `next()` waits until the grid differs from the state it
/// last returned, so a slow consumer skips the states in between (a change lists everything
/// that differs from what the consumer saw, from one revision to a later one, never back) and
/// memory stays bounded whatever its pace. It waits for the database's change signal, one for
/// all the grids a process observes in the database (see ``DatabaseChangeWatch``), then reads
/// the grid's revision with one indexed read; the whole state is read only when it moved. A
/// database without a signal (PostgreSQL behind a pooler in transaction mode) is polled every
/// interval instead. The reading happens on threads of gridstore's own, never on Swift's
/// cooperative pool. Observing never creates a grid: on a grid that does not exist, or is
/// dropped while observed, the sequence ends by throwing ``GridError/gridNotFound(_:)``. It ends
/// without error when the task iterating it is cancelled.
public struct GridChangeSequence: AsyncSequence, Sendable {
    public typealias Element = GridChange

    /// What a check compares: the revision, and anything else that changes what the observer sees.
    struct Token: Equatable, Sendable {
        /// The grid's row: a grid dropped and made again is another, whose revisions start anew.
        var gridID: Int64? = nil
        var revision: Int
        var registeredDefault: TileSize?

        /// Whether a state with this token may follow one with `earlier`: never an older
        /// revision of the same grid (a lagging read).
        func mayFollow(_ earlier: Token) -> Bool {
            gridID != earlier.gridID || revision >= earlier.revision
        }
    }

    /// How often to check without a change signal.
    let interval: Duration
    /// The database's change signal, if it has one.
    var watch: DatabaseChangeWatch?
    /// Where the checks and reads run: the database's executor for reads, or the one shared by
    /// repositories without a database.
    var executor: ConnectionExecutor = otherRepositories
    /// The cheap check.
    let token: @Sendable () throws -> Token
    /// The whole state, as the observer sees it, and its token.
    let load: @Sendable () throws -> (GridSnapshot, Token)

    public func makeAsyncIterator() -> Iterator {
        Iterator(sequence: self)
    }

    /// Waits for the next change.
    public struct Iterator: AsyncIteratorProtocol {
        let sequence: GridChangeSequence
        var last: (snapshot: GridSnapshot, token: Token)?
        /// The signal's generation before the last read, when the database has a signal.
        var generation: Int?

        public mutating func next() async throws -> GridChange? {
            guard let previous = last else {
                if let watch = sequence.watch {
                    do {
                        generation = try await watch.prepare() ? watch.currentGeneration : nil
                    } catch {
                        return nil
                    }
                }
                let (first, token) = try await sequence.run(sequence.load)
                last = (first, token)
                return GridChange(initial: first)
            }
            while true {
                do {
                    if let watch = sequence.watch, let seen = generation {
                        // Woken by a change, or after a while anyway: the check is cheap.
                        generation = try await watch.change(after: seen, waitingAtMost: Self.longestWaitMilliseconds)
                    } else {
                        try await Task.sleep(for: sequence.interval)
                    }
                } catch {
                    return nil
                }
                let token = try await sequence.run(sequence.token)
                // Never back: a state older than the one returned (a lagging read) is passed over.
                if token != previous.token && token.mayFollow(previous.token) {
                    let (current, token) = try await sequence.run(sequence.load)
                    guard token.mayFollow(previous.token) else { continue }
                    last = (current, token)
                    return GridChange(from: previous.snapshot, to: current)
                }
            }
        }

        /// The longest an observer waits for the change signal before it checks anyway.
        static let longestWaitMilliseconds = 1_000
    }

    /// The result of `body`, on the executor.
    private func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await executor.run(body)
    }
}
