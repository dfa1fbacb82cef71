import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Misuse of relationships is a clear error, never a crash; the graph and the store are as
/// they were.
final class RelationshipMisuseTests: XCTestCase {
    func testAnObjectOfAnotherContextIsRefused() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        let context = container.newContext(), other = container.newContext()
        let task = GTask(context: context)
        task.title = "t"
        let stranger = GProject(context: other)
        stranger.name = "elsewhere"
        task.project = stranger
        XCTAssertNil(task.project, "the graph is unchanged")
        XCTAssertEqual(stranger.tasks, [])
        expectError(try context.save(), .validation) { error in
            XCTAssertEqual(error.attribute, "project")
            XCTAssertTrue(error.message.contains("another context"), error.message)
        }
        XCTAssertEqual(try makeGraphContainer(directory).newContext().count(for: FetchRequest<GTask>()), 0)
        let mine = GProject(context: context)
        mine.name = "here"
        task.project = mine
        try context.save()
        XCTAssertTrue(task.project === mine)
    }

    func testADeletedObjectIsRefused() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        let project = GProject(context: context)
        project.name = "p"
        try context.save()
        context.delete(project)
        let task = GTask(context: context)
        task.title = "t"
        task.project = project
        XCTAssertNil(task.project)
        expectError(try context.save(), .validation) { error in
            XCTAssertTrue(error.message.contains("deleted"), error.message)
        }
        context.rollback()
        XCTAssertFalse(project.isDeleted)
        XCTAssertEqual(try context.count(for: FetchRequest<GTask>()), 0)
    }

    func testAnObjectInNoContextIsRefused() throws {
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: graphEntities)
        let context = try PersistentContainer(model: model, store: .inMemory).newContext()
        let task = GTask(context: context)
        task.title = "t"
        let loose = GProject(entity: try XCTUnwrap(model.entity(named: "GProject")), insertInto: nil)
        task.project = loose
        XCTAssertNil(task.project)
        expectError(try context.save(), .validation)
        _ = directory
    }

    /// `a.books.insert(orphan)`, `plan.steps.append(stranger)`: an object the context cannot link
    /// is not reported as held (issue 25, item 3), the list keeps what it held, and the next
    /// save names the relationship.
    func testAToManyRefusesWhatItCannotHold() throws {
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: graphEntities)
        let container = try PersistentContainer(model: model, store: .sqlite(directory.file("graph.sqlite")))
        let context = container.newContext(), other = container.newContext()
        let project = GProject(context: context)
        project.name = "p"
        let kept = GTask(context: context)
        kept.title = "kept"
        project.tasks = [kept]
        let plan = GPlan(context: context)
        plan.title = "plan"
        let step = GStep(context: context)
        step.text = "first"
        plan.steps = [step]
        let gone = GTask(context: context)
        gone.title = "gone"
        try context.save()
        context.delete(gone)
        let orphan = GTask(entity: try XCTUnwrap(model.entity(named: "GTask")), insertInto: nil)
        orphan.title = "orphan"
        let stranger = GTask(context: other)
        stranger.title = "stranger"
        let strangerStep = GStep(context: other)
        strangerStep.text = "stranger"

        for (what, misfit, problem) in [("deleted", gone, "deleted"), ("in no context", orphan, "no context"),
                                        ("of another context", stranger, "another context")] {
            project.tasks.insert(misfit)
            XCTAssertEqual(project.tasks, [kept], "a to-many given an object \(what) keeps what it held")
            XCTAssertFalse(project.tasks.contains(misfit), what)
            XCTAssertNil(misfit.project, what)
            expectError(try context.save(), .validation, what) { error in
                XCTAssertEqual(error.attribute, "tasks", what)
                XCTAssertTrue(error.message.contains(problem), error.message)
            }
            project.tasks = [kept]
            try context.save()
        }
        plan.steps.append(strangerStep)
        XCTAssertEqual(plan.steps, [step], "an ordered to-many too")
        expectError(try context.save(), .validation)
        plan.steps = [step]
        try context.save()
        let reader = container.newContext()
        let fresh = try XCTUnwrap(reader.fetch(FetchRequest<GProject>()).first)
        XCTAssertEqual(fresh.tasks.map(\.title), ["kept"])
    }

    func testTheKeyValueFormNamesWhatIsWrong() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        let task = GTask(context: context)
        task.title = "t"
        let tag = GTag(context: context)
        tag.label = "x"
        expectError(try task.setRelatedObjects([tag], forKey: "project"), .invalidRequest) { error in
            XCTAssertTrue(error.message.contains("GProject"), error.message)
        }
        expectError(try task.setRelatedObjects([], forKey: "nothing"), .unknownKey)
        expectError(try task.relatedObjects(forKey: "nothing"), .unknownKey)
        let a = GProject(context: context), b = GProject(context: context)
        expectError(try task.setRelatedObjects([a, b], forKey: "project"), .invalidRequest)
    }
}
