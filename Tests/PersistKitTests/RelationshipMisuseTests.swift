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

    /// An object its context let go (reset, or its deletion saved) cannot read its
    /// relationships: the properties read as empty, and the keyed form throws `.misuse` naming
    /// the object and the relationship instead of answering "none" (issue 28). Its attributes
    /// keep the values it last had. (A context freed hands its objects to a successor.)
    func testAnObjectWhoseContextIsGoneNamesItselfWhenItsRelationshipsAreRead() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        func saveGraph(in context: ManagedObjectContext) throws -> (GProject, GTask, GPlan) {
            let project = GProject(context: context)
            project.name = "p\(UUID())"
            let task = GTask(context: context)
            task.title = "t"
            task.project = project
            let plan = GPlan(context: context)
            plan.title = "plan"
            let step = GStep(context: context)
            step.text = "s"
            plan.steps = [step]
            try context.save()
            return (project, task, plan)
        }
        func expectNoContext(_ project: GProject, _ task: GTask, _ plan: GPlan, _ how: String) {
            XCTAssertNil(project.managedObjectContext, how)
            XCTAssertEqual(task.title, "t", "\(how): an attribute keeps the object's own value")
            XCTAssertEqual(try task.value(forKey: "title") as? String, "t", how)
            XCTAssertNil(task.project, how)
            XCTAssertEqual(project.tasks, [], how)
            XCTAssertEqual(plan.steps, [], how)
            for (object, key) in [(task as ManagedObject, "project"), (project, "tasks"), (plan, "steps"), (task, "tags")] {
                expectError(try object.relatedObjects(forKey: key), .misuse, "\(how): \(key)") { error in
                    XCTAssertEqual(error.objectIDs, [object.objectID])
                    XCTAssertEqual(error.attribute, key)
                    XCTAssertTrue(error.message.contains("\(object.entity.name).\(key) of \(object.objectID)"), error.message)
                    XCTAssertTrue(error.message.contains("no context"), error.message)
                }
            }
            expectError(try task.relatedObjects(forKey: "nothing"), .unknownKey, how)
        }

        let resetContext = container.newContext()
        let (project, task, plan) = try saveGraph(in: resetContext)
        XCTAssertEqual(try task.relatedObjects(forKey: "project"), [project], "in its context it reads")
        resetContext.reset()
        expectNoContext(project, task, plan, "after reset()")

        var dropped: ManagedObjectContext? = container.newContext()
        let kept = try saveGraph(in: try XCTUnwrap(dropped))
        weak let gone = dropped
        dropped = nil
        XCTAssertNil(gone, "the context is deallocated")
        // Its objects were handed to a successor (ContextSuccessorTests): they keep reading.
        XCTAssertNotNil(kept.0.managedObjectContext)
        XCTAssertTrue(kept.1.project === kept.0)
        XCTAssertEqual(try kept.1.relatedObjects(forKey: "project"), [kept.0])
        XCTAssertEqual(kept.2.steps.map(\.text), ["s"])

        let deleting = container.newContext()
        let doomed = try saveGraph(in: deleting)
        deleting.delete(doomed.0)
        deleting.delete(doomed.1)
        deleting.delete(doomed.2)
        try deleting.save()
        expectNoContext(doomed.0, doomed.1, doomed.2, "after its deletion was saved")

        let never = GTask(entity: try XCTUnwrap(container.model.entity(named: "GTask")), insertInto: nil)
        expectError(try never.relatedObjects(forKey: "project"), .misuse, "never inserted")

        let live = container.newContext()
        let again = try XCTUnwrap(live.existingObject(with: task.objectID) as? GTask)
        XCTAssertEqual(again.project?.objectID, project.objectID, "fetched again in a live context, it reads")
    }
}
