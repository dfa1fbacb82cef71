import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A store records the model document it was written with, so that a tool can read it
/// without the application's classes. Stores written before it did still open; the next save
/// (or migration) records it, and a read-only open leaves them byte-identical.
final class StoreModelRecordTests: XCTestCase {
    private func metadata(_ url: URL) throws -> [String: String] {
        let connection = try SQLiteConnection(path: url.path, configuration: .init(readOnly: true))
        return try StoreMetadata.read(connection)
    }

    /// A store as PersistKit wrote it before it recorded documents and versions.
    private func writeLegacyStore(at url: URL) throws {
        try writeStore(at: url, count: 3)
        try runRawSQL("DELETE FROM _persistkit_metadata WHERE key IN ('modelDocument', 'modelVersion')", on: url)
    }

    func testANewStoreRecordsItsModelDocumentAndVersion() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("new.sqlite")
        let model = try ManagedObjectModel(entities: [TestTask.self], version: 3)
        _ = try PersistentContainer(model: model, store: .sqlite(url))
        let recorded = try metadata(url)
        XCTAssertEqual(recorded["modelDocument"].map { Data($0.utf8) }, model.document)
        XCTAssertEqual(recorded["modelVersion"], "3")
        let loaded = try ManagedObjectModel(document: Data(try XCTUnwrap(recorded["modelDocument"]).utf8), version: 3)
        XCTAssertEqual(loaded.versionHash, model.versionHash, "the recorded document is the model")
    }

    func testAStoreWithoutItsDocumentOpensAndTheNextSaveRecordsIt() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("legacy.sqlite")
        try writeLegacyStore(at: url)
        XCTAssertNil(try metadata(url)["modelDocument"])
        let container = try PersistentContainer(model: taskModel(), store: .sqlite(url))
        let context = container.newContext()
        XCTAssertEqual(try context.count(for: FetchRequest<TestTask>()), 3)
        XCTAssertNil(try metadata(url)["modelDocument"], "opening and reading write nothing")
        let task = TestTask(context: context)
        task.name = "added"
        try context.save()
        XCTAssertEqual(try metadata(url)["modelDocument"].map { Data($0.utf8) }, try taskModel().document)
        XCTAssertEqual(try metadata(url)["modelVersion"], "1")
    }

    /// A save that fails inside its transaction rolls the record back with everything else;
    /// the next one writes it.
    func testTheRecordCommitsWithTheSave() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("legacy.sqlite")
        try writeLegacyStore(at: url)
        let context = try PersistentContainer(model: taskModel(), store: .sqlite(url)).newContext()
        context.automaticallyMergesChanges = false
        let task = try XCTUnwrap(context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.count)])).first)
        try runRawSQL("UPDATE \"Task\" SET \"name\" = 'elsewhere', \"_version\" = \"_version\" + 1 WHERE \"_pk\" = \(task.objectID.key)", on: url)
        task.name = "here"
        expectPersistError(try context.save(), [.conflict])
        XCTAssertNil(try metadata(url)["modelDocument"], "rolled back with the failed save")
        context.mergePolicy = .objectTrump
        try context.save()
        XCTAssertEqual(try metadata(url)["modelDocument"].map { Data($0.utf8) }, try taskModel().document)
    }

    func testAReadOnlyOpenOfAStoreWithoutItsDocumentLeavesItByteIdentical() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("legacy.sqlite")
        try writeLegacyStore(at: url)
        let bytes = try Data(contentsOf: url)
        do {
            let container = try PersistentContainer(model: taskModel(), store: .sqlite(url, readOnly: true))
            XCTAssertEqual(try container.newContext().count(for: FetchRequest<TestTask>()), 3)
        }
        XCTAssertEqual(try Data(contentsOf: url), bytes)
        XCTAssertNil(try metadata(url)["modelDocument"])
    }

    /// A migration records the new version's document in its transaction.
    func testAMigrationRecordsTheNewDocument() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("old.sqlite")
        try writeStore(at: url, model: PlannerV1.model()) { PlannerV1.Task(context: $0).title = "one" }
        try runRawSQL("DELETE FROM _persistkit_metadata WHERE key IN ('modelDocument', 'modelVersion')", on: url)
        _ = try openMigrating(url, to: PlannerV2.model(), from: [PlannerV1.model()])
        XCTAssertEqual(try metadata(url)["modelDocument"].map { Data($0.utf8) }, try PlannerV2.model().document)
        XCTAssertEqual(try metadata(url)["modelVersion"], "2")
    }
}
