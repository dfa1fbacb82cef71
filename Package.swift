// swift-tools-version:6.0
import PackageDescription
import class Foundation.ProcessInfo

let package = Package(
    name: "PersistKit",
    // Linux is the first platform. On Apple's, Foundation's #Predicate translation needs these.
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "PersistKit", targets: ["PersistKit"]),
        .library(name: "TaskModel", targets: ["TaskModel"]),
        .executable(name: "tasks", targets: ["tasks"]),
        .executable(name: "persistkit", targets: ["persistkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The text layer (Unicode folding, collation, matching) at the bottom: no SQLite, no
        // PersistKit types. Its API is `package`, so an upward reference cannot compile.
        .target(
            name: "PersistKitText"
        ),
        // The collections at the bottom, beside the text layer: the Int64-keyed hash table the
        // identity map, the pending notice and the results controller share. Not a product.
        // Its API is `public` and `@inlinable`, so PersistKit gets it specialized: Swift 6.3
        // does not inline a `package` declaration's body into another module.
        .target(
            name: "PersistKitCollections"
        ),
        .target(
            name: "PersistKit",
            dependencies: [
                "CSQLite",
                "PersistKitText",
                "PersistKitCollections",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TaskModel",
            dependencies: ["PersistKit"]
        ),
        .executableTarget(
            name: "tasks",
            dependencies: [
                "TaskModel",
                "PersistKit",
                "TerminalProgress",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The progress bar both command-line tools draw on a terminal.
        .target(
            name: "TerminalProgress"
        ),
        // Reads any store without its application, through the model document the store records.
        .executableTarget(
            name: "persistkit",
            dependencies: [
                "PersistKit",
                "TerminalProgress",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What every test target shares: temporary directories, seeds, error expectations.
        .target(
            name: "PersistKitTestSupport",
            dependencies: ["PersistKit"],
            path: "Tests/PersistKitTestSupport"
        ),
        .testTarget(
            name: "PersistKitCollectionsTests",
            dependencies: ["PersistKitCollections", "PersistKitTestSupport"]
        ),
        .testTarget(
            name: "PersistKitTests",
            dependencies: [
                "PersistKit",
                "PersistKitText",
                "PersistKitTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "TaskModelTests",
            dependencies: ["TaskModel", "PersistKit", "PersistKitTestSupport"]
        ),
        // Depends on `tasks` so that the binary is built before the tests that run it; on
        // TaskModel to write stores of older model versions for the upgrade tests.
        .testTarget(
            name: "TasksCLITests",
            dependencies: ["tasks", "TaskModel", "PersistKit", "PersistKitTestSupport"]
        ),
        // Runs the `persistkit` binary on real stores (TaskModel's, version 1's too).
        .testTarget(
            name: "PersistKitToolTests",
            dependencies: ["persistkit", "TaskModel", "PersistKit", "PersistKitTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The DocC plugin adds ~10 s to every clean build: declare it only when asked.
if ProcessInfo.processInfo.environment["PERSISTKIT_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}

// Sync through PostgreSQL: its own library product, so that a program using PersistKit alone
// (and `swift run tasks`) never builds PostgresNIO. The thread-sanitizer build of .ci/run leaves
// it out (PERSISTKIT_WITHOUT_SYNC): PostgresNIO's own sanitized build would cost minutes.
if ProcessInfo.processInfo.environment["PERSISTKIT_WITHOUT_SYNC"] == nil {
    package.products += [
        .library(name: "PersistKitSync", targets: ["PersistKitSync"]),
        .executable(name: "tasks-sync", targets: ["tasks-sync"]),
    ]
    package.dependencies += [
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ]
    package.targets += [
        // Stores that sync through PostgreSQL. Only this target (and what depends on it) builds
        // PostgresNIO.
        .target(
            name: "PersistKitSync",
            dependencies: [
                "PersistKit",
                "PersistKitText",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `tasks sync` runs this program (found beside `tasks`), so that `tasks` itself does
        // not build PostgresNIO.
        .executableTarget(
            name: "tasks-sync",
            dependencies: [
                "TaskModel",
                "PersistKit",
                "PersistKitSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Starts its own PostgreSQL server (Debian's binaries), skipped with a notice without them.
        .testTarget(
            name: "PersistKitSyncTests",
            // `tasks` and `tasks-sync` are built before the tests that run them.
            dependencies: ["PersistKitSync", "PersistKit", "TaskModel", "PersistKitTestSupport", "tasks", "tasks-sync"]
        ),
    ]
}
