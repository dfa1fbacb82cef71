import Foundation
import XCTest

/// Every ```swift block of README.md and of the DocC articles is compiled by a test (issue 25):
/// each paragraph of a block (its lines between blank lines, each trimmed) stands in a test
/// source file of this package, its lines in order and together (a test may put assertions,
/// lines starting `XCT`, between them), so it is compiled with the tests; or the block is one
/// of the fragments listed here, each with the reason it cannot be compiled.
final class DocumentationCodeBlocksTests: XCTestCase {
    private let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Blocks that are not Swift a test can compile: the file, the block's first line, and why.
    private let fragments: [(file: String, firstLine: String, reason: String)] = [
        ("README.md", "// Package.swift", "the dependencies and targets of a package manifest, whose own file is compiled by SwiftPM"),
    ]

    private struct Block {
        let file: String
        let line: Int
        let lines: [String]

        /// The block's paragraphs: runs of lines without a blank one, each line trimmed.
        var paragraphs: [[String]] {
            var result: [[String]] = [[]]
            for line in lines {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty {
                    if !(result.last?.isEmpty ?? true) { result.append([]) }
                } else {
                    result[result.count - 1].append(trimmed)
                }
            }
            return result.filter { !$0.isEmpty }
        }
    }

    /// The documentation files: README.md and every article of the catalog.
    private func documents() throws -> [String] {
        let catalog = "Sources/PersistKit/PersistKit.docc"
        let articles = try FileManager.default.contentsOfDirectory(atPath: package.appendingPathComponent(catalog).path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
        return ["README.md"] + articles
    }

    private func swiftBlocks(in file: String) throws -> [Block] {
        let text = try String(contentsOf: package.appendingPathComponent(file), encoding: .utf8)
        var blocks: [Block] = []
        var current: (line: Int, lines: [String])?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let open = current {
                if line.trimmingCharacters(in: .whitespaces) == "```" {
                    blocks.append(Block(file: file, line: open.line, lines: open.lines))
                    current = nil
                } else {
                    current?.lines.append(String(line))
                }
            } else if line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = (index + 1, [])
            }
        }
        XCTAssertNil(current, "\(file): a ```swift block is not closed")
        return blocks
    }

    /// Every Swift file under Tests/ but this one, as trimmed lines without blank ones.
    private func testSources() throws -> [(path: String, lines: [String])] {
        let tests = package.appendingPathComponent("Tests")
        var sources: [(String, [String])] = []
        let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift", file.lastPathComponent != URL(fileURLWithPath: #filePath).lastPathComponent else { continue }
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            sources.append((file.path, lines))
        }
        return sources
    }

    /// Whether `paragraph` stands in `lines` from some line on, lines starting `XCT` allowed
    /// between its lines.
    private func contains(_ lines: [String], _ paragraph: [String]) -> Bool {
        guard let first = paragraph.first else { return true }
        for start in lines.indices where lines[start] == first {
            var index = start + 1
            var matched = 1
            while matched < paragraph.count, index < lines.count {
                if lines[index] == paragraph[matched] {
                    matched += 1
                } else if !lines[index].hasPrefix("XCT") {
                    break
                }
                index += 1
            }
            if matched == paragraph.count { return true }
        }
        return false
    }

    func testEveryBlockIsCompiledByATest() throws {
        let sources = try testSources()
        XCTAssertGreaterThan(sources.count, 50, "the scan found too few test files")
        var blockCount = 0
        for file in try documents() {
            for block in try swiftBlocks(in: file) {
                blockCount += 1
                if fragments.contains(where: { $0.file == file && $0.firstLine == block.paragraphs.first?.first }) { continue }
                for paragraph in block.paragraphs where !sources.contains(where: { contains($0.lines, paragraph) }) {
                    XCTFail("\(file):\(block.line): a Swift block's lines stand in no test file, in order and together:\n"
                            + paragraph.joined(separator: "\n"))
                }
            }
        }
        XCTAssertGreaterThan(blockCount, 40, "the scan found too few Swift blocks: is the pattern stale?")
    }

    /// The fragments listed are still in the documentation, so the list cannot outlive them.
    func testTheFragmentsAreStillThere() throws {
        for fragment in fragments {
            let firstLines = try swiftBlocks(in: fragment.file).compactMap { $0.paragraphs.first?.first }
            XCTAssertTrue(firstLines.contains(fragment.firstLine), "\(fragment.file) has no Swift block starting \(fragment.firstLine)")
            XCTAssertFalse(fragment.reason.isEmpty)
        }
    }

    /// The checker itself: a paragraph matches only in order and together.
    func testTheMatchIsInOrderAndTogether() {
        let lines = ["let a = 1", "XCTAssertEqual(a, 1)", "let b = 2", "let c = 3"]
        XCTAssertTrue(contains(lines, ["let a = 1", "let b = 2"]), "assertions may stand between")
        XCTAssertFalse(contains(lines, ["let b = 2", "let a = 1"]), "not in another order")
        XCTAssertFalse(contains(lines, ["let a = 1", "let c = 3"]), "not with other code between")
        XCTAssertFalse(contains(lines, ["let d = 4"]))
    }
}
