extension Grid {
    /// Whether the grid changed since `revision`, in this process or any other.
    public func hasChanged(since revision: Int) throws -> Bool {
        try currentRevision() != revision
    }

    /// The grid's states as it changes: the current one first, then a new one whenever
    /// the revision moves, whichever process changed it.
    ///
    /// gridstore polls the revision (one indexed read) every `interval`; a change made by
    /// another process is seen within one interval. Several changes within one interval
    /// arrive as one snapshot of the latest state. The stream ends with an error if the
    /// grid is dropped or the database fails, and stops polling when the consumer stops
    /// iterating.
    ///
    /// ```swift
    /// for try await snapshot in grid.changes() {
    ///     redraw(snapshot.layout)
    /// }
    /// ```
    public func changes(pollingEvery interval: Duration = .milliseconds(100)) -> AsyncThrowingStream<GridSnapshot, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var last = try snapshot()
                    continuation.yield(last)
                    while !Task.isCancelled {
                        try await Task.sleep(for: interval)
                        if try currentRevision() != last.revision {
                            last = try snapshot()
                            continuation.yield(last)
                        }
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
