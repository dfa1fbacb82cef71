import Foundation
import PersistKit
import TaskModel
import XCTest

/// The code's models must match the committed model documents: the newest version
/// (`TaskStore.makeModel()`) is `Schema/TaskModel/3.json`, and the released versions 1 and 2
/// (`TaskModelV1`, `TaskModelV2`, kept for the migration) are `1.json` and `2.json`, which
/// never change. A schema change needs
/// a new version file and a migration stage, not a silent edit.
final class SchemaDriftTests: XCTestCase {
    /// The newest committed version: the code's model must match it.
    private static let newestVersion = 3

    /// `Schema/TaskModel/<n>.json`, found from this file's path: Tests/TaskModelTests/ -> root.
    private func committedDocumentURL(_ version: Int) -> URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Schema/TaskModel/\(version).json")
    }

    func testModelMatchesNewestCommittedDocument() throws {
        let url = committedDocumentURL(SchemaDriftTests.newestVersion)
        // Writing the file is a deliberate act: only with TASKMODEL_WRITE_SCHEMA=1 set.
        if ProcessInfo.processInfo.environment["TASKMODEL_WRITE_SCHEMA"] == "1" {
            try TaskStore.makeModel().document.write(to: url)
        }
        try assertModel(try TaskStore.makeModel(), matches: url, hint: """
            A schema change needs a new model version (Schema/TaskModel/\(SchemaDriftTests.newestVersion + 1).json) and a \
            migration stage. (A change of the document's format alone, with the same schema, is rewritten with \
            TASKMODEL_WRITE_SCHEMA=1 swift test --filter SchemaDriftTests.)
            """)
    }

    func testNoNewerDocumentIsCommittedThanTheCodesModel() {
        let newer = committedDocumentURL(SchemaDriftTests.newestVersion + 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: newer.path),
                       "\(newer.path) exists: the code's model must be that version (and this test's newestVersion raised)")
    }

    func testVersion1DeclarationMatchesItsReleasedDocument() throws {
        try assertModel(try TaskModelV1.makeModel(), matches: committedDocumentURL(1),
                        hint: "Version 1 is released: neither Schema/TaskModel/1.json nor TaskModelV1 may change.")
    }

    func testVersion2DeclarationMatchesItsReleasedDocument() throws {
        try assertModel(try TaskModelV2.makeModel(), matches: committedDocumentURL(2),
                        hint: "Version 2 is released: neither Schema/TaskModel/2.json nor TaskModelV2 may change.")
    }

    func testCommittedDocumentsLoadAsTheSameSchemas() throws {
        let newest = try ManagedObjectModel(document: try Data(contentsOf: committedDocumentURL(SchemaDriftTests.newestVersion)))
        XCTAssertEqual(newest.versionHash, try TaskStore.makeModel().versionHash)
        XCTAssertEqual(newest.entities.map(\.name), ["Task", "StoreInfo", "Project", "Tag", "ReminderNotice", "Day", "DayStats", "Attachment"])
        let second = try ManagedObjectModel(document: try Data(contentsOf: committedDocumentURL(2)))
        XCTAssertEqual(second.versionHash, try TaskModelV2.makeModel().versionHash)
        XCTAssertEqual(second.entities.map(\.name), ["Task", "StoreInfo", "Project", "Tag", "ReminderNotice"])
        let first = try ManagedObjectModel(document: try Data(contentsOf: committedDocumentURL(1)))
        XCTAssertEqual(first.versionHash, try TaskModelV1.makeModel().versionHash)
        XCTAssertEqual(first.entities.map(\.name), ["Task", "StoreInfo"])
        XCTAssertEqual(Set([first.versionHash, second.versionHash, newest.versionHash]).count, 3)
    }

    private func assertModel(_ model: ManagedObjectModel, matches url: URL, hint: String,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        let committed: Data
        do {
            committed = try Data(contentsOf: url)
        } catch {
            return XCTFail("Cannot read \(url.path): \(error).", file: file, line: line)
        }
        let current = model.document
        // Bytes first; if they differ, compare the JSON values, so that a Foundation whose
        // pretty-printer spaces empty arrays differently is not mistaken for a schema change.
        if try current != committed && !sameJSON(current, committed) {
            XCTFail("""
                The model differs from \(url.path).
                \(hint)
                The code's model document is:
                \(String(decoding: current, as: UTF8.self))
                """, file: file, line: line)
        }
    }

    private func sameJSON(_ a: Data, _ b: Data) throws -> Bool {
        let left = try JSONSerialization.jsonObject(with: a) as? NSObject
        let right = try JSONSerialization.jsonObject(with: b) as? NSObject
        guard let left, let right else { return false }
        return left.isEqual(right)
    }
}
