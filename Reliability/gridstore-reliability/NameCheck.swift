import Foundation
import TestSupport
import GridStoreAudit
import GridStore
import GridStoreSQLite

/// Grid names with quotes, semicolons, SQL and unicode round-trip exactly; nothing is spliced into SQL.
enum NameCheck {
    static func run(_ runner: ProcessRunner, scratch: String, report: Report) {
        let path = scratch + "/names.sqlite"
        for name in Names.all {
            let created = runner.run(["--db", path, "--grid", name, "init", "--items", "3"])
            let toggled = runner.run(["--db", path, "--grid", name, "toggle", "1"])
            let exported = runner.run(["--db", path, "--grid", name, "export"])
            report.count(processes: 3, commands: 3)
            report.check(created.status == 0 && toggled.status == 0 && exported.status == 0,
                         "names: '\(name)': \(created.summary) / \(toggled.summary) / \(exported.summary)")
            let object = (try? JSONSerialization.jsonObject(with: Data(exported.standardOutput.utf8))) as? [String: Any]
            report.check(object?["grid"] as? String == name, "names: '\(name)' exported as \(String(describing: object?["grid"]))")
            report.check((try? StoredGrid.read(name, path: path))??.revision == 1, "names: '\(name)' is not stored under its exact name")
        }
        let listed = runner.run(["--db", path, "grids"])
        report.count(processes: 1, commands: 1)
        for name in Names.all {
            report.check(listed.standardOutput.split(separator: "\n").contains { $0.hasPrefix(name + " ") },
                         "names: 'grids' does not list '\(name)'")
        }
        let health = DatabaseAudit.health(path: path)
        report.check(health == "ok", "names: \(health)")
        let tables = (try? GridStoreConnection.open(path).fetchAll("SELECT name FROM sqlite_schema WHERE type = 'table'") { $0.string(at: 0) }) ?? []
        report.check(tables.contains("grids") && tables.contains("placement_chunks"), "names: tables are missing: \(tables)")
        print("names: \(Names.all.count) grid names with quotes, semicolons, SQL, unicode and spaces round-tripped; tables intact")
    }
}

/// A read-only connection for checks.
enum GridStoreConnection {
    static func open(_ path: String) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        connection.setBusyTimeout(milliseconds: 10_000)
        return connection
    }
}
