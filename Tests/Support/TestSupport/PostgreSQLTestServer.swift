import Foundation

/// A throwaway PostgreSQL server for tests, benchmarks and the reliability suite, started from
/// the installed binaries: `initdb` and `pg_ctl` in a temporary folder, listening on a Unix
/// socket in that folder only (no TCP port), run as an unprivileged user when the process is
/// root (PostgreSQL refuses to run as root).
///
/// The server stops, and its folder is removed, when the process that started it exits
/// for any reason, a crash or `kill -9` included: a watchdog in a session of its own waits for
/// the end of a pipe only this process holds.
///
/// ```swift
/// let server = try PostgreSQLTestServer.shared()
/// let url = try server.makeDatabase()   // postgresql://gridstore@/db_…?host=/tmp/…&port=5432
/// ```
public final class PostgreSQLTestServer: @unchecked Sendable {
    /// Why no server could be started.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The folder that holds the data directory, the socket and the log.
    public let directory: String
    /// The folder of the PostgreSQL binaries used.
    public let binaries: String
    /// The port number in the socket's name.
    public let port = 5432
    /// The superuser the server was initialised with (trust authentication on the socket).
    public let user = "gridstore"
    private let runAs: (uid: uid_t, gid: gid_t)?
    private let watchdogPipe: Int32
    private let counter = NSLock()
    private var databases = 0

    /// Whether a missing PostgreSQL is a failure rather than a reason to skip: when `CI` is set.
    public static var isRequired: Bool {
        !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty
    }

    /// Whether PostgreSQL's server binaries are installed.
    public static var isInstalled: Bool { findBinaries() != nil }

    /// Whether tests should run against PostgreSQL: it is installed, or it is required (and its
    /// absence then fails the tests).
    public static var shouldTest: Bool { isInstalled || isRequired }

    nonisolated(unsafe) private static var sharedServer: Result<PostgreSQLTestServer, Unavailable>?
    private static let sharedLock = NSLock()

    /// The server of this process, started at the first call.
    ///
    /// - Throws: ``Unavailable`` when PostgreSQL is not installed or does not start.
    public static func shared() throws -> PostgreSQLTestServer {
        sharedLock.lock()
        defer { sharedLock.unlock() }
        if sharedServer == nil {
            sharedServer = Result { () throws(Unavailable) -> PostgreSQLTestServer in try PostgreSQLTestServer(durable: false) }
        }
        return try sharedServer!.get()
    }

    /// Initialises and starts a new server.
    ///
    /// - Parameter durable: Whether the server syncs to disk as a production server does; tests
    ///   run faster without (`fsync=off`), crash tests need it.
    public init(durable: Bool = true) throws(Unavailable) {
        guard let binaries = Self.findBinaries() else {
            throw Unavailable(description: "PostgreSQL's server binaries (initdb, pg_ctl) are not installed; "
                              + "on Debian: apt-get install -y postgresql libpq-dev")
        }
        self.binaries = binaries
        var template = Array((NSTemporaryDirectory() + "/gridstore-pg-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else { throw Unavailable(description: "cannot create a temporary folder") }
        directory = String(cString: created)
        runAs = getuid() == 0 ? Self.unprivilegedUser() : nil
        if let runAs { chown(directory, runAs.uid, runAs.gid) }
        watchdogPipe = Self.startWatchdog(directory: directory, binaries: binaries, runAs: runAs)
        let data = directory + "/data"
        try run("initdb", ["-D", data, "-U", user, "--auth=trust", "--no-locale", "-E", "UTF8", "--no-sync"])
        var options = "-c listen_addresses='' -k \(directory) -p \(port) -c max_connections=200"
        if !durable { options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off" }
        try run("pg_ctl", ["-D", data, "-l", directory + "/log", "-w", "-t", "60", "-o", options, "start"])
    }

    /// A connection URI for `database` on this server.
    public func url(database: String = "postgres") -> String {
        "postgresql://\(user)@/\(database)?host=\(directory)&port=\(port)"
    }

    /// Creates a new, empty database and returns its connection URI.
    public func makeDatabase() throws(Unavailable) -> String {
        counter.lock()
        databases += 1
        let name = "db_\(getpid())_\(databases)"
        counter.unlock()
        try run("createdb", ["-h", directory, "-p", String(port), "-U", user, name], asServerUser: false)
        return url(database: name)
    }

    /// Stops the server at once, as a crash would (`pg_ctl stop -m immediate`), and starts it again.
    public func restartImmediately() throws(Unavailable) {
        try run("pg_ctl", ["-D", directory + "/data", "-l", directory + "/log", "-w", "-t", "60", "-m", "immediate", "restart"])
    }

    // MARK: A standby and a pooler

    /// The port of the streaming hot standby ``startStandby()`` starts, in the same folder.
    public let standbyPort = 5433
    /// The port of the PgBouncer ``startPooler(serverConnections:)`` starts, in the same folder.
    public let poolerPort = 6432

    /// A connection URI for `database` on the standby.
    public func standbyURL(database: String) -> String {
        "postgresql://\(user)@/\(database)?host=\(directory)&port=\(standbyPort)"
    }

    /// A connection URI naming the primary and then the standby, for whichever accepts writes
    /// (`target_session_attrs=read-write`): what an app server's failover configuration says.
    public func failoverURL(database: String) -> String {
        "postgresql://\(user)@/\(database)?host=\(directory),\(directory)&port=\(port),\(standbyPort)"
            + "&target_session_attrs=read-write&connect_timeout=2"
    }

    /// Copies the running server with `pg_basebackup -R`, starts the copy as a streaming hot
    /// standby on ``standbyPort``, then makes the primary wait for it on every commit
    /// (`synchronous_standby_names`), and returns once the standby is streaming synchronously.
    public func startStandby() throws(Unavailable) {
        let standby = directory + "/data-standby"
        try run("pg_basebackup", ["-D", standby, "-R", "-X", "stream", "-c", "fast", "-h", directory, "-p", String(port), "-U", user])
        try run("pg_ctl", ["-D", standby, "-l", directory + "/standby-log", "-w", "-t", "60", "-o",
                           "-c listen_addresses='' -k \(directory) -p \(standbyPort) -c hot_standby=on -c max_connections=200", "start"])
        try alterSystem("synchronous_standby_names", "*")
        for _ in 0..<600 {
            let state = try runClient("psql", ["-X", "-A", "-t", "-h", directory, "-p", String(port), "-U", user, "-d", "postgres",
                                               "-c", "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync' AND state = 'streaming'"])
            if state.trimmingCharacters(in: .whitespacesAndNewlines) == "1" { return }
            usleep(50_000)
        }
        throw Unavailable(description: "the standby did not start streaming synchronously within 30 seconds")
    }

    /// Sets a server setting with `ALTER SYSTEM` and reloads the configuration, waiting until
    /// a new session sees it.
    public func alterSystem(_ name: String, _ value: String) throws(Unavailable) {
        _ = try runClient("psql", ["-X", "-q", "-h", directory, "-p", String(port), "-U", user, "-d", "postgres",
                                   "-c", "ALTER SYSTEM SET \(name) = '\(value)'", "-c", "SELECT pg_reload_conf()"])
        for _ in 0..<200 {
            let shown = try runClient("psql", ["-X", "-A", "-t", "-h", directory, "-p", String(port), "-U", user, "-d", "postgres",
                                               "-c", "SHOW \(name)"])
            if shown.trimmingCharacters(in: .whitespacesAndNewlines) == value { return }
            usleep(25_000)
        }
        throw Unavailable(description: "the server did not take \(name) = '\(value)' within 5 seconds")
    }

    /// Stops the primary at once, as a crash would, leaving the standby running.
    public func stopPrimaryImmediately() throws(Unavailable) {
        try run("pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
    }

    /// Promotes the standby to a primary, returning once it accepts writes.
    public func promoteStandby() throws(Unavailable) {
        try run("pg_ctl", ["-D", directory + "/data-standby", "-w", "-t", "60", "promote"])
    }

    /// Starts PgBouncer (Debian's `pgbouncer`) in front of the server, in transaction pooling
    /// mode with `serverConnections` server sessions per database, listening on a Unix socket
    /// in the same folder on ``poolerPort``; returns the URI of `database` through it, which
    /// tells gridstore so (`pool_mode=transaction`).
    ///
    /// - Throws: ``Unavailable`` when PgBouncer is not installed or does not start.
    public func startPooler(serverConnections: Int = 2) throws(Unavailable) {
        guard let pgbouncer = Self.poolerBinary else {
            throw Unavailable(description: "PgBouncer is not installed; on Debian: apt-get install -y pgbouncer")
        }
        let configuration = """
            [databases]
            * = host=\(directory) port=\(port) user=\(user)
            [pgbouncer]
            listen_addr =
            listen_port = \(poolerPort)
            unix_socket_dir = \(directory)
            auth_type = any
            pool_mode = transaction
            default_pool_size = \(serverConnections)
            max_client_conn = 500
            pidfile = \(directory)/pgbouncer.pid
            logfile = \(directory)/pgbouncer.log
            """
        let path = directory + "/pgbouncer.ini"
        guard FileManager.default.createFile(atPath: path, contents: Data(configuration.utf8)) else {
            throw Unavailable(description: "cannot write \(path)")
        }
        if let runAs { chown(path, runAs.uid, runAs.gid) }
        try run(pgbouncer, ["-d", "-q", path])
        for _ in 0..<400 where !FileManager.default.fileExists(atPath: directory + "/.s.PGSQL.\(poolerPort)") {
            usleep(25_000)
        }
        guard FileManager.default.fileExists(atPath: directory + "/.s.PGSQL.\(poolerPort)") else {
            let log = (try? String(contentsOfFile: directory + "/pgbouncer.log", encoding: .utf8)) ?? ""
            throw Unavailable(description: "PgBouncer did not open its socket within 10 seconds: \(log.suffix(1000))")
        }
    }

    /// Debian's PgBouncer, when installed.
    private static var poolerBinary: String? {
        ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].first(where: FileManager.default.isExecutableFile)
    }

    /// Whether tests should run through PgBouncer: it and PostgreSQL are installed, or they are
    /// required (`CI` set; a missing one then fails the tests).
    public static var shouldTestPooler: Bool { (isInstalled && poolerBinary != nil) || isRequired }

    /// A connection URI for `database` through the PgBouncer ``startPooler(serverConnections:)`` started.
    public func poolerURL(database: String) -> String {
        "postgresql://\(user)@/\(database)?host=\(directory)&port=\(poolerPort)&pool_mode=transaction"
    }

    /// The name of the database a URI of ``makeDatabase()`` names.
    public static func databaseName(in url: String) -> String {
        String(url.split(separator: "@/", maxSplits: 1).last!.prefix { $0 != "?" })
    }

    /// Runs one of the installed client programs (`pgbench`, `psql`) against this server, as
    /// this process's user, and returns what it printed.
    ///
    /// - Throws: ``Unavailable`` when it cannot be run or exits with a failure.
    public func runClient(_ program: String, _ arguments: [String]) throws(Unavailable) -> String {
        try run(program, arguments, asServerUser: false)
    }

    /// Stops the server and removes its folder (also done when the process exits).
    public func stop() {
        Self.stopPooler(in: directory)
        _ = try? run("pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
        _ = try? run("pg_ctl", ["-D", directory + "/data-standby", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: Processes

    /// Runs one of the PostgreSQL binaries, as the unprivileged user when `asServerUser`.
    @discardableResult
    private func run(_ program: String, _ arguments: [String], asServerUser: Bool = true) throws(Unavailable) -> String {
        var argv = [program.hasPrefix("/") ? program : binaries + "/" + program] + arguments
        if asServerUser, let runAs {
            argv = ["/usr/bin/setpriv", "--reuid=\(runAs.uid)", "--regid=\(runAs.gid)", "--clear-groups"] + argv
        }
        // Output goes to a file, not a pipe: the server pg_ctl starts could hold a pipe open for ever.
        let outputPath = directory + "/\(program.split(separator: "/").last!)-\(UUID().uuidString).out"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The server outlives this call: it must not hold pipes other threads opened for their own children.
        SpawnExtras.closeInheritedDescriptors(&actions)
        let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ) == 0 else {
            throw Unavailable(description: "cannot run \(argv[0])")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            let log = (try? String(contentsOfFile: directory + "/log", encoding: .utf8)) ?? ""
            throw Unavailable(description: "\(program) failed (status \(status)): \(text) \(log.suffix(2000))")
        }
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// The newest `/usr/lib/postgresql/N/bin`, else the folder of `initdb` on the `PATH`.
    private static func findBinaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        for version in versions.reversed() where FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/pg_ctl") {
            return "\(root)/\(version)/bin"
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = String(folder)
            if FileManager.default.isExecutableFile(atPath: path + "/initdb"),
               FileManager.default.isExecutableFile(atPath: path + "/pg_ctl") {
                return URL(fileURLWithPath: path + "/pg_ctl").resolvingSymlinksInPath().deletingLastPathComponent().path
            }
        }
        return nil
    }

    /// Kills the PgBouncer started in `directory`, if any.
    private static func stopPooler(in directory: String) {
        guard let text = try? String(contentsOfFile: directory + "/pgbouncer.pid", encoding: .utf8),
              let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0 else { return }
        kill(pid, SIGKILL)
    }

    /// The `postgres` account, else `nobody`.
    private static func unprivilegedUser() -> (uid: uid_t, gid: gid_t)? {
        for name in ["postgres", "nobody"] {
            if let entry = getpwnam(name) { return (entry.pointee.pw_uid, entry.pointee.pw_gid) }
        }
        return nil
    }

    /// Starts a process in its own session that stops the server and removes `directory` once
    /// the returned pipe end is closed, which happens when this process exits, however it exits.
    private static func startWatchdog(directory: String, binaries: String, runAs: (uid: uid_t, gid: gid_t)?) -> Int32 {
        // Only this process holds the write end: children (gridstore processes) must not keep the server alive.
        guard let (readEnd, writeEnd) = try? SpawnExtras.closeOnExecPipe() else { return -1 }
        let asUser = runAs.map { "/usr/bin/setpriv --reuid=\($0.uid) --regid=\($0.gid) --clear-groups " } ?? ""
        let script = "cat >/dev/null; kill -9 $(cat '\(directory)/pgbouncer.pid' 2>/dev/null) 2>/dev/null; "
            + "for data in '\(directory)'/data*; do \(asUser)'\(binaries)/pg_ctl' -D \"$data\" -m immediate -w stop >/dev/null 2>&1; done; "
            + "rm -rf '\(directory)'"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        SpawnExtras.closeInheritedDescriptors(&actions)
        let words: [String] = ["/usr/bin/setsid", "/bin/sh", "-c", script]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        posix_spawn(&pid, "/usr/bin/setsid", &actions, nil, argv, environ)
        close(readEnd)
        return writeEnd
    }
}
