import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Batch insert, update and delete: in SQL, one transaction each, with the save's checks and
/// the delete rules; live contexts and controllers merge what they did.
final class BatchRequestTests: XCTestCase {
    private func container(_ directory: TemporaryDirectory) throws -> PersistentContainer {
        try PersistentContainer(model: ManagedObjectModel(entities: graphEntities + [Account.self]),
                                store: .sqlite(directory.file("batch.sqlite")))
    }

    func testBatchInsertFromDictionariesAndFromAClosure() throws {
        let directory = TemporaryDirectory()
        let container = try container(directory)
        let context = container.newContext()
        let watcher = container.newContext()
        let controller = FetchedResultsController(fetchRequest: FetchRequest<GTag>(sortBy: [FetchSortDescriptor(\.label)]), context: watcher)
        try controller.performFetch()
        var inserted = 0
        let token = controller.observe { inserted += $0.insertedRows.count }
        let result = try context.execute(BatchInsertRequest<GTag>(objects: [["label": "b"], ["label": "a"]]))
        XCTAssertEqual(result.count, 2)
        var next = 0
        let labels = ["c", "d", "e"]
        let filled = try context.execute(BatchInsertRequest<GTag> { tag in
            guard next < labels.count else { return true }
            tag.label = labels[next]
            next += 1
            return false
        })
        XCTAssertEqual(filled.count, 3)
        XCTAssertEqual(try context.fetch(FetchRequest<GTag>(sortBy: [FetchSortDescriptor(\.label)])).map(\.label), ["a", "b", "c", "d", "e"])
        XCTAssertEqual(try context.existingObject(with: result.objectIDs[0]).value(forKey: "label") as? String, "b")
        watcher.processPendingChanges()
        XCTAssertEqual(inserted, 5, "the controller of another context merged the inserts")
        XCTAssertEqual(controller.fetchedObjects.map(\.label), ["a", "b", "c", "d", "e"])
        token.cancel()
    }

    func testABadRowIsNamedAndNothingIsWritten() throws {
        let directory = TemporaryDirectory()
        let context = try container(directory).newContext()
        expectError(try context.execute(BatchInsertRequest<GTask>(objects: [["title": "a"], ["title": "b"], ["done": true]])), .validation) { error in
            XCTAssertTrue(error.message.contains("index 2"), error.message)
            XCTAssertTrue(error.message.contains("title"), error.message)
        }
        expectError(try context.execute(BatchInsertRequest<GTask>(objects: [["title": "a"], ["title": 5]])), .typeMismatch) { error in
            XCTAssertTrue(error.message.contains("index 1"), error.message)
        }
        expectError(try context.execute(BatchInsertRequest<GTask>(objects: [["titel": "a"]])), .unknownKey)
        XCTAssertEqual(try context.count(for: FetchRequest<GTask>()), 0)
    }

    func testUniquenessIsCheckedAndObjectTrumpUpserts() throws {
        let directory = TemporaryDirectory()
        let context = try container(directory).newContext()
        try context.execute(BatchInsertRequest<Account>(objects: [["email": "a@x", "displayName": "Ann"]]))
        expectError(try context.execute(BatchInsertRequest<Account>(objects: [["email": "b@x"], ["email": "a@x"]])), .constraintViolation) { error in
            XCTAssertTrue(error.message.contains("index 1"), error.message)
        }
        expectError(try context.execute(BatchInsertRequest<Account>(objects: [["email": "c@x"], ["email": "c@x"]])), .constraintViolation) { error in
            XCTAssertTrue(error.message.contains("index 1") && error.message.contains("index 0"), error.message)
        }
        XCTAssertEqual(try context.count(for: FetchRequest<Account>()), 1)
        let stored = try XCTUnwrap(context.fetch(FetchRequest<Account>()).first)
        context.mergePolicy = .objectTrump
        let result = try context.execute(BatchInsertRequest<Account>(objects: [
            ["email": "a@x", "displayName": "Ann Lee"], ["email": "d@x", "displayName": "first"], ["email": "d@x", "displayName": "last"],
        ]))
        XCTAssertEqual(result.objectIDs[0], stored.objectID, "the stored object was updated")
        XCTAssertEqual(result.objectIDs[1], result.objectIDs[2], "of two colliding rows, one object")
        XCTAssertEqual(stored.displayName, "Ann Lee", "a registered object takes the new values")
        let accounts = try context.fetch(FetchRequest<Account>(sortBy: [FetchSortDescriptor(\.email)]))
        XCTAssertEqual(accounts.map(\.email), ["a@x", "d@x"])
        XCTAssertEqual(accounts.last?.displayName, "last")
    }

    func testBatchUpdateChangesMatchingRowsAndLiveObjects() throws {
        let directory = TemporaryDirectory()
        let context = try container(directory).newContext()
        try context.execute(BatchInsertRequest<GTask>(objects: (0..<10).map { ["title": "t\($0)", "done": $0 % 2 == 0] }))
        let held = try XCTUnwrap(context.fetch(FetchRequest<GTask>(predicate: \.title == "t2")).first)
        let result = try context.execute(BatchUpdateRequest<GTask>(predicate: \.done == true, propertiesToUpdate: ["title": "done"]))
        XCTAssertEqual(result.count, 5)
        XCTAssertEqual(held.title, "done", "a registered object is refreshed")
        XCTAssertEqual(try context.count(for: FetchRequest<GTask>(predicate: \.title == "done")), 5)
        expectError(try context.execute(BatchUpdateRequest<GTask>(propertiesToUpdate: ["nope": 1])), .unknownKey)
        expectError(try context.execute(BatchUpdateRequest<GTask>(propertiesToUpdate: ["title": nil])), .typeMismatch)
        XCTAssertEqual(try context.count(for: FetchRequest<GTask>(predicate: \.title == "done")), 5)
    }

    func testBatchUpdateRefusesAUniquenessCollision() throws {
        let directory = TemporaryDirectory()
        let context = try container(directory).newContext()
        try context.execute(BatchInsertRequest<Account>(objects: [["email": "a@x"], ["email": "b@x"]]))
        expectError(try context.execute(BatchUpdateRequest<Account>(propertiesToUpdate: ["email": "same@x"])), .constraintViolation)
        XCTAssertEqual(try context.fetch(FetchRequest<Account>(sortBy: [FetchSortDescriptor(\.email)])).map(\.email), ["a@x", "b@x"])
    }

    func testBatchDeleteKeepsTheDeleteRules() throws {
        let directory = TemporaryDirectory()
        let context = try container(directory).newContext()
        let owner = GOwner(context: context)
        owner.name = "Ann"
        let project = GProject(context: context)
        project.name = "Home"
        project.owner = owner
        let loose = GProject(context: context)
        loose.name = "Loose"
        let task = GTask(context: context)
        task.title = "t"
        task.project = loose
        try context.save()
        let result = try context.execute(BatchDeleteRequest<GOwner>(predicate: \.name == "Ann"))
        XCTAssertEqual(Set(result.objectIDs), [owner.objectID, project.objectID], "cascaded to the project")
        XCTAssertTrue(owner.isDeleted && project.isDeleted, "the context merged the deletion")
        try context.execute(BatchDeleteRequest<GProject>(objectIDs: [loose.objectID]))
        XCTAssertTrue(loose.isDeleted)
        XCTAssertNil(task.project, "nullified, and merged")
        let fresh = try container(directory).newContext()
        XCTAssertNil(try XCTUnwrap(fresh.fetch(FetchRequest<GTask>()).first).project)
        XCTAssertEqual(try fresh.count(for: FetchRequest<GProject>()), 0)
    }

    func testBatchDeleteIsDeniedAsAWhole() throws {
        let directory = TemporaryDirectory()
        let context = try container(directory).newContext()
        let person = GPerson(context: context)
        person.name = "Ann"
        let held = GDesk(context: context), free = GDesk(context: context)
        held.number = 1; free.number = 2
        held.person = person
        try context.save()
        expectError(try context.execute(BatchDeleteRequest<GDesk>()), .validation) { error in
            XCTAssertEqual(error.objectIDs, [held.objectID])
            XCTAssertTrue(error.message.contains("deny"), error.message)
        }
        XCTAssertEqual(try container(directory).newContext().count(for: FetchRequest<GDesk>()), 2, "nothing deleted")
        // Deleting the person too lets the desk go.
        try context.execute(BatchDeleteRequest<GDesk>(predicate: \.number == 2))
        XCTAssertTrue(free.isDeleted)
    }

    func testBadRequestsAreClearErrors() throws {
        let directory = TemporaryDirectory()
        let context = try container(directory).newContext()
        expectError(try context.execute(BatchDeleteRequest<ManagedObject>(entityName: "Nope")), .invalidRequest)
        expectError(try context.execute(BatchInsertRequest<TestTask>(objects: [["name": "x"]])), .invalidRequest)
        let tag = GTag(context: context)
        tag.label = "x"
        expectError(try context.execute(BatchDeleteRequest<GTag>(objectIDs: [tag.objectID])), .invalidRequest)
        try context.save()
        expectError(try context.execute(BatchDeleteRequest<GTask>(objectIDs: [tag.objectID])), .invalidRequest)
    }
}
