import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A node of a chain and a cycle: each cascades to the next.
final class DRNode: ManagedObject {
    @Attribute var label = ""
    @Relationship(deleteRule: .cascade) var next: DRNode?
    @Relationship(inverse: \DRNode.next, deleteRule: .cascade) var previous: DRNode?
}

/// Delete rules run when an object is deleted: nullify lets go, cascade deletes to any depth
/// (cycles end), deny refuses the save naming the object and relationship, nothing written.
final class DeleteRuleTests: XCTestCase {
    func testNullifyTakesTheObjectOutOfEveryRelationship() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        let project = GProject(context: context)
        project.name = "Home"
        let tag = GTag(context: context)
        tag.label = "x"
        let task = GTask(context: context)
        task.title = "t"
        task.project = project
        task.tags = [tag]
        try context.save()
        context.delete(project)
        XCTAssertNil(task.project, "at once, before save")
        context.delete(tag)
        XCTAssertEqual(task.tags, [])
        try context.save()
        let fresh = try makeGraphContainer(directory).newContext()
        let stored = try XCTUnwrap(fresh.fetch(FetchRequest<GTask>()).first)
        XCTAssertNil(stored.project)
        XCTAssertEqual(stored.tags, [])
    }

    func testCascadeDeletesTheWholeTree() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        let owner = GOwner(context: context)
        owner.name = "Ann"
        for index in 0..<3 {
            let project = GProject(context: context)
            project.name = "p\(index)"
            project.owner = owner
        }
        let plan = GPlan(context: context)
        plan.title = "plan"
        plan.steps = (0..<4).map { index in
            let step = GStep(context: context)
            step.text = "s\(index)"
            return step
        }
        try context.save()
        context.delete(owner)
        context.delete(plan)
        XCTAssertEqual(try context.count(for: FetchRequest<GProject>()), 0)
        XCTAssertEqual(try context.count(for: FetchRequest<GStep>()), 0)
        try context.save()
        let fresh = try makeGraphContainer(directory).newContext()
        XCTAssertEqual(try fresh.count(for: FetchRequest<GProject>()), 0)
        XCTAssertEqual(try fresh.count(for: FetchRequest<GStep>()), 0)
        XCTAssertEqual(try fresh.count(for: FetchRequest<GOwner>()), 0)
    }

    func testDeepCascadesAndCyclesTerminate() throws {
        let directory = TemporaryDirectory()
        let model = try ManagedObjectModel(entities: [DRNode.self])
        let url = directory.file("chain.sqlite")
        let context = try PersistentContainer(model: model, store: .sqlite(url)).newContext()
        let length = testSize("DeleteRuleTests.chain", full: 20_000, ci: 5_000)
        var nodes: [DRNode] = []
        for index in 0..<length {
            let node = DRNode(context: context)
            node.label = "n\(index)"
            node.previous = nodes.last
            nodes.append(node)
        }
        let first = nodes[0], last = nodes[length - 1]
        XCTAssertNil(last.next)
        try context.save()
        XCTAssertTrue(first.previous == nil)
        last.next = first   // a cycle: deleting any node cascades around it, and stops
        XCTAssertTrue(first.previous === last)
        try context.save()
        nodes.removeAll()
        context.delete(first)
        try context.save()
        let fresh = try PersistentContainer(model: model, store: .sqlite(url)).newContext()
        XCTAssertEqual(try fresh.count(for: FetchRequest<DRNode>()), 0, "every node cascades from the first, through the cycle")
    }

    func testDenyRefusesTheSaveAndWritesNothing() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("graph.sqlite")
        let context = try makeGraphContainer(directory, url: url).newContext()
        let person = GPerson(context: context)
        person.name = "Ann"
        let desk = GDesk(context: context)
        desk.number = 7
        desk.person = person
        try context.save()
        let unrelated = GTag(context: context)
        unrelated.label = "also pending"
        context.delete(desk)
        expectError(try context.save(), .validation) { error in
            XCTAssertEqual(error.entity, "GDesk")
            XCTAssertEqual(error.attribute, "person")
            XCTAssertEqual(error.objectIDs, [desk.objectID])
            XCTAssertTrue(error.message.contains("deny"), error.message)
        }
        XCTAssertTrue(desk.isDeleted, "the context is as it was: the deletion is still pending")
        let fresh = try makeGraphContainer(directory, url: url).newContext()
        XCTAssertEqual(try fresh.count(for: FetchRequest<GDesk>()), 1)
        XCTAssertEqual(try fresh.count(for: FetchRequest<GTag>()), 0, "nothing of the refused save was written")
        person.desk = nil
        try context.save()
        XCTAssertEqual(try makeGraphContainer(directory, url: url).newContext().count(for: FetchRequest<GDesk>()), 0)
    }

    func testDeletingAnUnsavedObjectAppliesItsRules() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        let owner = GOwner(context: context)
        owner.name = "Ann"
        let project = GProject(context: context)
        project.name = "p"
        project.owner = owner
        let task = GTask(context: context)
        task.title = "t"
        task.project = project
        context.delete(owner)
        XCTAssertTrue(project.isDeleted)
        XCTAssertNil(task.project)
        try context.save()
        XCTAssertEqual(try context.count(for: FetchRequest<GTask>()), 1)
        XCTAssertEqual(try context.count(for: FetchRequest<GProject>()), 0)
    }

    func testAOneWayReferenceToAnObjectDeletedInTheSameSaveBecomesNil() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("oneway.sqlite")
        let model = try ManagedObjectModel(entities: predicateGraphEntities)
        let context = try PersistentContainer(model: model, store: .sqlite(url)).newContext()
        let blocker = RPTask(context: context), task = RPTask(context: context), watcher = RPOwner(context: context)
        blocker.title = "blocker"; task.title = "task"; watcher.name = "w"
        try context.save()
        task.blocker = blocker          // one-way: no inverse takes it away when blocker goes
        task.watchers = [watcher]
        let fresh = RPTask(context: context)
        fresh.title = "fresh"
        fresh.blocker = blocker
        context.delete(blocker)
        context.delete(watcher)
        try context.save()              // deletes run first: the references are written as NULL
        let reread = try PersistentContainer(model: model, store: .sqlite(url)).newContext()
        let tasks = try reread.fetch(FetchRequest<RPTask>(sortBy: [FetchSortDescriptor(\.title)]))
        XCTAssertEqual(tasks.map(\.title), ["fresh", "task"])
        XCTAssertTrue(tasks.allSatisfy { $0.blocker == nil && $0.watchers.isEmpty })
    }

    func testAOneWayReferenceToAnObjectDeletedBeforeItWasSavedIsDropped() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("oneway-unsaved.sqlite")
        let model = try ManagedObjectModel(entities: predicateGraphEntities)
        let context = try PersistentContainer(model: model, store: .sqlite(url)).newContext()
        let saved = RPTask(context: context)
        saved.title = "saved"
        try context.save()
        // Inserted and deleted without ever being saved, after one-way references to it were set
        // from a new object and from a saved one.
        let task = RPTask(context: context), blocker = RPTask(context: context)
        let watcher = RPOwner(context: context), kept = RPOwner(context: context)
        task.title = "task"; blocker.title = "blocker"; watcher.name = "gone"; kept.name = "kept"
        task.blocker = blocker
        task.watchers = [watcher, kept]
        saved.blocker = blocker
        saved.watchers = [watcher]
        context.delete(blocker)
        context.delete(watcher)
        XCTAssertNil(task.blocker)
        try context.save()   // failed: "refers to an unsaved object that is not part of this save"
        XCTAssertNil(task.blocker)
        XCTAssertNil(saved.blocker)
        XCTAssertEqual(task.watchers.map(\.name), ["kept"])
        XCTAssertTrue(saved.watchers.isEmpty)
        XCTAssertFalse(context.hasChanges)
        // What was written: no reference, no join row.
        let reread = try PersistentContainer(model: model, store: .sqlite(url)).newContext()
        let tasks = try reread.fetch(FetchRequest<RPTask>(sortBy: [FetchSortDescriptor(\.title)]))
        XCTAssertEqual(tasks.map(\.title), ["saved", "task"])
        XCTAssertTrue(tasks.allSatisfy { $0.blocker == nil })
        XCTAssertEqual(tasks.map { $0.watchers.compactMap(\.name).sorted() }, [[], ["kept"]])
        // And the objects saved with it stay consistent: another change saves.
        task.title = "task 2"
        try context.save()
    }
}
