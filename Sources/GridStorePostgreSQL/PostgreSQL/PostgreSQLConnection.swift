import CLibPQ

/// One connection to a PostgreSQL server, through libpq.
///
/// Every value reaches the server as a bound parameter of a prepared statement (in text
/// format, arrays in binary); no value is ever spliced into SQL text. Statements run with
/// ``execute(_:_:)`` are prepared once per session and reused; behind a pooler in
/// transaction mode (``PostgreSQLLocation/PoolMode/transaction``) each is sent as an unnamed
/// statement instead, parsed with its parameters in the same round trip. Statements whose rows are not
/// needed can be queued with ``enqueue(_:_:)`` and go with the next one that is, in one
/// round trip (libpq's pipeline mode). A connection is used from one thread at a time;
/// ``PostgreSQLConnectionPool`` hands it out.
///
/// No round trip waits for the server forever. The session's `statement_timeout` bounds
/// each statement on the server (gridstore sets 60 seconds unless the URI's `options` or
/// `PGOPTIONS` set another, as for any libpq program); the client waits for an answer that
/// long and ``answerGraceMilliseconds`` more, through libpq's non-blocking calls, so a server
/// that stopped answering (a stalled backend, a network that drops packets) gives a one-line
/// error naming it. The connection is then shut down: the server ends the statement and rolls
/// its transaction back when it notices, and the next call connects again.
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

    /// How long a statement may run on the server, unless the URI or `PGOPTIONS` set
    /// `statement_timeout` itself: 60 seconds, as SQLite's operation limit.
    package static let defaultStatementTimeout = "60s"

    /// How much longer than the session's `statement_timeout` the client waits for an answer
    /// before it gives up on the server: 5 seconds, room for the server's own cancellation to arrive.
    package static let answerGraceMilliseconds = 5_000

    private let libpq: LibPQ
    private var handle: OpaquePointer
    /// The statements prepared in this session: their names by SQL text.
    private var preparedNames: [String: String] = [:]
    /// The session's `statement_timeout`, in milliseconds, as read when it was configured.
    private var statementTimeoutMilliseconds = 60_000
    /// The settings each transaction sets for itself (`SET LOCAL`), behind a pooler in
    /// transaction mode: the session's defaults that gridstore would otherwise set once.
    private var transactionSettings: [String?] = []
    /// The server's notices and warnings since ``takeNotices()`` was last called (at most 8).
    private var notices: [String] = []
    /// Whether the connection was shut down after the server did not answer in time.
    private var abandoned = false
    /// The SQL that reads the database's storage identity with what this session's role may
    /// call, once read (``PostgreSQLGridTransaction/identity(on:)``); `nil` until then, and again
    /// after a reconnection.
    package var storageIdentitySQL: String?
    /// While the connection is set up: how long an answer may take, in place of ``answerDeadlineMilliseconds``.
    private var settingUpMilliseconds: Int?

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

    /// How long setting a new connection up may take: what connecting may (`connect_timeout`).
    private func settingUp<T>(_ body: () throws(PostgreSQLError) -> T) throws(PostgreSQLError) -> T {
        settingUpMilliseconds = Self.connectTimeout(libpq, handle)
        defer { settingUpMilliseconds = nil }
        return try body()
    }

    deinit {
        libpq.finish(handle)
    }

    /// Whether the connection was shut down because the server did not answer in time (or
    /// answered what was not asked), rather than dropped by the server.
    package var wasAbandoned: Bool { abandoned }

    /// Whether the connection is usable; `false` after the server went away or stopped answering.
    package var isOpen: Bool { !abandoned && libpq.status(handle) == CONNECTION_OK }

    /// How long the client waits for one answer: the session's `statement_timeout` and
    /// ``answerGraceMilliseconds`` more.
    package var answerDeadlineMilliseconds: Int {
        settingUpMilliseconds ?? statementTimeoutMilliseconds + Self.answerGraceMilliseconds
    }

    /// Connects again with the same parameters after the server went away.
    ///
    /// - Throws: ``PostgreSQLError`` when the server still cannot be reached.
    package func reconnect() throws(PostgreSQLError) {
        let fresh = try Self.connect(libpq, to: location)
        libpq.finish(handle)
        handle = fresh
        abandoned = false
        preparedNames.removeAll()
        queued.removeAll()
        storageIdentitySQL = nil
        try configure()
    }

    /// Opens a connection, step by step so that a notice the server sends while it starts (a
    /// "terminating connection" warning during a shutdown) reaches the silent receiver rather
    /// than libpq's default, which prints it on standard error.
    ///
    /// A URI of several hosts (a primary and its standbys) is tried host by host, in order, as
    /// libpq would, but each host within its own `connect_timeout`, so a host that does not answer
    /// at all is passed over for the next; `target_session_attrs` is checked on each by libpq
    /// (`prefer-standby` as libpq means it: every host for a standby first, then every host for
    /// any server), and `load_balance_hosts=random` (libpq 16 on) shuffles the hosts.
    private static func connect(_ libpq: LibPQ, to location: PostgreSQLLocation) throws(PostgreSQLError) -> OpaquePointer {
        // Keywords given before "dbname" yield to the URI's own; environment variables are
        // read by libpq for what neither sets, so ours are left out when one is set.
        var parameters: [(String, String)] = []
        if Platform.environment("PGAPPNAME") == nil { parameters.append(("application_name", "gridstore")) }
        parameters.append(("dbname", location.libpqURI))
        try checkURI(libpq, location)
        let connection = try start(libpq, parameters, location)
        guard var attempts = hostAttempts(libpq, connection) else { return try finishConnecting(connection, libpq, location) }
        if option("load_balance_hosts", libpq, connection) == "random" { attempts.shuffle() }
        if option("target_session_attrs", libpq, connection) == "prefer-standby" {
            // With one host per attempt libpq would take a primary at once: standbys first, across all hosts.
            attempts = attempts.map { $0 + [("target_session_attrs", "standby")] } + attempts.map { $0 + [("target_session_attrs", "any")] }
        }
        libpq.finish(connection)
        var failures: [String] = []
        for attempt in attempts {
            // Keywords after "dbname" override the URI's: one host (and its address and port) at a time.
            do throws(PostgreSQLError) {
                return try finishConnecting(try start(libpq, parameters + attempt, location), libpq, location)
            } catch {
                // libpq's messages name the server; a timeout of this type's own does not.
                let host = attempt.filter { $0.0 != "target_session_attrs" }.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
                failures.append(error.message.hasPrefix("connection to server") ? error.message : "\(host): \(error.message)")
            }
        }
        throw PostgreSQLError(sqlState: nil, message: failures.joined(separator: "; "), server: location.displayName)
    }

    /// Refuses a URI libpq cannot parse (a misspelt parameter such as `sslmod`) as what it is,
    /// not as a server that cannot be reached; a value libpq refuses (`sslmode=bogus`) is found
    /// when the connection starts, and said the same way.
    private static func checkURI(_ libpq: LibPQ, _ location: PostgreSQLLocation) throws(PostgreSQLError) {
        var message: UnsafeMutablePointer<CChar>?
        let options = location.libpqURI.withCString { libpq.conninfoParse($0, &message) }
        defer { if let message { libpq.freemem(message) } }
        guard let options else {
            // libpq quotes the URI, or the piece it could not read, which may hold the password.
            throw .invalidLocation(location.redacting(message.map { String(cString: $0) } ?? "out of memory"), server: location.displayName)
        }
        libpq.conninfoFree(options)
    }

    /// A connection libpq has started making, with the silent notice receiver.
    private static func start(_ libpq: LibPQ, _ parameters: [(String, String)],
                              _ location: PostgreSQLLocation) throws(PostgreSQLError) -> OpaquePointer {
        let started = Platform.withCStrings(parameters.map(\.0)) { keywords in
            Platform.withCStrings(parameters.map(\.1)) { values in
                libpq.connectStartParams(keywords, values, 1)
            }
        }
        guard let connection = started else {
            throw PostgreSQLError(sqlState: nil, message: "out of memory", server: location.displayName)
        }
        // A value libpq refuses (`invalid sslmode value`) fails the start itself, before any server is tried.
        if libpq.status(connection) == CONNECTION_BAD, let text = libpq.errorMessage(connection).map({ String(cString: $0) }),
           text.hasPrefix("invalid ") {
            libpq.finish(connection)
            throw .invalidLocation(location.redacting(text), server: location.displayName)
        }
        _ = libpq.setNoticeReceiver(connection, { _, _ in }, nil)
        return connection
    }

    /// For a connection to several hosts, the keywords of each host in turn (`host`, `hostaddr`
    /// and `port`, as libpq pairs them: one port serves every host); `nil` for a single host.
    private static func hostAttempts(_ libpq: LibPQ, _ connection: OpaquePointer) -> [[(String, String)]]? {
        func list(_ keyword: String) -> [String] {
            guard let value = option(keyword, libpq, connection), !value.isEmpty else { return [] }
            return value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let hosts = list("host"), addresses = list("hostaddr"), ports = list("port")
        let count = max(hosts.count, addresses.count)
        // libpq itself refuses lists whose lengths do not pair up; an empty entry means its
        // default, which an override cannot say: both are left to libpq (it connects, or says why).
        guard count > 1, hosts.isEmpty || hosts.count == count, addresses.isEmpty || addresses.count == count,
              ports.count <= 1 || ports.count == count,
              !(hosts + addresses + ports).contains(where: \.isEmpty) else { return nil }
        return (0..<count).map { index in
            var keywords: [(String, String)] = []
            if !hosts.isEmpty { keywords.append(("host", hosts[index])) }
            if !addresses.isEmpty { keywords.append(("hostaddr", addresses[index])) }
            if !ports.isEmpty { keywords.append(("port", ports.count == 1 ? ports[0] : ports[index])) }
            return keywords
        }
    }

    /// Waits for libpq to finish making `connection`, within `connect_timeout`.
    private static func finishConnecting(_ connection: OpaquePointer, _ libpq: LibPQ,
                                         _ location: PostgreSQLLocation) throws(PostgreSQLError) -> OpaquePointer {
        let deadline = GridStore.Platform.monotonicMilliseconds() + Self.connectTimeout(libpq, connection)
        var state = PGRES_POLLING_WRITING
        while libpq.status(connection) != CONNECTION_BAD && state != PGRES_POLLING_OK && state != PGRES_POLLING_FAILED {
            let remaining = deadline - GridStore.Platform.monotonicMilliseconds()
            guard remaining > 0 else {
                libpq.finish(connection)
                throw PostgreSQLError(sqlState: nil, message: "timeout expired while connecting", server: location.displayName)
            }
            if Platform.wait(for: libpq.socket(connection), writable: state != PGRES_POLLING_READING, milliseconds: remaining) {
                state = libpq.connectPoll(connection)
            }
        }
        return try established(connection, libpq, location)
    }

    /// `connection` once libpq is done connecting it; finished, and its failure thrown in one
    /// line without a password, when it did not connect.
    private static func established(_ connection: OpaquePointer, _ libpq: LibPQ,
                                    _ location: PostgreSQLLocation) throws(PostgreSQLError) -> OpaquePointer {
        guard libpq.status(connection) == CONNECTION_OK else {
            let message = location.redacting(String(cString: libpq.errorMessage(connection)!))
            libpq.finish(connection)
            throw PostgreSQLError(sqlState: nil, message: message, server: location.displayName)
        }
        return connection
    }

    /// The value libpq settled on for connection option `keyword` (from the URI, the environment or its default).
    private static func option(_ keyword: String, _ libpq: LibPQ, _ connection: OpaquePointer) -> String? {
        guard let options = libpq.conninfo(connection) else { return nil }
        defer { libpq.conninfoFree(options) }
        var option = options
        while let name = option.pointee.keyword {
            if String(cString: name) == keyword { return option.pointee.val.map { String(cString: $0) } }
            option += 1
        }
        return nil
    }

    /// Milliseconds to wait for a connection: the URI's `connect_timeout`, else `PGCONNECT_TIMEOUT`
    /// (libpq reads both into the connection's options), else ``defaultConnectTimeoutSeconds``.
    private static func connectTimeout(_ libpq: LibPQ, _ connection: OpaquePointer) -> Int {
        guard let given = option("connect_timeout", libpq, connection).flatMap({ Int($0) }), given > 0 else {
            return Int(defaultConnectTimeoutSeconds)! * 1_000
        }
        return max(2, given) * 1_000  // libpq's own minimum
    }

    /// Sets the session's defaults once connected, in one round trip, and reads the statement
    /// timeout that bounds the client's waits.
    private func configure() throws(PostgreSQLError) {
        // Warnings are kept for the caller that asks (a COMMIT whose wait for a synchronous standby
        // was cancelled succeeds with one); none is printed.
        _ = libpq.setNoticeReceiver(handle, { context, result in
            guard let context, case .success(let libpq) = LibPQ.shared,
                  let message = libpq.resultErrorField(result, Int32(UInt8(ascii: "M"))) else { return }
            let connection = Unmanaged<PostgreSQLConnection>.fromOpaque(context).takeUnretainedValue()
            if connection.notices.count < 8 { connection.notices.append(String(cString: message)) }
        }, Unmanaged.passUnretained(self).toOpaque())
        guard libpq.setNonblocking(handle, 1) == 0 else { throw connectionError() }
        guard location.poolMode == .session else { return try configureTransactions() }
        // Constants of this type's, not values: the one script without parameters besides BEGIN and COMMIT.
        // Part of connecting, so bounded as connecting is.
        let setting = try settingUp { () throws(PostgreSQLError) in try executeScript("""
            SELECT set_config('lock_timeout', '\(Self.defaultLockTimeout)', false) WHERE current_setting('lock_timeout') = '0';
            SELECT set_config('statement_timeout', '\(Self.defaultStatementTimeout)', false)
                WHERE current_setting('statement_timeout') = '0';
            SELECT setting FROM pg_settings WHERE name = 'statement_timeout'
            """) }
        // A server's answer is input: a value past a day is held to a day.
        if setting.count == 1, let milliseconds = Int(setting.string(0, 0)), milliseconds > 0 {
            statementTimeoutMilliseconds = min(milliseconds, 86_400_000)
        }
    }

    /// Behind a pooler in transaction mode, a session setting would stay on whichever server
    /// session took it, for other clients, and be missing from the next: the defaults are read
    /// here (the role's or the server's) and each transaction sets what is left at 0 for itself.
    private func configureTransactions() throws(PostgreSQLError) {
        let setting = try settingUp { () throws(PostgreSQLError) in
            try execute("SELECT current_setting('lock_timeout') = '0', setting FROM pg_settings WHERE name = 'statement_timeout'")
        }
        guard setting.count == 1 else { throw abandon(because: "the server did not report its statement_timeout") }
        let lockTimeoutUnset = setting.string(0, 0) == "t"
        var milliseconds = Int(setting.string(0, 1)) ?? 0
        let statementTimeoutUnset = milliseconds <= 0
        if statementTimeoutUnset { milliseconds = 60_000 }
        statementTimeoutMilliseconds = min(milliseconds, 86_400_000)
        transactionSettings = [lockTimeoutUnset ? Self.defaultLockTimeout : nil,
                               statementTimeoutUnset ? Self.defaultStatementTimeout : nil]
    }

    /// Queues `begin` (`BEGIN` and its options) and, behind a pooler in transaction mode, the
    /// transaction's own settings: they go with the transaction's first statement.
    package func begin(_ begin: String = "BEGIN") {
        enqueue(begin)
        if transactionSettings.contains(where: { $0 != nil }) {
            enqueue("SELECT set_config('lock_timeout', coalesce($1, current_setting('lock_timeout')), true), "
                    + "set_config('statement_timeout', coalesce($2, current_setting('statement_timeout')), true)",
                    transactionSettings)
        }
    }

    // MARK: Notifications

    /// Waits at most `milliseconds` for a notification on a channel this connection listens
    /// to (`LISTEN`), outside any statement.
    ///
    /// - Returns: Whether one or more came (each is consumed).
    /// - Throws: ``PostgreSQLError`` when the connection is lost.
    package func waitForNotification(milliseconds: Int) throws -> Bool {
        if takeNotifications() { return true }
        let socket = libpq.socket(handle)
        guard socket >= 0 else { throw connectionError() }
        let deadline = GridStore.Platform.monotonicMilliseconds() + milliseconds
        guard let ready = Platform.wait(for: socket, readable: true, writable: false, until: deadline) else { throw connectionError() }
        guard ready.readable else { return false }
        guard libpq.consumeInput(handle) == 1 else { throw connectionError() }
        return takeNotifications()
    }

    /// Consumes the notifications libpq has read: whether there were any.
    private func takeNotifications() -> Bool {
        var any = false
        while let notification = libpq.notifies(handle) {
            libpq.freemem(notification)
            any = true
        }
        return any
    }

    // MARK: Statements

    /// One statement and its parameters, as sent.
    private struct Statement {
        let sql: String
        let parameters: [PostgreSQLParameter]
        /// Which ``enqueue(_:_:)`` queued it (0 for a statement executed at once).
        var serial = 0
    }

    /// A statement queued with ``enqueue(_:_:)``, for ``withdraw(_:)``.
    package struct QueuedStatement {
        fileprivate let serial: Int
    }

    /// How many statements ``enqueue(_:_:)`` has queued.
    private var enqueuedCount = 0

    /// Statements queued with ``enqueue(_:_:)``, sent with the next that needs an answer.
    private var queued: [Statement] = []

    /// How many round trips the connection has made: for tests and diagnostics.
    package private(set) var roundTrips = 0

    /// How many statements the connection has sent in pipelines: for tests and diagnostics.
    package private(set) var statementsSent = 0

    /// Runs one statement with `parameters` bound to `$1`, `$2`, …, preparing it on first use.
    /// The statements queued before it go in the same round trip, ahead of it.
    ///
    /// - Parameter parameters: Each value in PostgreSQL's text form, or `nil` for `NULL`.
    /// - Returns: The rows, if the statement returns any.
    /// - Throws: The first error of the round trip: a queued statement's, or this one's.
    @discardableResult
    package func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgreSQLError) -> PostgreSQLResult {
        try execute(sql, parameters: parameters.map(PostgreSQLParameter.text))
    }

    /// Runs one statement with `parameters`, text or binary, as ``execute(_:_:)`` does.
    @discardableResult
    package func execute(_ sql: String, parameters: [PostgreSQLParameter]) throws(PostgreSQLError) -> PostgreSQLResult {
        try run([Statement(sql: sql, parameters: parameters)])[0]
    }

    /// Runs the queued statements and then `statements`, in one round trip, and returns the
    /// results of `statements`, in order.
    ///
    /// - Throws: The first error among them; the statements after it are not run.
    package func execute(batch statements: [(sql: String, parameters: [String?])]) throws(PostgreSQLError) -> [PostgreSQLResult] {
        try run(statements.map { Statement(sql: $0.sql, parameters: $0.parameters.map(PostgreSQLParameter.text)) })
    }

    /// Sends the queued statements and then `statements` in one round trip, and returns the
    /// results of `statements`.
    private func run(_ statements: [Statement]) throws(PostgreSQLError) -> [PostgreSQLResult] {
        let sending = queued + statements
        queued.removeAll()
        return Array(try roundTrip(sending).suffix(statements.count))
    }

    /// Queues a statement whose rows are not needed: it is sent with the next statement that is
    /// executed, in the same round trip, and its error is thrown from there.
    @discardableResult
    package func enqueue(_ sql: String, _ parameters: [String?] = []) -> QueuedStatement {
        enqueue(sql, parameters: parameters.map(PostgreSQLParameter.text))
    }

    /// Queues a statement with `parameters`, text or binary, as ``enqueue(_:_:)`` does.
    @discardableResult
    package func enqueue(_ sql: String, parameters: [PostgreSQLParameter]) -> QueuedStatement {
        enqueuedCount += 1
        queued.append(Statement(sql: sql, parameters: parameters, serial: enqueuedCount))
        return QueuedStatement(serial: enqueuedCount)
    }

    /// Takes `statement` back out of the queue, when it is still there (not sent, not
    /// discarded), and returns its parameters, so that a later statement can do its work.
    package func withdraw(_ statement: QueuedStatement) -> [PostgreSQLParameter]? {
        guard let index = queued.lastIndex(where: { $0.serial == statement.serial }) else { return nil }
        return queued.remove(at: index).parameters
    }

    /// The server's notices and warnings since the last call (at most 8), which are then forgotten.
    package func takeNotices() -> [String] {
        defer { notices.removeAll() }
        return notices
    }

    /// Forgets the queued statements, unsent (a transaction given up before its first answer).
    package func discardQueued() {
        queued.removeAll()
    }

    /// Runs a script of statements without parameters (a migration, or the session's settings).
    ///
    /// - Returns: The last statement's rows.
    @discardableResult
    package func executeScript(_ sql: String) throws(PostgreSQLError) -> PostgreSQLResult {
        if !queued.isEmpty { _ = try execute(batch: []) }
        guard !abandoned else { throw abandonedError() }
        roundTrips += 1
        return try answer(sent: libpq.sendQuery(handle, sql))
    }

    /// Sends `statements` in libpq's pipeline mode, each preceded by its `Parse` the first time
    /// the session sees it (every time, behind a pooler in transaction mode), with one sync at
    /// the end, and reads every answer.
    ///
    /// - Returns: Each statement's result, in order.
    private func roundTrip(_ statements: [Statement]) throws(PostgreSQLError) -> [PostgreSQLResult] {
        guard !abandoned else { throw abandonedError() }
        guard !statements.isEmpty else { return [] }
        roundTrips += 1
        statementsSent += statements.count
        guard libpq.enterPipelineMode(handle) == 1 else { throw connectionError() }
        // What each answer belongs to: a new prepared name (its Parse), or a statement.
        var expected: [String?] = []
        var named: [String: String] = [:]
        for statement in statements {
            guard location.poolMode == .session else {
                // Parsed, bound and run as the unnamed statement: nothing outlives the transaction.
                let sent = Platform.withParameters(statement.parameters) { values, lengths, formats in
                    libpq.sendQueryParams(handle, statement.sql, Int32(statement.parameters.count), nil, values, lengths, formats, 0)
                }
                guard sent == 1 else { throw sendFailure() }
                expected.append(nil)
                continue
            }
            var name = preparedNames[statement.sql] ?? named[statement.sql]
            if name == nil {
                let fresh = Self.preparedName(of: statement.sql)
                guard libpq.sendPrepare(handle, fresh, statement.sql, Int32(statement.parameters.count), nil) == 1 else {
                    throw sendFailure()
                }
                named[statement.sql] = fresh
                expected.append(statement.sql)
                name = fresh
            }
            let sent = Platform.withParameters(statement.parameters) { values, lengths, formats in
                libpq.sendQueryPrepared(handle, name, Int32(statement.parameters.count), values, lengths, formats, 0)
            }
            guard sent == 1 else { throw sendFailure() }
            expected.append(nil)
        }
        guard libpq.pipelineSync(handle) == 1 else { throw sendFailure() }
        var deadline = GridStore.Platform.monotonicMilliseconds() + answerDeadlineMilliseconds
        try sendAll(until: deadline)
        var results: [PostgreSQLResult] = []
        var failure: PostgreSQLError?
        for parsing in expected {
            // Each request's results end with a null one.
            while let result = try nextResult(until: deadline) {
                if let kept = try keep(result, failure: &failure) {
                    if let parsing { preparedNames[parsing] = named[parsing] } else { results.append(kept) }
                }
                deadline = GridStore.Platform.monotonicMilliseconds() + answerDeadlineMilliseconds
            }
        }
        // Then the sync's own.
        guard let sync = try nextResult(until: deadline) else { throw connectionError() }
        let synced = libpq.resultStatus(sync) == PGRES_PIPELINE_SYNC
        libpq.clear(sync)
        guard synced, libpq.exitPipelineMode(handle) == 1 else {
            throw abandon(because: "the server's answers did not match the statements sent")
        }
        if let failure { throw failure }
        guard results.count == statements.count else {
            throw abandon(because: "the server answered \(results.count) of \(statements.count) statements")
        }
        return results
    }

    /// The name a statement is prepared under: `gridstore_` and a hash of its text, so that one
    /// name never means two statements, even on a server session that a pooler shares between
    /// connections (where a name prepared elsewhere fails as missing or taken, never runs other SQL).
    static func preparedName(of sql: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in sql.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return "gridstore_" + String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Sends what libpq holds of the requests made, reading answers that arrive meanwhile so the
    /// server never waits on us; the deadline is checked on every pass, so a server that trickles
    /// bytes cannot hold the client.
    private func sendAll(until deadline: Int) throws(PostgreSQLError) {
        let socket = libpq.socket(handle)
        while true {
            let flushed = libpq.flush(handle)
            if flushed == 0 { return }
            if flushed < 0 { throw connectionError() }
            guard GridStore.Platform.monotonicMilliseconds() < deadline else { throw abandon() }
            guard let ready = Platform.wait(for: socket, readable: true, writable: true, until: deadline) else { throw connectionError() }
            guard ready.readable || ready.writable else { throw abandon() }
            if ready.readable, libpq.consumeInput(handle) == 0 { throw connectionError() }
        }
    }

    /// The next result, waiting for it until `deadline`; `nil` at the end of a request's results.
    private func nextResult(until deadline: Int) throws(PostgreSQLError) -> OpaquePointer? {
        let socket = libpq.socket(handle)
        while libpq.isBusy(handle) == 1 {
            guard GridStore.Platform.monotonicMilliseconds() < deadline else { throw abandon() }
            guard let ready = Platform.wait(for: socket, readable: true, writable: false, until: deadline) else {
                throw connectionError()
            }
            guard ready.readable else { throw abandon() }
            guard libpq.consumeInput(handle) == 1 else { throw connectionError() }
        }
        return libpq.getResult(handle)
    }

    /// Sends what libpq holds of a request just made (`sent` is its result), then reads every
    /// result of it, each within ``answerDeadlineMilliseconds`` of the one before (a script's
    /// statements each have the session's `statement_timeout` on the server).
    ///
    /// - Returns: The last result.
    /// - Throws: The first result's error, a connection failure, or a deadline passed (the
    ///   connection is shut down then).
    private func answer(sent: Int32) throws(PostgreSQLError) -> PostgreSQLResult {
        guard sent == 1 else { throw connectionError() }
        var deadline = GridStore.Platform.monotonicMilliseconds() + answerDeadlineMilliseconds
        try sendAll(until: deadline)
        var last: PostgreSQLResult?
        var failure: PostgreSQLError?
        while let result = try nextResult(until: deadline) {
            if let kept = try keep(result, failure: &failure) { last = kept }
            deadline = GridStore.Platform.monotonicMilliseconds() + answerDeadlineMilliseconds
        }
        if let failure { throw failure }
        guard let last else { throw connectionError() }
        return last
    }

    /// A statement libpq would not queue. On a broken connection that is the connection's
    /// failure; on a working one, a pipeline left half sent, so the connection is shut down.
    private func sendFailure() -> PostgreSQLError {
        guard libpq.status(handle) == CONNECTION_OK else { return connectionError() }
        let reason = location.redacting(String(cString: libpq.errorMessage(handle)!))
        return abandon(because: "libpq could not send a statement (\(PostgreSQLError.singleLine(reason)))")
    }

    /// The rows of a statement that succeeded; `nil` for one that failed (its error is kept
    /// in `failure` unless an earlier one is there) or was skipped after a failure in a pipeline.
    ///
    /// - Throws: When the server starts a COPY: gridstore never copies, so the server is not
    ///   answering what was asked, and the connection is shut down.
    private func keep(_ result: OpaquePointer, failure: inout PostgreSQLError?) throws(PostgreSQLError) -> PostgreSQLResult? {
        let status = libpq.resultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY {
            return PostgreSQLResult(result, libpq)
        }
        defer { libpq.clear(result) }
        if status == PGRES_COPY_IN || status == PGRES_COPY_OUT || status == PGRES_COPY_BOTH {
            throw abandon(because: "the server answered with a COPY that gridstore did not ask for")
        }
        if status != PGRES_PIPELINE_ABORTED, failure == nil {
            failure = Self.error(of: result, libpq, server: server, fallback: connectionError())
        }
        return nil
    }

    /// Shuts the connection down after the server did not answer in time.
    private func abandon() -> PostgreSQLError {
        Platform.shutDown(socket: libpq.socket(handle))
        abandoned = true
        return abandonedError()
    }

    /// Shuts the connection down after the server answered something gridstore did not ask for.
    private func abandon(because reason: String) -> PostgreSQLError {
        Platform.shutDown(socket: libpq.socket(handle))
        abandoned = true
        return PostgreSQLError(sqlState: nil, message: reason + ", so gridstore closed the connection", server: server)
    }

    private func abandonedError() -> PostgreSQLError {
        let bound = settingUpMilliseconds != nil ? "its connect_timeout, while the connection was set up"
            : "the session's statement_timeout and \(Self.answerGraceMilliseconds / 1_000) more"
        return PostgreSQLError(sqlState: nil, message: "the server did not answer within \(answerDeadlineMilliseconds / 1_000) seconds "
                                   + "(\(bound)), so gridstore closed the connection", server: server)
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
