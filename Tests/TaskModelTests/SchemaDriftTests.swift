import Foundation
import PersistKit
import TaskModel
import XCTest

/// The code's model must match the committed model document: a schema change needs a new
/// version file (and, later, a migration), not a silent edit.
final class SchemaDriftTests: XCTestCase {
    /// `Schema/TaskModel/1.json`, found from this file's path: Tests/TaskModelTests/ -> root.
    private var committedDocumentURL: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Schema/TaskModel/1.json")
    }

    func testModelMatchesCommittedDocument() throws {
        // Writing the file is a deliberate act: only with TASKMODEL_WRITE_SCHEMA=1 set.
        if ProcessInfo.processInfo.environment["TASKMODEL_WRITE_SCHEMA"] == "1" {
            try TaskStore.makeModel().document.write(to: committedDocumentURL)
        }
        let committed: Data
        do {
            committed = try Data(contentsOf: committedDocumentURL)
        } catch {
            return XCTFail("Cannot read \(committedDocumentURL.path): \(error). Write it from TaskStore.makeModel().document.")
        }
        let current = try TaskStore.makeModel().document
        // Bytes first; if they differ, compare the JSON values, so that a Foundation whose
        // pretty-printer spaces empty arrays differently is not mistaken for a schema change.
        if try current != committed && !sameJSON(current, committed) {
            XCTFail("""
                TaskModel's model differs from \(committedDocumentURL.path).
                A schema change needs a new model version (Schema/TaskModel/2.json) and a migration.
                (A change of the document's format alone, with the same schema, is rewritten with
                TASKMODEL_WRITE_SCHEMA=1 swift test --filter SchemaDriftTests.)
                The code's model document is:
                \(String(decoding: current, as: UTF8.self))
                """)
        }
    }

    private func sameJSON(_ a: Data, _ b: Data) throws -> Bool {
        let left = try JSONSerialization.jsonObject(with: a) as? NSObject
        let right = try JSONSerialization.jsonObject(with: b) as? NSObject
        guard let left, let right else { return false }
        return left.isEqual(right)
    }

    func testCommittedDocumentLoadsAsTheSameSchema() throws {
        let committed = try Data(contentsOf: committedDocumentURL)
        let loaded = try ManagedObjectModel(document: committed)
        XCTAssertEqual(loaded.versionHash, try TaskStore.makeModel().versionHash)
        XCTAssertEqual(loaded.entities.map(\.name), ["Task", "StoreInfo"])
    }
}
