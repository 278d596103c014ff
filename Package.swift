// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "gridstore",
    // Synchronization's Mutex and Atomic, which the libraries use, need these Apple platforms;
    // on Linux every Swift 6 toolchain has them.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "GridLayout", targets: ["GridLayout"]),
        .library(name: "GridStore", targets: ["GridStore"]),
        .library(name: "GridStoreSQLite", targets: ["GridStoreSQLite"]),
        .library(name: "GridStorePostgreSQL", targets: ["GridStorePostgreSQL"]),
        .executable(name: "gridstore", targets: ["gridstore"]),
        // For gridstore's own benchmarks (the `Benchmarks/` package), not an API: the test
        // helpers (a throwaway PostgreSQL server, table audits).
        .library(name: "_GridStoreTestSupport", targets: ["TestSupport", "SeededRandom", "GridStoreAudit"]),
    ],
    targets: [
        // The system SQLite library, reached through a module map.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),

        // The PostgreSQL client library's header (libpq-dev). The library is loaded when a
        // connection is first made, not linked: see Sources/CLibPQ/shim.h.
        .systemLibrary(
            name: "CLibPQ",
            providers: [.apt(["libpq-dev"])]
        ),

        // The pure layout engine: dense packing, sections, pixel frames. No I/O.
        .target(name: "GridLayout"),

        // What gridstore knows of a migration's text, at build time and at run time: its checksum, and
        // the schema objects an SQLite migration leaves. Shared by the stores and the MigrationEmbedder plugin.
        .target(name: "MigrationText"),

        // The engine: grids, the editor, history, repositories, documents, observation, and the
        // storage protocol the backends implement. Imports no C module.
        .target(
            name: "GridStore",
            dependencies: ["GridLayout", "MigrationText"]
        ),

        // The SQLite backend: the only module that imports CSQLite.
        .target(
            name: "GridStoreSQLite",
            dependencies: ["CSQLite", "GridStore", "GridLayout", "MigrationText"],
            plugins: ["MigrationEmbedder"]
        ),

        // The PostgreSQL backend: the only module that imports CLibPQ.
        .target(
            name: "GridStorePostgreSQL",
            dependencies: ["CLibPQ", "GridStore", "GridLayout", "MigrationText"],
            plugins: ["MigrationEmbedder"]
        ),

        // The command-line interface, as a library so tests can drive it in-process.
        .target(
            name: "GridStoreCLI",
            dependencies: ["GridStore", "GridStoreSQLite", "GridStorePostgreSQL"]
        ),

        // The `gridstore` executable: a thin entry point. The Swift runtime is linked in
        // statically: the binary then starts as fast as an empty Swift program and runs
        // wherever it is copied. (Embedders use the libraries, which have no such flag.)
        .executableTarget(
            name: "gridstore",
            dependencies: ["GridStoreCLI", "GridStoreSQLite"],
            linkerSettings: [.unsafeFlags(["-static-stdlib"])]
        ),

        // The reliability suite CI runs against a release gridstore: concurrency, kill -9,
        // hostile files, fuzzing. `swift build -c release && .build/release/gridstore-reliability`.
        .executableTarget(
            name: "gridstore-reliability",
            dependencies: ["GridStore", "GridStoreSQLite", "GridStorePostgreSQL", "GridLayout", "GridStoreAudit", "MigrationText", "SeededRandom", "TestSupport"],
            path: "Reliability/gridstore-reliability"
        ),

        // Test-only helpers, shared by the test targets, the reliability suite and the benchmarks.
        // A seeded random number generator.
        .target(name: "SeededRandom", path: "Tests/Support/SeededRandom"),
        // Reads grids straight from the tables to check what gridstore stored.
        .target(
            name: "GridStoreAudit",
            dependencies: ["GridStore", "GridStoreSQLite", "GridStorePostgreSQL", "GridLayout"],
            path: "Tests/Support/GridStoreAudit"
        ),
        // One temporary-folder helper and one process runner.
        .target(name: "TestSupport", path: "Tests/Support/TestSupport"),

        // Turns the top-level `migrations/` folder into generated Swift at build time.
        .executableTarget(
            name: "MigrationEmbedderTool",
            dependencies: ["CSQLite", "MigrationText"],
            path: "Plugins/MigrationEmbedderTool"
        ),
        .plugin(
            name: "MigrationEmbedder",
            capability: .buildTool(),
            dependencies: ["MigrationEmbedderTool"]
        ),

        .testTarget(
            name: "GridLayoutTests",
            dependencies: ["GridLayout", "SeededRandom"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "GridStoreTests",
            dependencies: ["GridStore", "GridStoreSQLite", "GridStorePostgreSQL", "GridLayout", "GridStoreAudit", "MigrationText", "SeededRandom", "TestSupport"]
        ),
        .testTarget(
            name: "GridStoreSQLiteTests",
            dependencies: ["GridStoreSQLite", "GridStore", "GridLayout", "GridStoreAudit", "MigrationText", "SeededRandom", "TestSupport"]
        ),
        .testTarget(
            name: "GridStorePostgreSQLTests",
            dependencies: ["GridStorePostgreSQL", "GridStore", "GridStoreSQLite", "GridLayout", "GridStoreAudit", "SeededRandom", "TestSupport"]
        ),
        .testTarget(
            name: "MigrationTextTests",
            dependencies: ["MigrationText"]
        ),
        // Every Swift snippet of README.md and docs/, compiled: Generated/ holds one file a
        // snippet, checked to be current; the UIKit and SwiftUI shells build against stand-ins.
        .testTarget(
            name: "SnippetTests",
            dependencies: ["GridStoreSQLite", "GridStorePostgreSQL", "GridStore", "GridLayout", "TestSupport"],
            exclude: ["Generated/README.md"],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility"), .unsafeFlags(["-suppress-warnings"])]
        ),
        .testTarget(
            name: "GridStoreCLITests",
            dependencies: ["GridStoreCLI", "GridStore", "GridStoreSQLite", "GridLayout", "GridStoreAudit", "SeededRandom", "TestSupport"]
        ),
    ]
)
