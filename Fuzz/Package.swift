// swift-tools-version:6.0
import PackageDescription

// Coverage-guided fuzz targets (libFuzzer) for PersistKit's inputs from outside: predicate
// format strings, Foundation predicates, store files, task documents. Built and run by
// `Fuzz/run` with `-sanitize=fuzzer,address`; a separate package, so that the main one
// builds no fuzzing code.
let package = Package(
    name: "PersistKitFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "PersistKit", path: ".."),
    ],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "PersistKit", package: "PersistKit")]
        ),
        .executableTarget(
            name: "fuzz-predicate-format",
            dependencies: ["FuzzSupport", .product(name: "PersistKit", package: "PersistKit")]
        ),
        .executableTarget(
            name: "fuzz-foundation-predicate",
            dependencies: ["FuzzSupport", .product(name: "PersistKit", package: "PersistKit")]
        ),
        .executableTarget(
            name: "fuzz-store-file",
            dependencies: ["FuzzSupport", .product(name: "PersistKit", package: "PersistKit")]
        ),
        .executableTarget(
            name: "fuzz-task-import",
            dependencies: ["FuzzSupport", .product(name: "PersistKit", package: "PersistKit"),
                           .product(name: "TaskModel", package: "PersistKit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
