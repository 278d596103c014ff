import Testing
@testable import GridStore

/// Work on a thread of its own handing a value over before it ends (`HandOver`).
@Suite("Hand-over of a value before the work ends")
struct HandOverTests {
    struct Refused: Error, Equatable {}

    @Test("the value handed over reaches the caller while the work still runs; end() waits for the end and says which hand-over it ended with")
    func valueBeforeEnd() throws {
        let release = PlatformLock()
        let released = Locked(false)
        let work = HandOver<Int> { handOver in
            handOver(7)
            // Held until the caller has the value: the caller did not wait for the end.
            release.withLock { while !released.withLock({ $0 }) { _ = release.wait() } }
            return 7
        }
        let first = try work.value()
        #expect(first.value == 7 && first.number == 1)
        release.withLock {
            released.withLock { $0 = true }
            release.broadcast()
        }
        let end = try work.end()
        #expect(end.value == 7 && end.number == 1)
        #expect(try work.end().number == 1)
    }

    @Test("work asked to run on the caller's thread has ended when the hand-over is made, on that thread")
    func onThisThread() throws {
        let caller = Platform.ThreadMark()
        caller.set(true)
        defer { caller.set(false) }
        let ranHere = Locked(false)
        let work = HandOver<Int>(onThisThread: true) { handOver in
            ranHere.withLock { $0 = caller.isSet }
            handOver(3)
            return 3
        }
        #expect(ranHere.withLock { $0 })
        #expect(try work.end().value == 3 && work.end().number == 1)
    }

    @Test("work that ends without handing a value over gives its value as hand-over 0, or its error to both calls")
    func endWithoutHandOver() throws {
        let quiet = HandOver<String> { _ in "done" }
        #expect(try quiet.value().value == "done" && quiet.value().number == 0)
        #expect(try quiet.end().number == 0)
        let failing = HandOver<String> { _ in throw Refused() }
        #expect(throws: Refused()) { try failing.value() }
        #expect(throws: Refused()) { try failing.end() }
    }

    @Test("a value handed over, then an error: the caller has the value, and end() throws what the work threw")
    func failsAfterHandOver() throws {
        let work = HandOver<Int> { handOver in
            handOver(1)
            throw Refused()
        }
        #expect(throws: Refused()) { try work.end() }
        #expect(try work.value().value == 1)
    }

    @Test("work run again hands over again: end() names the later hand-over, so a caller that took the first can tell")
    func handedOverTwice() throws {
        let work = HandOver<Int> { handOver in
            handOver(1)
            handOver(2)
            return 2
        }
        let end = try work.end()
        #expect(end.value == 2 && end.number == 2)
    }

    @Test("work started inside a database's transaction that calls that database is refused as nested, as the caller would be")
    func nestedCallRefused() throws {
        let database = GridDatabase.inMemory()
        let grid = try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [4]))
        try database.storageWrite { _ in
            let work = HandOver<Int> { _ in try grid.snapshot().revision }
            #expect(throws: GridError.reentrantCall) { try work.end() }
        }
    }
}
