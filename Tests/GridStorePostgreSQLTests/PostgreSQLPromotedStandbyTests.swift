import Foundation
import GridLayout
import GridStoreAudit
import TestSupport
import Testing
@testable import GridStore
@testable import GridStorePostgreSQL
@testable import GridStoreSQLite

/// A hub's standby promoted to a primary while the old primary goes on (issue #43, item 5): a
/// physical clone of the hub, found out by the timeline the promotion starts, so the two never
/// make changes under one replica id.
@Suite("PostgreSQL: a standby promoted beside its primary", .enabled(if: PostgreSQLTestServer.shouldTest))
struct PostgreSQLPromotedStandbyTests {
    let directory = TemporaryDirectory()

    func file(_ name: String) throws -> GridDatabase { try GridDatabase(path: directory.file(name)) }

    @Test("a standby promoted while its primary goes on takes replica ids of its own: a change made on each reaches every device")
    func promotedBesidePrimary() throws {
        let server = try PostgreSQLTestServer(durable: true)
        defer { server.stop() }
        let direct = try server.makeDatabase()
        let primary = try GridDatabase(postgreSQL: direct)
        let phone = try file("phone.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: primary)
        try Grid(named: "default", in: primary).toggle(at: GridIndexPath(item: 2))
        _ = try phone.sync(with: primary)
        let replica = try #require(try Grid(named: "default", in: primary).syncReplicaID())

        try server.startStandby()
        // The standby reads as the database it replays.
        let standby = try GridDatabase(postgreSQL: server.standbyURL(database: PostgreSQLTestServer.databaseName(in: direct)))
        #expect(try Grid(named: "default", in: standby).syncCursor() == Grid(named: "default", in: primary).syncCursor())
        try server.promoteStandby()
        // The old primary goes on alone: it no longer waits for the standby at commit.
        try server.alterSystem("synchronous_standby_names", "")
        let promoted = standby

        // A change on each, the primary's first: before the timeline told them apart, both were
        // the hub's replica, and a device that had the later one took the earlier for known.
        try Grid(named: "default", in: primary).setSize(.big, at: GridIndexPath(item: 4))
        try Grid(named: "default", in: promoted).setSize(.middle, at: GridIndexPath(item: 6))
        let laptop = try file("laptop.sqlite"), tablet = try file("tablet.sqlite")
        _ = try laptop.sync(with: primary)
        _ = try tablet.sync(with: promoted)
        #expect(try Grid(named: "default", in: primary).syncReplicaID() == replica)
        #expect(try Grid(named: "default", in: promoted).syncReplicaID() != replica)
        for _ in 0..<2 {
            _ = try laptop.sync(with: tablet)
            _ = try laptop.sync(with: primary)
            _ = try tablet.sync(with: promoted)
            _ = try phone.sync(with: laptop)
        }
        let merged = try laptop.content()
        #expect(merged.sections[0][1] == .middle && merged.sections[0][2] == .middle, "\(merged.sections[0])")
        #expect(merged.sections[0][4] == .big && merged.sections[0][6] == .middle, "\(merged.sections[0])")
        for database in [phone, tablet, primary, promoted] { #expect(try database.content() == merged) }
        for database in [phone, laptop, tablet, primary, promoted] {
            #expect(try Grid(named: "default", in: database).syncConflicts().isEmpty)
        }
    }

    @Test("an identity an earlier gridstore recorded (system identifier and oid, no timeline) still names the database, and the sync records the timeline")
    func identityWithoutTimeline() throws {
        let server = try PostgreSQLTestServer.shared()
        let url = try server.makeDatabase()
        let hub = try GridDatabase(postgreSQL: url)
        let phone = try file("phone.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: hub)
        let replica = try Grid(named: "default", in: hub).syncReplicaID()
        let connection = try PostgreSQLConnection(PostgreSQLLocation(url)!)
        let recorded = try connection.execute("SELECT storage_identity FROM replica").string(0, 0)
        let fields = recorded.split(separator: ":", omittingEmptySubsequences: false)
        #expect(fields.count == 3 && fields[2].count == 8, "\(recorded)")
        _ = try connection.execute("UPDATE replica SET storage_identity = $1", [fields.prefix(2).joined(separator: ":")])
        try Grid(named: "default", in: hub).toggle(at: GridIndexPath(item: 2))
        _ = try phone.sync(with: hub)
        #expect(try Grid(named: "default", in: hub).syncReplicaID() == replica)
        #expect(try connection.execute("SELECT storage_identity FROM replica").string(0, 0) == recorded)
        #expect(try phone.content() == hub.content())
    }

    @Test("a role that may not call pg_current_wal_lsn(), pg_walfile_name() or pg_control_system() syncs all the same, its identity without them")
    func roleWithoutPrivileges() throws {
        let server = try PostgreSQLTestServer.shared()
        let url = try server.makeDatabase()
        let name = PostgreSQLTestServer.databaseName(in: url)
        let admin = try PostgreSQLConnection(PostgreSQLLocation(url)!)
        let role = "limited_\(name)"
        _ = try admin.execute("CREATE ROLE \(role) LOGIN")
        _ = try admin.execute("ALTER DATABASE \(name) OWNER TO \(role)")
        for function in ["pg_current_wal_lsn()", "pg_walfile_name(pg_lsn)", "pg_control_system()"] {
            _ = try admin.execute("REVOKE EXECUTE ON FUNCTION \(function) FROM PUBLIC")
        }
        let hub = try GridDatabase(postgreSQL: url.replacing("postgresql://\(server.user)@", with: "postgresql://\(role)@"))
        let phone = try file("phone.sqlite")
        try Grid(named: "default", in: phone).toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: hub)
        try Grid(named: "default", in: hub).toggle(at: GridIndexPath(item: 2))
        _ = try phone.sync(with: hub)
        #expect(try phone.content() == hub.content() && hub.content().sections[0][2] == .middle)
        #expect(try Grid(named: "default", in: hub).syncCursor() == Grid(named: "default", in: phone).syncCursor())
        let recorded = try admin.execute("SELECT storage_identity FROM replica").string(0, 0)
        #expect(recorded.hasPrefix(":") && recorded.split(separator: ":").count == 1, "\(recorded)")
    }
}
