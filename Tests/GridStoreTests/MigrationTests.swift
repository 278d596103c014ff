import Foundation
import MigrationText
import Testing
import GridStorePostgreSQL
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit

@Suite("Migration files")
struct MigrationTests {
    @Test("parses NNNN_short_name.sql", arguments: [
        ("0001_initial.sql", 1, "initial"),
        ("0042_add_colors_2.sql", 42, "add_colors_2"),
        ("123456789_big.sql", 123_456_789, "big"),
    ])
    func validNames(fileName: String, version: Int, name: String) throws {
        let migration = try Migration(fileName: fileName, sql: "")
        #expect(migration.version == version)
        #expect(migration.name == name)
        #expect(migration.fileName == fileName)
    }

    @Test("rejects other names", arguments: [
        "1_short.sql", "0001-initial.sql", "0001_.sql", "0001_Initial.sql", "0001_initial.txt",
        "initial.sql", "0000_zero.sql", "0001_in itial.sql", "1234567890_too_long.sql", "",
    ])
    func invalidNames(fileName: String) {
        #expect(throws: MigrationError.invalidFileName(fileName)) { try Migration(fileName: fileName, sql: "") }
    }

    @Test("checksums ignore the line-ending convention")
    func lineEndings() {
        let unix = Migration.checksum(of: "CREATE TABLE a (x);\nCREATE TABLE b (y);\n")
        #expect(Migration.checksum(of: "CREATE TABLE a (x);\r\nCREATE TABLE b (y);\r\n") == unix)
        #expect(Migration.checksum(of: "CREATE TABLE a (x);\rCREATE TABLE b (y);\r") == unix)
        #expect(Migration.checksum(of: "CREATE TABLE a (x);\nCREATE TABLE b (z);\n") != unix)
        #expect(unix == SHA256.hexDigest(Array("CREATE TABLE a (x);\nCREATE TABLE b (y);\n".utf8)))
    }

    @Test("the checksums computed at build time are those of the embedded texts, on both backends")
    func embeddedChecksums() {
        for set in [MigrationSet.gridStore, MigrationSet.gridStorePostgreSQL] {
            #expect(!set.migrations.isEmpty)
            for migration in set.migrations {
                #expect(migration.checksum == Migration.checksum(of: migration.sql), "\(migration.fileName)")
            }
        }
    }

    @Test("a set refuses two files with one version")
    func duplicateVersions() {
        #expect(throws: MigrationError.duplicateVersion(2, fileNames: ["0002_a.sql", "0002_b.sql"])) {
            try MigrationSet(files: [("0002_b.sql", ""), ("0001_x.sql", ""), ("0002_a.sql", "")])
        }
    }

    @Test("the embedded migrations are exactly the files in migrations/<dialect>/", arguments: ["sqlite", "postgresql"])
    func embeddedSetEqualsFiles(dialect: String) throws {
        let embeddedSet = dialect == "sqlite" ? MigrationSet.gridStore : MigrationSet.gridStorePostgreSQL
        let folder = repositoryRoot + "/migrations/" + dialect
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".sql") }.sorted()
        let files = try names.map { name in
            (fileName: name, sql: String(decoding: try #require(fileBytes(folder + "/" + name)), as: UTF8.self))
        }
        let onDisk = try MigrationSet(files: files)
        #expect(!onDisk.migrations.isEmpty)
        #expect(embeddedSet == onDisk)
        #expect(embeddedSet.migrations.map(\.fileName) == names)
        for (embedded, file) in zip(embeddedSet.migrations, files) {
            #expect(embedded.sql == file.sql, "\(file.fileName) differs byte for byte")
        }
    }
}
