import CSQLite
import GridStore

/// How a transaction takes SQLite's locks.
package enum SQLiteTransactionKind: Sendable {
    /// Takes a read lock at the first read and a write lock at the first write (`BEGIN DEFERRED`).
    ///
    /// Use it for transactions that only read.
    case deferred
    /// Takes the write lock at once (`BEGIN IMMEDIATE`), waiting up to the busy timeout.
    ///
    /// Use it for every transaction that may write: a transaction that reads first and
    /// writes later cannot then fail because another connection wrote in between.
    case immediate

    var beginStatement: String {
        switch self {
        case .deferred: "BEGIN DEFERRED"
        case .immediate: "BEGIN IMMEDIATE"
        }
    }
}

extension SQLiteConnection {
    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// Called inside another transaction, it runs in a savepoint of the outer one, so
    /// only its own changes roll back when `body` throws.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or a ``SQLiteError`` when the transaction cannot
    ///   begin or commit (for example when the write lock stays busy past the timeout).
    package func transaction<T>(_ kind: SQLiteTransactionKind = .deferred, _ body: () throws -> T) throws -> T {
        if !isAutocommit {
            return try savepoint(body)
        }
        try executeCached(kind.beginStatement)
        do {
            let result = try body()
            try executeCached("COMMIT")
            return result
        } catch {
            rollbackIfOpen()
            throw error
        }
    }

    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        try executeCached("SAVEPOINT nested")
        do {
            let result = try body()
            try executeCached("RELEASE nested")
            return result
        } catch {
            try? executeCached("ROLLBACK TO nested")
            try? executeCached("RELEASE nested")
            throw error
        }
    }

    /// Rolls back the open transaction, if SQLite has not already done so.
    private func rollbackIfOpen() {
        guard !isAutocommit else { return }
        // A failed rollback leaves SQLite to roll back when the connection next begins or closes;
        // the error that caused the rollback is the one the caller needs.
        _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    }
}
