import CLibPQ

/// One connection to a PostgreSQL server, through libpq.
///
/// Every value reaches the server as a bound parameter of a prepared statement (text
/// format); no value is ever spliced into SQL text. Statements run with
/// ``execute(_:_:)`` are prepared once per session and reused. A connection is used from
/// one thread at a time; ``PostgreSQLStorage`` wraps it in a lock.
///
/// ```swift
/// let connection = try PostgreSQLConnection(PostgreSQLLocation("postgresql:///grids")!)
/// let rows = try connection.execute("SELECT name FROM grids WHERE revision > $1", ["3"])
/// ```
package final class PostgreSQLConnection {
    /// How long a statement waits for another transaction's lock, unless the connection
    /// URI sets `lock_timeout` itself: 10 seconds, as SQLite's busy timeout.
    package static let defaultLockTimeout = "10s"

    /// How long connecting waits, in seconds, unless the URI or `PGCONNECT_TIMEOUT` say otherwise.
    package static let defaultConnectTimeoutSeconds = "10"

    private let libpq: LibPQ
    private var handle: OpaquePointer
    private var preparedNames: [String: String] = [:]

    /// Where the connection goes.
    package let location: PostgreSQLLocation

    /// The server's name in messages, without a password.
    package var server: String { location.displayName }

    /// Connects to the server `location` names.
    ///
    /// - Throws: ``PostgreSQLError`` naming the server when it cannot be reached or refuses the connection.
    package init(_ location: PostgreSQLLocation) throws(PostgreSQLError) {
        self.location = location
        switch LibPQ.shared {
        case .success(let library): libpq = library
        case .failure(let error): throw PostgreSQLError(sqlState: nil, message: error.message, server: location.displayName)
        }
        handle = try Self.connect(libpq, to: location)
        try configure()
    }

    deinit {
        libpq.finish(handle)
    }

    /// Whether the connection is usable; `false` after the server went away.
    package var isOpen: Bool { libpq.status(handle) == CONNECTION_OK }

    /// Connects again with the same parameters after the server went away.
    ///
    /// - Throws: ``PostgreSQLError`` when the server still cannot be reached.
    package func reconnect() throws(PostgreSQLError) {
        let fresh = try Self.connect(libpq, to: location)
        libpq.finish(handle)
        handle = fresh
        preparedNames.removeAll()
        try configure()
    }

    /// Opens a connection, step by step so that a notice the server sends while it starts (a
    /// "terminating connection" warning during a shutdown) reaches the silent receiver rather
    /// than libpq's default, which prints it on standard error.
    private static func connect(_ libpq: LibPQ, to location: PostgreSQLLocation) throws(PostgreSQLError) -> OpaquePointer {
        // Keywords given before "dbname" yield to the URI's own; environment variables are
        // read by libpq for what neither sets, so ours are left out when one is set.
        var parameters: [(String, String)] = []
        if Platform.environment("PGAPPNAME") == nil { parameters.append(("application_name", "gridstore")) }
        parameters.append(("dbname", location.uri))
        let started = Platform.withCStrings(parameters.map(\.0)) { keywords in
            Platform.withCStrings(parameters.map(\.1)) { values in
                libpq.connectStartParams(keywords, values, 1)
            }
        }
        guard let connection = started else {
            throw PostgreSQLError(sqlState: nil, message: "out of memory", server: location.displayName)
        }
        _ = libpq.setNoticeReceiver(connection, { _, _ in }, nil)
        let deadline = Platform.monotonicMilliseconds() + Self.connectTimeout(libpq, connection)
        var state = PGRES_POLLING_WRITING
        while libpq.status(connection) != CONNECTION_BAD && state != PGRES_POLLING_OK && state != PGRES_POLLING_FAILED {
            let remaining = deadline - Platform.monotonicMilliseconds()
            guard remaining > 0 else {
                libpq.finish(connection)
                throw PostgreSQLError(sqlState: nil, message: "timeout expired while connecting", server: location.displayName)
            }
            if Platform.wait(for: libpq.socket(connection), writable: state != PGRES_POLLING_READING, milliseconds: remaining) {
                state = libpq.connectPoll(connection)
            }
        }
        guard libpq.status(connection) == CONNECTION_OK else {
            let message = location.redacting(String(cString: libpq.errorMessage(connection)!))
            libpq.finish(connection)
            throw PostgreSQLError(sqlState: nil, message: message, server: location.displayName)
        }
        return connection
    }

    /// Milliseconds to wait for a connection: the URI's `connect_timeout`, else `PGCONNECT_TIMEOUT`
    /// (libpq reads both into the connection's options), else ``defaultConnectTimeoutSeconds``.
    private static func connectTimeout(_ libpq: LibPQ, _ connection: OpaquePointer) -> Int {
        var seconds = Int(defaultConnectTimeoutSeconds)!
        if let options = libpq.conninfo(connection) {
            var option = options
            while let keyword = option.pointee.keyword {
                if String(cString: keyword) == "connect_timeout", let value = option.pointee.val,
                   let given = Int(String(cString: value)), given > 0 {
                    seconds = max(2, given)  // libpq's own minimum
                }
                option += 1
            }
            libpq.conninfoFree(options)
        }
        return seconds * 1_000
    }

    /// Sets the session's defaults once connected.
    private func configure() throws(PostgreSQLError) {
        _ = libpq.setNoticeReceiver(handle, { _, _ in }, nil)
        try execute("SELECT set_config('lock_timeout', $1, false) WHERE current_setting('lock_timeout') = '0'",
                    [Self.defaultLockTimeout])
    }

    // MARK: Statements

    /// Runs one statement with `parameters` bound to `$1`, `$2`, …, preparing it on first use.
    ///
    /// - Parameter parameters: Each value in PostgreSQL's text form, or `nil` for `NULL`.
    /// - Returns: The rows, if the statement returns any.
    @discardableResult
    package func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgreSQLError) -> PostgreSQLResult {
        let name = try preparedName(for: sql, parameterCount: parameters.count)
        let result = Platform.withOptionalCStrings(parameters) { values in
            libpq.execPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0)
        }
        return try check(result)
    }

    /// Runs a script of statements without parameters (a migration, `BEGIN`, `COMMIT`).
    package func executeScript(_ sql: String) throws(PostgreSQLError) {
        _ = try check(libpq.exec(handle, sql))
    }

    private func preparedName(for sql: String, parameterCount: Int) throws(PostgreSQLError) -> String {
        if let name = preparedNames[sql] { return name }
        let name = "gridstore_\(preparedNames.count + 1)"
        _ = try check(libpq.prepare(handle, name, sql, Int32(parameterCount), nil))
        preparedNames[sql] = name
        return name
    }

    /// Wraps a result, or throws the error it carries.
    private func check(_ result: OpaquePointer?) throws(PostgreSQLError) -> PostgreSQLResult {
        guard let result else { throw connectionError() }
        let status = libpq.resultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY else {
            let error = Self.error(of: result, libpq, server: server, fallback: connectionError())
            libpq.clear(result)
            throw error
        }
        return PostgreSQLResult(result, libpq)
    }

    private func connectionError() -> PostgreSQLError {
        PostgreSQLError(sqlState: nil, message: location.redacting(String(cString: libpq.errorMessage(handle)!)), server: server)
    }

    private static func error(of result: OpaquePointer, _ libpq: LibPQ, server: String,
                              fallback: PostgreSQLError) -> PostgreSQLError {
        func field(_ code: UInt8) -> String? {
            libpq.resultErrorField(result, Int32(code)).map { String(cString: $0) }
        }
        guard let sqlState = field(UInt8(ascii: "C")) else { return fallback }
        return PostgreSQLError(sqlState: sqlState, message: field(UInt8(ascii: "M")) ?? "unknown error", server: server)
    }
}
