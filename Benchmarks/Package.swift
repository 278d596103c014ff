// swift-tools-version: 6.0
import PackageDescription

// gridstore's benchmarks: every timing goal, measured in one run of a release build, against
// baselines measured in the same run. A package of their own, so that building and testing the
// library never builds them; they reach gridstore only through its products.
//
//   swift build -c release --package-path Benchmarks
//   Benchmarks/.build/release/gridstore-bench [group ...]
let package = Package(
    name: "gridstore-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "gridstore", path: ".."),
    ],
    targets: [
        // The benchmarks.
        .executableTarget(
            name: "gridstore-bench",
            dependencies: [
                .product(name: "GridStoreSQLite", package: "gridstore"),
                .product(name: "GridStorePostgreSQL", package: "gridstore"),
                .product(name: "_GridStoreTestSupport", package: "gridstore"),
                .product(name: "gridstore", package: "gridstore"),
                "GridStoreCLIClient",
                "SQLiteBaseline",
            ]
        ),
        // The command line's own sources (a link to ../Sources/GridStoreCLI), built here as a
        // module of this package against gridstore's products alone: it fails to build the day
        // the command line uses anything but the libraries' public API. The editor benchmark
        // drives its model.
        .target(
            name: "GridStoreCLIClient",
            dependencies: [
                .product(name: "GridStoreSQLite", package: "gridstore"),
                .product(name: "GridStorePostgreSQL", package: "gridstore"),
            ]
        ),
        // Programs gridstore-bench starts as processes: an empty one (also linked as gridstore
        // is), and the original's UserDefaults storage.
        .executableTarget(name: "gridstore-bench-empty"),
        .executableTarget(name: "gridstore-bench-empty-static", linkerSettings: [.unsafeFlags(["-static-stdlib"])]),
        .executableTarget(name: "gridstore-bench-defaults"),
        // The raw C loops over SQLite that the repository's writes are measured against.
        .target(name: "SQLiteBaseline", linkerSettings: [.linkedLibrary("sqlite3")]),
    ]
)
