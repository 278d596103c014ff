import Foundation
import PackagePlugin

/// Embeds the SQL files of the package's top-level `migrations/` folder into
/// the target as generated Swift, so a built binary carries its migrations.
///
/// The target reaches the folder through a symbolic link among its sources, so
/// SwiftPM sees the files as the target's own: adding or removing one re-plans
/// the build, and editing one re-runs the command.
@main
struct MigrationEmbedder: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles(withSuffix: "sql").map(\.url).sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        let tool = try context.tool(named: "MigrationEmbedderTool")
        // SQLite migrations are applied at build time to record the schema each leaves.
        let folder = files.first?.resolvingSymlinksInPath().deletingLastPathComponent().lastPathComponent
        let isSQLite = folder == "sqlite"
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) migration(s) from migrations/",
                executable: tool.url,
                arguments: (isSQLite ? ["--sqlite"] : []) + [output.path(percentEncoded: false)] + files.map { $0.path(percentEncoded: false) },
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }
}
