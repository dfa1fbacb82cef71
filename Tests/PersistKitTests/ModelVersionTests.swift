import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A model's version and history: the version it declares, renames recorded in its document,
/// the committed documents it is held to, and the plan's own checks.
final class ModelVersionTests: XCTestCase {
    func testVersionIsOneUnlessGiven() throws {
        XCTAssertEqual(try ManagedObjectModel(entities: [PlannerV1.Task.self]).version, 1)
        XCTAssertEqual(try PlannerV3.model().version, 3)
        XCTAssertEqual(try ManagedObjectModel(document: PlannerV1.model().document).version, 1)
        XCTAssertEqual(try ManagedObjectModel(document: PlannerV1.model().document, version: 4).version, 4)
        expectPersistError(try ManagedObjectModel(entities: [PlannerV1.Task.self], version: 0), [.invalidModel])
    }

    /// Renames are part of the model document, and come back from it; a model without renames
    /// writes none (so documents committed before renames existed keep their bytes).
    func testRenamesAreRecordedInTheDocument() throws {
        let model = try PlannerV3.model()
        let text = String(decoding: model.document, as: UTF8.self)
        XCTAssertTrue(text.contains("\"originalName\" : \"done\""), text)
        XCTAssertTrue(text.contains("\"originalName\" : \"project\""), text)
        XCTAssertTrue(text.contains("\"originalName\" : \"Project\""), text)
        let loaded = try ManagedObjectModel(document: model.document, version: 3)
        XCTAssertEqual(loaded.entity(named: "Task")?.attribute(named: "isComplete")?.originalName, "done")
        XCTAssertEqual(loaded.entity(named: "Task")?.relationship(named: "folder")?.originalName, "project")
        XCTAssertEqual(loaded.entity(named: "Folder")?.originalName, "Project")
        XCTAssertEqual(loaded.document, model.document)
        XCTAssertEqual(loaded.versionHash, model.versionHash, "a rename alone does not change the stored schema's hash")
        XCTAssertFalse(String(decoding: try PlannerV1.model().document, as: UTF8.self).contains("originalName"))
    }

    func testTwoEntitiesCannotClaimOneOriginalName() throws {
        let error = expectPersistError(try documentModel(2, [
            entity("A", [attribute("x", "string")], originalName: "Old"),
            entity("B", [attribute("x", "string")], originalName: "Old"),
        ]), [.invalidModel])
        XCTAssertTrue(error?.message.contains("Old") ?? false, error?.message ?? "")
    }

    /// The planner model's code is held to its committed documents (Tests/Schema/Planner),
    /// and every older version migrates to it: the pattern an application's tests follow.
    func testPlannerModelMatchesItsSchemaHistory() throws {
        try assertModelMatchesSchemaHistory(PlannerV3.model(), directory: plannerSchemaDirectory)
        // The older versions' classes still describe their committed documents.
        for model in [try PlannerV1.model(), try PlannerV2.model()] {
            let committed = try Data(contentsOf: plannerSchemaDirectory.appendingPathComponent("\(model.version).json"))
            XCTAssertEqual(try ManagedObjectModel(document: committed).versionHash, model.versionHash, "version \(model.version)")
        }
    }

    /// The drift check fails on a model changed without a new version, and on a new version
    /// without its document (it cannot pass silently).
    func testSchemaHistoryCheckFailsOnDrift() throws {
        let directory = TemporaryDirectory()
        try PlannerV1.model().document.write(to: directory.file("1.json"))
        try PlannerV2.model().document.write(to: directory.file("2.json"))
        // Version 2 with one more attribute, and no new version number.
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: PlannerV2.model().document) as? [String: Any])
        var entities = try XCTUnwrap(json["entities"] as? [[String: Any]])
        entities[0]["attributes"] = (entities[0]["attributes"] as? [[String: Any]] ?? []) + [attribute("colour", "string", optional: true)]
        json["entities"] = entities
        let changed = try ManagedObjectModel(document: JSONSerialization.data(withJSONObject: json), version: 2)
        let drift = try schemaHistoryProblems(changed, directory: directory.url)
        XCTAssertEqual(drift.count, 1)
        XCTAssertTrue(drift.first?.contains("differs from") ?? false, "\(drift)")
        let unwritten = try schemaHistoryProblems(PlannerV3.model(), directory: directory.url)
        XCTAssertTrue(unwritten.first?.contains("commit 3.json") ?? false, "\(unwritten)")
        XCTAssertEqual(try schemaHistoryProblems(PlannerV2.model(), directory: directory.url), [])
    }

    // MARK: The plan's own checks

    func testPlanChecksPass() throws {
        try MigrationPlan(models: [PlannerV1.model(), PlannerV2.model()]).check(upTo: PlannerV3.model())
        try MigrationPlan(documentsIn: plannerSchemaDirectory).check(upTo: PlannerV3.model())
        try MigrationPlan(models: []).check(upTo: PlannerV1.model())
    }

    func testPlanWithTwoModelsOfOneVersionIsRefused() throws {
        let plan = MigrationPlan(models: [try PlannerV1.model(), try ManagedObjectModel(document: PlannerV2.model().document, version: 1)])
        let error = expectPersistError(try plan.check(upTo: PlannerV3.model()), [.invalidModel])
        XCTAssertTrue(error?.message.contains("two models of version 1") ?? false, error?.message ?? "")
    }

    func testPlanWithANewerVersionThanTheModelIsRefused() throws {
        let plan = MigrationPlan(models: [try PlannerV1.model(), try PlannerV3.model()])
        let error = expectPersistError(try plan.check(upTo: PlannerV2.model()), [.invalidModel])
        XCTAssertTrue(error?.message.contains("version 3") ?? false, error?.message ?? "")
    }

    func testPlanWhoseModelOfTheCurrentVersionDiffersIsRefused() throws {
        let plan = MigrationPlan(models: [try PlannerV1.model(), try ManagedObjectModel(document: PlannerV3.model().document, version: 2)])
        expectPersistError(try plan.check(upTo: PlannerV2.model()), [.invalidModel])
    }

    func testStageBetweenVersionsThatAreNotNeighboursIsRefused() throws {
        let plan = MigrationPlan(models: [try PlannerV1.model(), try PlannerV2.model()],
                                 stages: [.custom(from: 1, to: 3, didMigrate: { _ in })])
        let error = expectPersistError(try plan.check(upTo: PlannerV3.model()), [.invalidModel])
        XCTAssertTrue(error?.message.contains("from version 1 to 3") ?? false, error?.message ?? "")
        let twice = MigrationPlan(models: [try PlannerV1.model(), try PlannerV2.model()],
                                  stages: [.inferred(from: 1, to: 2), .custom(from: 1, to: 2)])
        expectPersistError(try twice.check(upTo: PlannerV3.model()), [.invalidModel])
    }

    func testPlanCheckFindsAChangeThatCannotBeInferred() throws {
        let old = try documentModel(1, [entity("Task", [attribute("rank", "string")])])
        let new = try documentModel(2, [entity("Task", [attribute("rank", "integer")])])
        let error = expectPersistError(try MigrationPlan(models: [old]).check(upTo: new), [.incompatibleModel])
        XCTAssertEqual(error?.entity, "Task")
        XCTAssertEqual(error?.attribute, "rank")
        XCTAssertTrue(error?.message.contains("string to integer") ?? false, error?.message ?? "")
    }

    func testPlanFromUnreadableDocumentsIsRefused() throws {
        let directory = TemporaryDirectory()
        try Data("{ not json".utf8).write(to: directory.file("1.json"))
        let error = expectPersistError(try MigrationPlan(documentsIn: directory.url), [.invalidModel])
        XCTAssertTrue(error?.message.contains("Version 1") ?? false, error?.message ?? "")
        expectPersistError(try MigrationPlan(documentsIn: directory.file("missing")), [.invalidModel])
    }
}
