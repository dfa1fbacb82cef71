import Foundation
import XCTest

/// Every public type of PersistKit is listed in a Topics group of the catalog's landing page, so
/// that the documentation's table of contents reaches it (DocC itself only warns about broken
/// links, not about types left out).
final class DocCTopicsTests: XCTestCase {
    private let package = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The names of the top-level public types declared under Sources/PersistKit.
    private func publicTypes() throws -> Set<String> {
        let sources = package.appendingPathComponent("Sources/PersistKit")
        let declaration = try NSRegularExpression(pattern:
            #"^(?:@\w+(?:\([^)]*\))?\s+)*public\s+(?:final\s+)?(?:class|struct|enum|protocol|actor)\s+(\w+)"#,
            options: .anchorsMatchLines)
        var names: Set<String> = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text) { names.insert(String(text[range])) }
            }
        }
        return names
    }

    /// The ``Symbol`` links under the landing page's `## Topics`.
    private func topicLinks() throws -> Set<String> {
        let page = package.appendingPathComponent("Sources/PersistKit/PersistKit.docc/PersistKit.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        guard let topics = text.range(of: "## Topics") else { return [] }
        let link = try NSRegularExpression(pattern: #"^- ``(\w+)``"#, options: .anchorsMatchLines)
        let section = String(text[topics.upperBound...])
        return Set(link.matches(in: section, range: NSRange(section.startIndex..., in: section)).compactMap {
            Range($0.range(at: 1), in: section).map { String(section[$0]) }
        })
    }

    func testEveryPublicTypeIsInATopicsGroup() throws {
        let types = try publicTypes()
        XCTAssertGreaterThan(types.count, 40, "the scan found too few public types: is the pattern stale?")
        let listed = try topicLinks()
        for name in types.sorted() where !listed.contains(name) {
            XCTFail("public type \(name) is in no Topics group of PersistKit.docc/PersistKit.md")
        }
    }
}
