// swift-tools-version:6.0
import PackageDescription
import class Foundation.ProcessInfo

let package = Package(
    name: "PersistKit",
    products: [
        .library(name: "PersistKit", targets: ["PersistKit"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "PersistKit",
            dependencies: ["CSQLite"]
        ),
        .testTarget(
            name: "PersistKitTests",
            dependencies: ["PersistKit"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The DocC plugin adds ~10 s to every clean build: declare it only when asked.
if ProcessInfo.processInfo.environment["PERSISTKIT_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
