// Generated from Swift snippet 1 of docs/database.md by SnippetTests: do not edit.
// After changing a snippet: GRIDSTORE_UPDATE_SNIPPETS=1 swift test --filter SnippetTests

import GridStoreSQLite

func docs_database_1() async throws {
    let database = try GridDatabase(embeddingIn: "/path/to/app.sqlite")   // or GridDatabase(path:) for gridstore's own file
    let notes = try MigrationSet(files: [("0001_notes.sql", "CREATE TABLE notes (body TEXT) STRICT;")])
    try database.migrate(MigrationRunner(namespace: "notes_app", migrations: notes))
    try database.migrationStatus(of: MigrationRunner(namespace: "notes_app", migrations: notes)).isUpToDate   // true
}
