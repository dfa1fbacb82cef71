import Foundation
import XCTest

/// What a newcomer needs to depend on PersistKit (issue 14, item 20): the README shows the
/// dependency lines, they name this package as SwiftPM will see it, the manifest names the
/// package and its platforms, and there is a license. Read from the package's root.
final class PackageManifestTests: XCTestCase {
    /// The package root: three folders up from this file (Tests/PersistKitTests/<file>).
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The first match of `pattern` in `text`: its capture groups (the whole match first).
    private func firstMatch(_ pattern: String, in text: String) throws -> [String]? {
        let regex = try NSRegularExpression(pattern: pattern)
        guard let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        return (0..<match.numberOfRanges).map { index in
            Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
        }
    }

    func testReadmeShowsTheDependencyLinesForThisPackage() throws {
        let readme = try text("README.md")
        let manifest = try text("Package.swift")
        let packageLine = try XCTUnwrap(
            try firstMatch(#"\.package\(url: "(https://github\.com/[^"]+/([^"/]+?))(?:\.git)?", from: "([^"]+)"\)"#, in: readme),
            "README.md shows no `.package(url: \"https://github.com/…\", from: \"x.y.z\")` line")
        let (url, repository, version) = (packageLine[1], packageLine[2], packageLine[3])
        XCTAssertTrue(repository.contains("PersistKit"), "the dependency URL \(url) should name the PersistKit repository")

        // SwiftPM names a URL dependency after the URL's last component: that is what
        // `.product(package:)` must say (case does not matter to SwiftPM).
        let product = try XCTUnwrap(try firstMatch(#"\.product\(name: "PersistKit", package: "([^"]+)"\)"#, in: readme),
                                    "README.md shows no `.product(name: \"PersistKit\", package: …)` line")
        XCTAssertEqual(product[1], "PersistKit", "README's .product line should name the package PersistKit")
        XCTAssertEqual(product[1].lowercased(), repository.lowercased(),
                       "`.product(package: \"\(product[1])\")` does not match the URL's package identity \(repository)")
        XCTAssertTrue(manifest.contains(#".library(name: "PersistKit""#), "Package.swift has no PersistKit library product")

        // The version is a release tag, the one `tasks --version` prints.
        XCTAssertNotNil(try firstMatch(#"^\d+\.\d+\.\d+$"#, in: version), "README's `from: \"\(version)\"` is not a x.y.z version")
        let tasks = try text("Sources/tasks/Tasks.swift")
        let current = try XCTUnwrap(try firstMatch(#"static let version = "([^"]+)""#, in: tasks),
                                    "Sources/tasks/Tasks.swift no longer declares `static let version`")[1]
        XCTAssertEqual(version, current, "README's dependency snippet should name the current version (tasks --version)")
    }

    func testManifestNamesThePackageAndItsPlatforms() throws {
        let manifest = try text("Package.swift")
        let name = try XCTUnwrap(try firstMatch(#"Package\(\s*name:\s*"([^"]+)""#, in: manifest),
                                 "Package.swift declares no `Package(name:)`")[1]
        XCTAssertEqual(name, "PersistKit", "the package must be named PersistKit, not after its folder")
        XCTAssertNotNil(try firstMatch(#"platforms:\s*\[\s*\.\w+"#, in: manifest), "Package.swift states no `platforms:`")
    }

    func testTheRepositoryHasALicense() throws {
        let license = try text("LICENSE")
        XCTAssertTrue(license.contains("Copyright"), "LICENSE names no copyright holder")
        XCTAssertGreaterThan(license.count, 200, "LICENSE is too short to be a license")
    }
}
