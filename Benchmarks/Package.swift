// swift-tools-version:6.0
import PackageDescription

// PersistKit beside raw SQLite and GRDB, in one process (and PersistKitSync through a
// PostgreSQL server of its own). GRDB is a dependency of this package only, never of PersistKit.
let package = Package(
    name: "PersistKitBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "PersistKit", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLiteBench",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .executableTarget(
            name: "persistkit-bench",
            dependencies: [
                .product(name: "PersistKit", package: "PersistKit"),
                .product(name: "PersistKitSync", package: "PersistKit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                "CSQLiteBench",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
