import GridLayout

/// A grid's changes as an `AsyncSequence`: the current state first, then one ``GridChange``
/// whenever the grid changes, whichever process changed it.
///
/// It is pulled, not pushed: each `next()` waits until the grid differs from the state it
/// last returned, so a slow consumer skips the states in between (a change lists everything
/// that differs from what the consumer saw) and memory stays bounded whatever its pace. The
/// check is one indexed read of the revision every interval; the whole state is read only
/// when it moved. The waiting and reading happen on threads of gridstore's own, never on
/// Swift's cooperative pool. Observing never creates a grid: on a grid that does not exist,
/// or is dropped while observed, the sequence ends by throwing ``GridError/gridNotFound(_:)``.
/// It ends without error when the task iterating it is cancelled.
public struct GridChangeSequence: AsyncSequence, Sendable {
    public typealias Element = GridChange

    /// What a check compares: the revision, and anything else that changes what the observer sees.
    struct Token: Equatable, Sendable {
        var revision: Int
        var registeredDefault: TileSize?
    }

    let interval: Duration
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

        public mutating func next() async throws -> GridChange? {
            guard let previous = last else {
                let (first, token) = try await sequence.run(sequence.load)
                last = (first, token)
                return GridChange(initial: first)
            }
            while true {
                do {
                    try await Task.sleep(for: sequence.interval)
                } catch {
                    return nil
                }
                if try await sequence.run(sequence.token) != previous.token {
                    let (current, token) = try await sequence.run(sequence.load)
                    last = (current, token)
                    return GridChange(from: previous.snapshot, to: current)
                }
            }
        }
    }

    /// The result of `body`, on the executor.
    private func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await executor.run(body)
    }
}
