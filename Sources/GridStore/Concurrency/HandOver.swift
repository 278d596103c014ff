/// Work run on a thread of its own that hands a value over before it ends: the caller goes on
/// with the value while the work finishes (a transaction's commit waiting for its disk), and
/// asks how it ended before doing what depends on that.
///
/// The work may hand values over more than once (a transaction its server made run again);
/// ``end()`` says which hand-over the value it ended with was, so a caller that went on with an
/// earlier one can tell.
///
/// The work runs while the caller waits or goes on, so it must not share anything the caller
/// changes; the caller must call ``end()`` before what the work uses goes away.
package final class HandOver<Value>: @unchecked Sendable {
    // @unchecked: `handed`, `handOvers`, `ended` and `work` are read and written holding `lock`;
    // a value moves from the work's thread to the caller's through the lock.
    private let lock = PlatformLock()
    private var handed: (value: Value, number: Int)?
    private var handOvers = 0
    private var ended: Result<(value: Value, number: Int), any Error>?
    /// The work, until it runs: let go before its end is told, so that what it holds (a
    /// database) never goes with its thread after the caller went on.
    private var work: Work?

    /// Starts `work` on a thread of its own, with the function it hands a value over with; what
    /// it returns or throws is how it ended.
    ///
    /// - Parameter onThisThread: Whether to run the work on the caller's thread, before
    ///   returning, for a caller that would only wait for its end. It runs there too when no
    ///   thread can be made.
    package init(onThisThread: Bool = false, _ work: @escaping (_ handOver: (Value) -> Void) throws -> Value) {
        self.work = Work(body: work)
        // The work holds what the caller's call holds: a call it makes that the caller could
        // not make (inside the caller's transaction on that database) is refused as nested.
        let scope = CallScope.held
        if onThisThread || !Platform.startThread({ [self] in CallScope.adopting(scope) { run() } }) { run() }
    }

    private struct Work: @unchecked Sendable {
        // @unchecked: the work runs on one thread, while the caller holds what it uses (see the type's documentation).
        let body: (_ handOver: (Value) -> Void) throws -> Value
    }

    private func run() {
        let result = perform(lock.withLock {
            let taken = work!
            work = nil
            return taken
        })
        lock.withLock {
            ended = result.map { ($0, handOvers) }
            lock.broadcast()
        }
    }

    /// Runs `work`, which is let go when this returns.
    private func perform(_ work: consuming Work) -> Result<Value, any Error> {
        Result { () throws -> Value in
            try work.body { value in
                lock.withLock {
                    handOvers += 1
                    handed = (value, handOvers)
                    lock.broadcast()
                }
            }
        }
    }

    /// Waits for the latest value handed over, or for the work to end: the value and which
    /// hand-over it was (the value the work ended with, when it handed none over).
    ///
    /// - Throws: What the work threw, when it ended without handing a value over.
    package func value() throws -> (value: Value, number: Int) {
        try lock.withLock {
            while handed == nil && ended == nil { _ = lock.wait() }
            if let handed { return handed }
            return try ended!.get()
        }
    }

    /// Waits for the work to end: the value it returned and which hand-over that was (0 when it
    /// handed none over). Each call after the first returns at once.
    ///
    /// - Throws: What the work threw.
    @discardableResult
    package func end() throws -> (value: Value, number: Int) {
        try lock.withLock {
            while ended == nil { _ = lock.wait() }
            return try ended!.get()
        }
    }
}
