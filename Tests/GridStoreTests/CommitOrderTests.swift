import CSQLite
import GridLayout
import GridStoreAudit
import Testing
@testable import GridStore
@testable import GridStoreSQLite

/// The order of a sync's commits between two files, on two threads (so `.ci/extra` runs it
/// under ThreadSanitizer, unlike the one-thread `Sync…Tests`): this side merges the other's
/// reply while the other commits, and commits only after it.
@Suite("The order of a sync's commits")
struct CommitOrderTests {
    let directory = TemporaryDirectory()

    /// Makes every COMMIT on `database`'s main connection fail (SQLite turns it into a rollback),
    /// or lets them through again.
    func refuseCommits(of database: GridDatabase, _ refusing: Bool) throws {
        let storage = try #require(database.backend as? SQLiteStorage)
        try storage.withConnection { connection in
            if refusing {
                _ = sqlite3_commit_hook(connection.handle, { _ in 1 }, nil)
            } else {
                _ = sqlite3_commit_hook(connection.handle, nil, nil)
            }
        }
    }

    @Test("the other file's COMMIT failing after it handed its reply over leaves this side without it; once it commits, a sync makes both equal",
          arguments: [false, true])
    func otherCommitFails(byRows: Bool) throws {
        let phone = try GridDatabase(path: directory.file("phone.sqlite")), tablet = try GridDatabase(path: directory.file("tablet.sqlite"))
        let onPhone = try Grid(named: "default", in: phone, creatingWith: GridOptions(sectionItemCounts: [40]))
        try onPhone.toggle(at: GridIndexPath(item: 1))
        _ = try phone.sync(with: tablet)
        let onTablet = try Grid(named: "default", in: tablet, creatingWith: nil)
        try onPhone.toggle(at: GridIndexPath(item: 5))
        if byRows {
            try onTablet.toggle(at: GridIndexPath(item: 9))
        } else {
            // A new tile is merged whole.
            try onTablet.update { try $0.insertItem(at: GridIndexPath(item: 0), size: .big, key: "mail") }
        }
        let before = (phone: try phone.content(), tablet: try tablet.content())
        let merges = (phone.mergesByRows.load(ordering: .relaxed), tablet.mergesByRows.load(ordering: .relaxed))
        try refuseCommits(of: tablet, true)
        let error = try #require(throws: GridError.self) { try phone.sync(with: tablet) }
        #expect("\(error)".contains("constraint failed"), "\(error)")
        // The tablet merged the phone's toggle, then failed at COMMIT; the phone had merged its
        // reply meanwhile (by rows when the tablet changed a size), and committed nothing.
        #expect(tablet.mergesByRows.load(ordering: .relaxed) == merges.1 + 1)
        #expect(phone.mergesByRows.load(ordering: .relaxed) == merges.0 + (byRows ? 1 : 0))
        try refuseCommits(of: tablet, false)
        #expect(try tablet.content() == before.tablet)
        #expect(try phone.content() == before.phone)
        let results = try phone.sync(with: tablet)
        #expect(results.first?.sent == 1 && (results.first?.received ?? 0) >= 1)
        #expect(try phone.content() == tablet.content())
        #expect(try phone.content() != before.phone && tablet.content() != before.tablet)
        #expect(try phone.sync(with: tablet).first.map { $0.sent + $0.received } == 0)
    }
}
