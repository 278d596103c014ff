/// The storage a test runs against: an SQLite file or a database on the test PostgreSQL server.
public enum Backend: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgreSQL

    public var description: String { rawValue }

    /// Every backend, PostgreSQL only where it is installed or required (``PostgreSQLTestServer/shouldTest``).
    public static var all: [Backend] { PostgreSQLTestServer.shouldTest ? allCases : [.sqlite] }

    /// A new, empty database: a file path in `directory`, or the URI of a new database on the shared server.
    public func database(in directory: TemporaryDirectory, name: String = "grids.sqlite") throws -> String {
        switch self {
        case .sqlite: directory.file(name)
        case .postgreSQL: try PostgreSQLTestServer.shared().makeDatabase()
        }
    }
}
