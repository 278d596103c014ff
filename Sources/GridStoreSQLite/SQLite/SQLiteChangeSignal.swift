import GridStore

/// An SQLite file's change signal: its `data_version`, read on a connection of its own, moves
/// whenever another connection (of this process or any other) commits to the file.
///
/// One per database, read by the database's one watch loop every few milliseconds: the read
/// looks at the write-ahead log's index in shared memory, not at the file.
final class SQLiteChangeSignal: GridChangeSignal, @unchecked Sendable {
    // @unchecked: used by the one watch loop only.
    private let connection: SQLiteConnection
    private var version: Int

    /// How long the loop sleeps between two reads of `data_version`.
    static let pollMilliseconds = 5

    init(connection: SQLiteConnection) throws {
        self.connection = connection
        version = 0
        version = try dataVersion()
    }

    func waitForChange(milliseconds: Int) throws -> Bool {
        let deadline = Platform.monotonicMilliseconds() + milliseconds
        while true {
            let current = try dataVersion()
            if current != version {
                version = current
                return true
            }
            if Platform.monotonicMilliseconds() >= deadline { return false }
            Platform.sleep(milliseconds: Self.pollMilliseconds)
        }
    }

    private func dataVersion() throws -> Int {
        try connection.fetchOne("PRAGMA data_version") { $0.int(at: 0) } ?? 0
    }
}

extension SQLiteStorage {
    package func makeChangeSignal() throws -> (any GridChangeSignal)? {
        try SQLiteChangeSignal(connection: Self.openExisting(at: path, changingFile: false,
                                                             verifyingOwnership: ownership == .gridStoreFile) { _ in })
    }
}
