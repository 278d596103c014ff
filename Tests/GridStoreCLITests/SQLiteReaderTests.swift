import Foundation
import GridStore
import GridStoreSQLite
import GridStoreAudit
import Testing

/// What a plain `sqlite3` reading the database sees while `gridstore` processes write to it.
@Suite("sqlite3 readers beside gridstore writers")
struct SQLiteReaderTests {
    let directory = TemporaryDirectory()

    @Test("the database file alone holds every committed change once gridstore exits")
    func fileIsCompleteAfterExit() throws {
        let database = directory.file("g.sqlite")
        #expect(try CommandRunner.run(["--db", database, "init", "--items", "20"]).status == 0)
        for item in 0..<5 { #expect(try CommandRunner.run(["--db", database, "toggle", String(item)]).status == 0) }
        // A copy without the -wal is what a careless backup takes: it must have revision 5.
        let copy = directory.file("copy.sqlite")
        try FileManager.default.copyItem(atPath: database, toPath: copy)
        let connection = try SQLiteConnection(path: copy, mode: .readOnly)
        #expect(try connection.fetchOne("SELECT revision FROM grids") { $0.int(at: 0) } == 5)
    }

    @Test("a sqlite3 reader without a timeout sees no lock error while gridstore writes, the database open elsewhere")
    func readersAreNotLockedOut() throws {
        let database = directory.file("g.sqlite")
        #expect(try CommandRunner.run(["--db", database, "init", "--items", "100"]).status == 0)
        // Held open as an app embedding gridstore would: SQLite then never rebuilds its log index.
        let held = try GridDatabase(path: database)
        _ = try Grid.list(in: held)
        let result = try CommandRunner.shell("""
            cd '\(directory.path)'
            ( for i in $(seq 1 60); do "$GRIDSTORE" --db g.sqlite toggle $((i % 100)) > /dev/null || echo "write failed"; done
              touch writes-done ) &
            reads=0
            while [ ! -e writes-done ]; do
              sqlite3 g.sqlite 'SELECT revision FROM grids' > /dev/null 2>> read-errors || echo "read failed"
              reads=$((reads + 1))
            done
            wait
            echo "reads $reads"
            cat read-errors
            """)
        #expect(result.standardOutput.hasPrefix("reads "), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("failed"), "\(result.standardOutput)")
        #expect(try Grid(named: "default", in: held, creatingWith: nil).snapshot().revision == 60)
    }
}
