import Foundation
@_exported import TestSupport
@testable import GridStore

/// The bytes of a file, or `nil` when it cannot be read.
func fileBytes(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}

/// The repository's top-level folder.
let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            return url.path
        }
    }
    fatalError("Package.swift not found above \(#filePath)")
}()

/// A connection to a private in-memory database.
func memoryConnection() throws -> SQLiteConnection {
    try SQLiteConnection(path: ":memory:")
}

/// Reads one integer with `sql`.
func scalar(_ connection: SQLiteConnection, _ sql: String) throws -> Int {
    try connection.fetchOne(sql) { $0.int(at: 0) } ?? -1
}

/// Reads one text value with `sql`.
func text(_ connection: SQLiteConnection, _ sql: String) throws -> String {
    try connection.fetchOne(sql) { $0.string(at: 0) } ?? ""
}

extension GridDatabase {
    /// Runs `body` with the SQLite connection in a read transaction.
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try sqlite!.readConnection(body)
    }

    /// Runs `body` with a connection of its own, as `sqlite3` would open the file: gridstore's
    /// connections read through no view, so the views that are there for such readers are read here.
    func readThroughViews<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try body(SQLiteConnection(path: sqlite!.path, mode: .readOnly))
    }

    /// Runs `body` with the SQLite connection in a write transaction.
    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try sqlite!.writeConnection(body)
    }
}
