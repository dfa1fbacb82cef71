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

    // MARK: To-ones

    func testBatchInsertsSetToOnesToSavedObjects() throws {
        let directory = TemporaryDirectory()
        let container = try container(directory)
        let context = container.newContext()
        let home = GProject(context: context), work = GProject(context: context)
        home.name = "home"
        work.name = "work"
        try context.save()
        let loaded = home.tasks   // loaded before the batch: merged after it
        XCTAssertEqual(loaded.count, 0)
        try context.execute(BatchInsertRequest<GTask>(objects: [["title": "a", "project": home.objectID], ["title": "b", "project": work],
                                                               ["title": "c", "project": nil], ["title": "d", "project": NSNull()]]))
        var next = 0
        try context.execute(BatchInsertRequest<GTask> { task in
            guard next < 2 else { return true }
            task.title = "f\(next)"
            task.project = next == 0 ? home : nil
            next += 1
            return false
        })
        let reader = container.newContext()
        let fresh = try reader.fetch(FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\.title)]))
        XCTAssertEqual(fresh.map { "\($0.title):\($0.project?.name ?? "-")" }, ["a:home", "b:work", "c:-", "d:-", "f0:home", "f1:-"])
        XCTAssertEqual(Set(home.tasks.map(\.title)), ["a", "f0"], "the inverse, in the requesting context")
    }

    func testBadToOnesAreNamedWithTheirRowAndNothingIsWritten() throws {
        let directory = TemporaryDirectory()
        let container = try container(directory)
        let context = container.newContext()
        let home = GProject(context: context), gone = GProject(context: context)
        home.name = "home"
        gone.name = "gone"
        let tag = GTag(context: context)
        tag.label = "x"
        let plan = GPlan(context: context)
        plan.title = "p"
        try context.save()
        let goneID = gone.objectID
        try container.newContext().execute(BatchDeleteRequest<GProject>(objectIDs: [goneID]))
        let start = try container.currentHistoryToken()
        let unsaved = GProject(context: context)
        unsaved.name = "new"
        let rows: [([String: Any?], PersistError.Code, String)] = [
            (["title": "b", "project": goneID], .constraintViolation, "GProject \(goneID.primaryKey ?? -1)"),
            (["title": "b", "project": unsaved], .invalidRequest, "saved"),
            (["title": "b", "project": tag.objectID], .invalidRequest, "saved GProject"),
            (["title": "b", "project": "home"], .typeMismatch, "String"),
            (["title": "b", "tags": [tag]], .invalidRequest, "to-many"),
        ]
        for (row, code, words) in rows {
            expectError(try context.execute(BatchInsertRequest<GTask>(objects: [["title": "a", "project": home], row])), code) { error in
                XCTAssertTrue(error.message.contains("row at index 1") && error.message.contains(words), error.message)
            }
        }
        expectError(try context.execute(BatchInsertRequest<GStep>(objects: [["text": "s", "plan": plan]])), .invalidRequest) { error in
            XCTAssertTrue(error.message.contains("index 0") && error.message.contains("ordered"), error.message)
        }
        var calls = 0
        expectError(try context.execute(BatchInsertRequest<GTask> { task in
            calls += 1
            task.title = "f"
            task.tags = [tag]
            return calls > 1
        }), .invalidRequest) { error in
            XCTAssertTrue(error.message.contains("index 0") && error.message.contains("to-many"), error.message)
        }
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<GTask>()), 0, "nothing written")
        XCTAssertEqual(try container.history(after: start), [], "no transaction recorded")
    }

    func testAnUpsertKeepsTheStoredToOnesItDoesNotSet() throws {
        let directory = TemporaryDirectory()
        let container = try container(directory)
        let context = container.newContext()
        let owner = GOwner(context: context)
        owner.name = "Ann"
        let home = GProject(context: context)
        home.name = "home"
        home.owner = owner
        try context.save()
        context.mergePolicy = .objectTrump
        let result = try context.execute(BatchInsertRequest<GProject>(objects: [["name": "home", "rank": 3]]))
        XCTAssertEqual(result.objectIDs, [home.objectID])
        let reader = container.newContext()
        let fresh = try XCTUnwrap(reader.fetch(FetchRequest<GProject>()).first)
        XCTAssertEqual(fresh.rank, 3)
        XCTAssertEqual(fresh.owner?.name, "Ann", "an upsert that does not name the owner leaves it")
        XCTAssertEqual(home.rank, 3)
        XCTAssertEqual(home.owner?.name, "Ann")
    }

    // MARK: Delete rules, deeper

    func testCascadesReachEveryLevelAndReportEveryObject() throws {
        let directory = TemporaryDirectory()
        let container = try container(directory)
        let context = container.newContext()
        let plan = GPlan(context: context)
        plan.title = "p"
        let steps = (0..<3).map { index in
            let step = GStep(context: context)
            step.text = "s\(index)"
            return step
        }
        plan.steps = steps
        let owner = GOwner(context: context)
        owner.name = "Ann"
        let projects = (0..<2).map { index in
            let project = GProject(context: context)
            project.name = "p\(index)"
            project.owner = owner
            return project
        }
        let task = GTask(context: context)
        task.title = "t"
        task.project = projects[1]
        try context.save()
        let plans = try context.execute(BatchDeleteRequest<GPlan>())
        XCTAssertEqual(plans.objectIDs.first, plan.objectID, "the requested objects first")
        XCTAssertEqual(Set(plans.objectIDs), Set([plan.objectID] + steps.map(\.objectID)), "the ordered to-many's objects too")
        let owners = try context.execute(BatchDeleteRequest<GOwner>(objectIDs: [owner.objectID]))
        XCTAssertEqual(Set(owners.objectIDs), Set([owner.objectID] + projects.map(\.objectID)))
        XCTAssertTrue(steps.allSatisfy(\.isDeleted) && projects.allSatisfy(\.isDeleted))
        XCTAssertFalse(task.isDeleted)
        XCTAssertNil(task.project, "nullified: projects' tasks are not cascaded")
    }

    func testABatchOnAnEntityNotInTheModelIsAClearError() throws {
        let directory = TemporaryDirectory()
        let context = try container(directory).newContext()
        for error in [
            catching { try context.execute(BatchInsertRequest<TestTask>(objects: [["name": "x"]])) },
            catching { try context.execute(BatchUpdateRequest<TestTask>(propertiesToUpdate: ["name": "x"])) },
            catching { try context.execute(BatchDeleteRequest<TestTask>()) },
        ] {
            XCTAssertEqual(error?.code, .invalidRequest)
            XCTAssertTrue(error?.message.contains("TestTask") == true && error?.message.contains("GTask") == true, error?.message ?? "no error")
        }
        for error in [
            catching { try context.execute(BatchInsertRequest<ManagedObject>(entityName: "Nope", objects: [["name": "x"]])) },
            catching { try context.execute(BatchUpdateRequest<ManagedObject>(entityName: "Nope", propertiesToUpdate: ["name": "x"])) },
            catching { try context.execute(BatchDeleteRequest<ManagedObject>(entityName: "Nope")) },
        ] {
            XCTAssertEqual(error?.code, .invalidRequest)
            XCTAssertTrue(error?.message.contains("Nope") == true && error?.message.contains("not an entity") == true, error?.message ?? "no error")
        }
        expectError(try context.execute(BatchInsertRequest<GTag>(entityName: "GTask", objects: [["title": "x"]])), .invalidRequest) { error in
            XCTAssertTrue(error.message.contains("GTag") && error.message.contains("GTask"), error.message)
        }
    }

    private func catching(_ body: () throws -> BatchResult) -> PersistError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? PersistError
        }
    }
}
