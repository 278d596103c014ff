import CLibPQ

/// The libpq functions gridstore calls, loaded from the shared library on first use.
///
/// libpq is not linked into gridstore: linking it loads libpq and the libraries it needs
/// (TLS, Kerberos, LDAP) into every process at start-up, about 5 ms measured here, which
/// every `gridstore toggle` on an SQLite file would pay. Loading it when the first
/// PostgreSQL connection is made costs that once, and only where it is used; a machine
/// without libpq runs gridstore on SQLite files as before.
struct LibPQ: @unchecked Sendable {
    typealias StringArray = UnsafePointer<UnsafePointer<CChar>?>?

    let connectStartParams: @convention(c) (StringArray, StringArray, Int32) -> OpaquePointer?
    let connectPoll: @convention(c) (OpaquePointer?) -> PostgresPollingStatusType
    let socket: @convention(c) (OpaquePointer?) -> Int32
    let conninfo: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<PQconninfoOption>?
    let conninfoFree: @convention(c) (UnsafeMutablePointer<PQconninfoOption>?) -> Void
    let conninfoParse: @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
        -> UnsafeMutablePointer<PQconninfoOption>?
    let status: @convention(c) (OpaquePointer?) -> ConnStatusType
    let errorMessage: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    let finish: @convention(c) (OpaquePointer?) -> Void
    let setNoticeReceiver: @convention(c) (OpaquePointer?, PQnoticeReceiver?, UnsafeMutableRawPointer?) -> PQnoticeReceiver?
    let resultStatus: @convention(c) (OpaquePointer?) -> ExecStatusType
    let resultErrorField: @convention(c) (OpaquePointer?, Int32) -> UnsafeMutablePointer<CChar>?
    let clear: @convention(c) (OpaquePointer?) -> Void
    let ntuples: @convention(c) (OpaquePointer?) -> Int32
    let getisnull: @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
    let getvalue: @convention(c) (OpaquePointer?, Int32, Int32) -> UnsafeMutablePointer<CChar>?
    let getlength: @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
    let sendQuery: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
    let sendPrepare: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32, UnsafePointer<Oid>?) -> Int32
    let sendQueryPrepared: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, StringArray, UnsafePointer<Int32>?,
                                           UnsafePointer<Int32>?, Int32) -> Int32
    let sendQueryParams: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<Oid>?, StringArray,
                                         UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32) -> Int32
    let getResult: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let isBusy: @convention(c) (OpaquePointer?) -> Int32
    let consumeInput: @convention(c) (OpaquePointer?) -> Int32
    let flush: @convention(c) (OpaquePointer?) -> Int32
    let setNonblocking: @convention(c) (OpaquePointer?, Int32) -> Int32
    let enterPipelineMode: @convention(c) (OpaquePointer?) -> Int32
    let exitPipelineMode: @convention(c) (OpaquePointer?) -> Int32
    let pipelineSync: @convention(c) (OpaquePointer?) -> Int32
    let notifies: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<PGnotify>?
    let freemem: @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// The library, loaded at the first use; the error says what to install when it is missing.
    static let shared: Result<LibPQ, PostgreSQLError> = load()

    /// The file names tried, in order (libpq 14 or later: gridstore sends a change's statements in one pipeline): Debian's libpq5 package, then a development link.
    static let libraryNames = ["libpq.so.5", "libpq.so", "libpq.5.dylib", "libpq.dylib"]

    private static func load() -> Result<LibPQ, PostgreSQLError> {
        guard let library = Platform.openLibrary(libraryNames) else {
            return .failure(PostgreSQLError(
                sqlState: nil, message: "PostgreSQL support needs the libpq library, which is not installed "
                    + "(on Debian or Ubuntu: apt-get install libpq5)", server: "(none)"))
        }
        var missing: [String] = []
        func symbol<T>(_ name: String, as type: T.Type) -> T {
            guard let address = Platform.symbol(name, in: library) else {
                // Never called: the library is refused below.
                missing.append(name)
                return unsafeBitCast(UnsafeMutableRawPointer(bitPattern: 1)!, to: type)
            }
            return unsafeBitCast(address, to: type)
        }
        let libpq = LibPQ(
            connectStartParams: symbol("PQconnectStartParams",
                                       as: (@convention(c) (StringArray, StringArray, Int32) -> OpaquePointer?).self),
            connectPoll: symbol("PQconnectPoll", as: (@convention(c) (OpaquePointer?) -> PostgresPollingStatusType).self),
            socket: symbol("PQsocket", as: (@convention(c) (OpaquePointer?) -> Int32).self),
            conninfo: symbol("PQconninfo", as: (@convention(c) (OpaquePointer?) -> UnsafeMutablePointer<PQconninfoOption>?).self),
            conninfoFree: symbol("PQconninfoFree", as: (@convention(c) (UnsafeMutablePointer<PQconninfoOption>?) -> Void).self),
            conninfoParse: symbol("PQconninfoParse", as: (@convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
                                                            -> UnsafeMutablePointer<PQconninfoOption>?).self),
            status: symbol("PQstatus", as: (@convention(c) (OpaquePointer?) -> ConnStatusType).self),
            errorMessage: symbol("PQerrorMessage", as: (@convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?).self),
            finish: symbol("PQfinish", as: (@convention(c) (OpaquePointer?) -> Void).self),
            setNoticeReceiver: symbol("PQsetNoticeReceiver", as: (@convention(c) (OpaquePointer?, PQnoticeReceiver?,
                                                                                    UnsafeMutableRawPointer?) -> PQnoticeReceiver?).self),
            resultStatus: symbol("PQresultStatus", as: (@convention(c) (OpaquePointer?) -> ExecStatusType).self),
            resultErrorField: symbol("PQresultErrorField",
                                     as: (@convention(c) (OpaquePointer?, Int32) -> UnsafeMutablePointer<CChar>?).self),
            clear: symbol("PQclear", as: (@convention(c) (OpaquePointer?) -> Void).self),
            ntuples: symbol("PQntuples", as: (@convention(c) (OpaquePointer?) -> Int32).self),
            getisnull: symbol("PQgetisnull", as: (@convention(c) (OpaquePointer?, Int32, Int32) -> Int32).self),
            getvalue: symbol("PQgetvalue", as: (@convention(c) (OpaquePointer?, Int32, Int32) -> UnsafeMutablePointer<CChar>?).self),
            getlength: symbol("PQgetlength", as: (@convention(c) (OpaquePointer?, Int32, Int32) -> Int32).self),
            sendQuery: symbol("PQsendQuery", as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32).self),
            sendPrepare: symbol("PQsendPrepare", as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                                                                       Int32, UnsafePointer<Oid>?) -> Int32).self),
            sendQueryPrepared: symbol("PQsendQueryPrepared", as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32,
                                                                                   StringArray, UnsafePointer<Int32>?,
                                                                                   UnsafePointer<Int32>?, Int32) -> Int32).self),
            sendQueryParams: symbol("PQsendQueryParams", as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32,
                                                                               UnsafePointer<Oid>?, StringArray, UnsafePointer<Int32>?,
                                                                               UnsafePointer<Int32>?, Int32) -> Int32).self),
            getResult: symbol("PQgetResult", as: (@convention(c) (OpaquePointer?) -> OpaquePointer?).self),
            isBusy: symbol("PQisBusy", as: (@convention(c) (OpaquePointer?) -> Int32).self),
            consumeInput: symbol("PQconsumeInput", as: (@convention(c) (OpaquePointer?) -> Int32).self),
            flush: symbol("PQflush", as: (@convention(c) (OpaquePointer?) -> Int32).self),
            setNonblocking: symbol("PQsetnonblocking", as: (@convention(c) (OpaquePointer?, Int32) -> Int32).self),
            enterPipelineMode: symbol("PQenterPipelineMode", as: (@convention(c) (OpaquePointer?) -> Int32).self),
            exitPipelineMode: symbol("PQexitPipelineMode", as: (@convention(c) (OpaquePointer?) -> Int32).self),
            pipelineSync: symbol("PQpipelineSync", as: (@convention(c) (OpaquePointer?) -> Int32).self),
            notifies: symbol("PQnotifies", as: (@convention(c) (OpaquePointer?) -> UnsafeMutablePointer<PGnotify>?).self),
            freemem: symbol("PQfreemem", as: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self))
        guard missing.isEmpty else {
            return .failure(PostgreSQLError(sqlState: nil, message: "the installed libpq lacks \(missing.joined(separator: ", "))",
                                            server: "(none)"))
        }
        return .success(libpq)
    }
}
