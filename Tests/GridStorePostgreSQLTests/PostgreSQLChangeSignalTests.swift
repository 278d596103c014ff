import Foundation
import GridLayout
import TestSupport
import Testing
@testable import GridStore
@testable import GridStorePostgreSQL

/// A change notifies observers only while one listens: PostgreSQL serializes the commits of
/// every notifying transaction in the cluster, so a change nobody observes must not notify.
@Suite("PostgreSQL change signal", .enabled(if: PostgreSQLTestServer.shouldTest))
struct PostgreSQLChangeSignalTests {
    @Test("a change notifies only while a gridstore listener listens; a bare LISTEN alone hears nothing")
    func notifiesOnlyWhileListened() throws {
        let uri = try PostgreSQLTestServer.shared().makeDatabase()
        let location = try #require(PostgreSQLLocation(uri))
        let database = try GridDatabase(postgreSQL: uri)
        let grid = try Grid(named: "g", in: database, creatingWith: GridOptions(sectionItemCounts: [4]))
        let bare = try PostgreSQLConnection(location)
        try bare.execute("LISTEN \(PostgreSQLChangeSignal.channel)")
        try grid.toggle(at: GridIndexPath(item: 0))
        // Nothing to hear: the change found no listener's lock. (A wait that can only let a
        // notification through, never invent one.)
        #expect(try !bare.waitForNotification(milliseconds: 500))
        // With a listener, the same change notifies every LISTEN on the channel, the bare one too.
        let signal = try PostgreSQLChangeSignal(location)
        try grid.toggle(at: GridIndexPath(item: 1))
        #expect(try signal.waitForChange(milliseconds: 30_000))
        #expect(try bare.waitForNotification(milliseconds: 30_000))
        // No lock is left behind by a change: a listener takes the writers' lock alone at once.
        let probe = try PostgreSQLConnection(location)
        #expect(try probe.execute("SELECT pg_try_advisory_lock(\(PostgreSQLChangeSignal.writersKey))").string(0, 0) == "t")
    }

    @Test("a listener starts only once every change in flight has committed: one held past the wait fails its start, leaving no lock")
    func listenerWaitsForChangesInFlight() throws {
        let uri = try PostgreSQLTestServer.shared().makeDatabase()
        let location = try #require(PostgreSQLLocation(uri))
        // A change in flight: it holds the writers' lock, and found no listener.
        let writer = try PostgreSQLConnection(location)
        try writer.execute("BEGIN")
        for statement in PostgreSQLChangeSignal.notifyWhenListened { _ = try writer.execute(statement) }
        #expect(throws: PostgreSQLError.self) { _ = try PostgreSQLChangeSignal(location) }
        // The failed start holds nothing: no listener's lock (a change would notify) and no
        // writers' lock (a change would wait).
        let probe = try PostgreSQLConnection(location)
        #expect(try probe.execute("SELECT pg_try_advisory_lock(\(PostgreSQLChangeSignal.listenersKey))").string(0, 0) == "t")
        try probe.execute("SELECT pg_advisory_unlock(\(PostgreSQLChangeSignal.listenersKey))")
        try writer.execute("COMMIT")
        let signal = try PostgreSQLChangeSignal(location)
        #expect(try probe.execute("SELECT pg_try_advisory_lock(\(PostgreSQLChangeSignal.writersKey))").string(0, 0) == "t")
        #expect(try probe.execute("SELECT pg_try_advisory_lock(\(PostgreSQLChangeSignal.listenersKey))").string(0, 0) == "f")
        _ = signal
    }
}
