import Foundation
import XCTest

/// README stays a newcomer's page: its "Limitations" section says only what is still true, and
/// benchmark detail lives in Benchmarks/README.md, with a short summary table in README.
final class ReadmeStructureTests: XCTestCase {
    private let package = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func text(_ path: String) throws -> String {
        try String(contentsOf: package.appendingPathComponent(path), encoding: .utf8)
    }

    /// The text of the `## title` section (up to the next `## `).
    private func section(_ title: String, of text: String) -> String? {
        guard let start = text.range(of: "\n## \(title)\n") else { return nil }
        let rest = text[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// Claims that were true once and are not any more: each was a limitation of an earlier
    /// PersistKit, and the feature that retired it has tests of its own.
    private let retiredClaims = [
        "One connection per store",            // the reader pool (issue 11)
        "no background contexts",              // perform / performBackgroundTask
        "does not yet follow",                 // the controller follows related objects (issue 10)
        "no relationships",                    // the object graph
        "no batched fetching",                 // fetchBatchSize (issue 13)
        "`.error` (the default) and `.objectTrump` (which also upserts inserts\n  colliding on a uniqueness constraint) only",
        "no migration",
        "no persistent history",
    ]

    func testLimitationsListOnlyWhatIsStillMissing() throws {
        let readme = try text("README.md")
        let limitations = try XCTUnwrap(section("Limitations", of: readme), "README.md has no '## Limitations' section")
        let bullets = limitations.split(separator: "\n").filter { $0.hasPrefix("- ") }
        XCTAssertGreaterThanOrEqual(bullets.count, 3, "the Limitations section lists its limitations as bullets")
        for claim in retiredClaims {
            XCTAssertFalse(limitations.localizedCaseInsensitiveContains(claim), "README's Limitations still says \"\(claim)\", which is no longer true")
        }
    }

    func testPerformanceIsASummaryThatPointsAtTheBenchmarks() throws {
        let readme = try text("README.md")
        let performance = try XCTUnwrap(section("Performance", of: readme), "README.md has no '## Performance' section")
        XCTAssertTrue(performance.contains("(Benchmarks/README.md)"), "the Performance section links Benchmarks/README.md")
        let rows = performance.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| ---") && !$0.hasPrefix("| workload") }
        XCTAssertGreaterThanOrEqual(rows.count, 5, "a summary table of the main workloads")
        XCTAssertLessThanOrEqual(rows.count, 12, "a summary only: the full table belongs in Benchmarks/README.md")
        let benchmarks = try text("Benchmarks/README.md")
        for workload in ["insert", "fetch", "fetch-predicate", "update", "count", "prefetch", "batch-insert", "iterate-1m"] {
            XCTAssertTrue(benchmarks.contains("| \(workload) |"), "Benchmarks/README.md has the full \(workload) row")
        }
    }

    /// README's Documentation section names every article of the DocC catalog (issue 25,
    /// item 12: it named 2 of 11).
    func testTheDocumentationSectionListsEveryArticle() throws {
        let readme = try text("README.md")
        let documentation = try XCTUnwrap(section("Documentation", of: readme), "README.md has no '## Documentation' section")
        let catalog = "Sources/PersistKit/PersistKit.docc"
        let articles = try FileManager.default.contentsOfDirectory(atPath: package.appendingPathComponent(catalog).path)
            .filter { $0.hasSuffix(".md") && $0 != "PersistKit.md" }
        XCTAssertGreaterThanOrEqual(articles.count, 10)
        for article in articles {
            let title = try text("\(catalog)/\(article)").split(separator: "\n").first.map { String($0.dropFirst(2)) } ?? article
            XCTAssertTrue(documentation.localizedCaseInsensitiveContains("*\(title)*"), "README's Documentation section does not list \(title)")
        }
    }
}
