import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Child contexts (Core Data's nested contexts): a child reads through its parent, its save
/// pushes its edits one level up as the parent's unsaved changes, the parent's save writes
/// them, and a child dropped unsaved changes nothing.
final class ChildContextTests: XCTestCase {
    private func names<T: ManagedObject>(_ objects: [T], _ key: KeyPath<T, String>) -> [String] {
        objects.map { $0[keyPath: key] }
    }

    private func project(_ name: String, in context: ManagedObjectContext) throws -> GProject {
        try XCTUnwrap(context.fetch(FetchRequest<GProject>(predicate: \.name == name)).first)
    }

    private func task(_ title: String, in context: ManagedObjectContext) throws -> GTask {
        try XCTUnwrap(context.fetch(FetchRequest<GTask>(predicate: \.title == title)).first)
    }

    func testAChildSeesItsParentsUnsavedChangesInItsOwnInstances() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try saveHomeGraph(in: container)
        let parent = container.newContext()
        let home = try project("Home", in: parent)
        home.name = "House"
        let work = GProject(context: parent)
        work.name = "Work"
        parent.delete(try task("b", in: parent))
        let urgent = try XCTUnwrap(parent.fetch(FetchRequest<GTag>()).first)
        let c = GTask(context: parent)
        c.title = "c"
        c.project = work
        c.tags = [urgent]

        let child = try parent.newChildContext()
        XCTAssertFalse(child.hasChanges, "what the child starts from is not its change")
        XCTAssertTrue(child.parentContext === parent)
        let projects = try child.fetch(FetchRequest<GProject>(sortBy: [FetchSortDescriptor(\.name)]))
        XCTAssertEqual(names(projects, \.name), ["House", "Work"])
        XCTAssertFalse(projects.contains { $0 === home || $0 === work }, "the child's own instances")
        XCTAssertEqual(projects[0].objectID, home.objectID)
        XCTAssertEqual(projects[1].objectID, work.objectID, "the parent's insert, under the same temporary ID")
        XCTAssertEqual(try child.count(for: FetchRequest<GProject>(predicate: \.name == "House")), 1)
        XCTAssertEqual(try child.count(for: FetchRequest<GProject>(predicate: \.name == "Home")), 0)
        XCTAssertEqual(names(try child.fetch(FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\.title)])), \.title), ["a", "c"])
        let childC = try task("c", in: child)
        XCTAssertTrue(childC.project === projects[1])
        XCTAssertEqual(childC.tags.map(\.label), ["urgent"])
        XCTAssertEqual(projects[1].tasks.map(\.title), ["c"])
        XCTAssertEqual(names(projects[0].tasks.sorted { $0.title < $1.title }, \.title), ["a"])
        XCTAssertTrue(try child.existingObject(with: home.objectID) === projects[0])
    }

    func testAChildsSaveReachesTheParentNotTheStoreAndTheParentsSaveWritesIt() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try saveHomeGraph(in: container)
        let parent = container.newContext()
        let child = try parent.newChildContext()
        let home = try project("Home", in: child)
        home.rank = 7
        let tag = GTag(context: child)
        tag.label = "later"
        let task = GTask(context: child)
        task.title = "c"
        task.project = home
        task.tags = [tag]
        child.delete(try self.task("b", in: child))
        XCTAssertTrue(child.hasChanges)
        try child.save()
        XCTAssertFalse(child.hasChanges, "pushed")

        XCTAssertTrue(parent.hasChanges)
        let parentHome = try project("Home", in: parent)
        XCTAssertEqual(parentHome.rank, 7)
        XCTAssertEqual(names(parentHome.tasks.sorted { $0.title < $1.title }, \.title), ["a", "c"])
        let parentC = try self.task("c", in: parent)
        XCTAssertEqual(parentC.objectID, task.objectID, "the insert keeps its ID in the parent")
        XCTAssertEqual(parentC.tags.map(\.label), ["later"])
        let reader = container.newContext()
        XCTAssertEqual(try reader.count(for: FetchRequest<GTask>()), 2, "nothing reached the store")
        XCTAssertEqual(try project("Home", in: reader).rank, 0)

        try parent.save()
        let fresh = try makeGraphContainer(directory).newContext()
        XCTAssertEqual(names(try fresh.fetch(FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\.title)])), \.title), ["a", "c"])
        XCTAssertEqual(try project("Home", in: fresh).rank, 7)
        XCTAssertEqual(try self.task("c", in: fresh).tags.map(\.label), ["later"])
    }

    func testADroppedChildChangesNothing() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try saveHomeGraph(in: container)
        let parent = container.newContext()
        let home = try project("Home", in: parent)
        do {
            let child = try parent.newChildContext()
            try project("Home", in: child).name = "Gone"
            let extra = GTask(context: child)
            extra.title = "extra"
            child.delete(try task("a", in: child))
        }
        XCTAssertFalse(parent.hasChanges)
        XCTAssertEqual(home.name, "Home")
        XCTAssertEqual(try parent.count(for: FetchRequest<GTask>()), 2)
        XCTAssertTrue(parent.family.liveChildren.isEmpty, "the parent does not keep its children")
    }

    func testThreeLevelsPushOneLevelAtATime() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try saveHomeGraph(in: container)
        let parent = container.newContext()
        try project("Home", in: parent).rank = 1
        let child = try parent.newChildContext()
        let work = GProject(context: child)
        work.name = "Work"
        let grandchild = try child.newChildContext()
        XCTAssertEqual(try project("Home", in: grandchild).rank, 1, "reads go up through every level")
        let grandWork = try project("Work", in: grandchild)
        grandWork.rank = 3
        let task = GTask(context: grandchild)
        task.title = "deep"
        task.project = grandWork

        try grandchild.save()
        XCTAssertEqual(try project("Work", in: child).rank, 3)
        XCTAssertEqual(try self.task("deep", in: child).project?.name, "Work")
        XCTAssertEqual(try parent.count(for: FetchRequest<GProject>()), 1, "the grandchild's save reached only the child")
        try child.save()
        XCTAssertEqual(try project("Work", in: parent).rank, 3)
        XCTAssertEqual(try self.task("deep", in: parent).project?.name, "Work")
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<GProject>()), 1)
        try parent.save()

        let fresh = try makeGraphContainer(directory).newContext()
        XCTAssertEqual(try self.task("deep", in: fresh).project?.name, "Work")
        XCTAssertEqual(try project("Work", in: fresh).rank, 3)
        XCTAssertEqual(try project("Home", in: fresh).rank, 1)
        // After the parent's save every level answers the permanent IDs.
        let saved = try project("Work", in: parent).objectID
        XCTAssertFalse(saved.isTemporary)
        XCTAssertEqual(work.objectID, saved)
        XCTAssertEqual(grandWork.objectID, saved)
        XCTAssertEqual(task.objectID, try self.task("deep", in: parent).objectID)
        XCTAssertFalse(task.objectID.isTemporary)
    }

    func testAChildsInsertKeepsWorkingAndTakesItsPermanentIDAfterTheParentsSave() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        let parent = container.newContext()
        let child = try parent.newChildContext()
        let project = GProject(context: child)
        project.name = "Work"
        try child.save()
        XCTAssertTrue(project.objectID.isTemporary)
        project.rank = 2
        try child.save()
        XCTAssertEqual(try self.project("Work", in: parent).rank, 2)
        try parent.save()
        let permanent = try self.project("Work", in: parent).objectID
        XCTAssertFalse(permanent.isTemporary)
        XCTAssertEqual(project.objectID, permanent, "the child's object answers the permanent ID (Core Data's keeps the temporary one)")
        XCTAssertTrue(try child.existingObject(with: permanent) === project)
        XCTAssertFalse(child.hasChanges)
        XCTAssertEqual(try child.fetch(FetchRequest<GProject>()).count, 1, "one object, not the saved row beside the insert")
        // An edit after the parent's save is an update of the saved object.
        project.rank = 5
        let task = GTask(context: child)
        task.title = "t"
        task.project = project
        try child.save()
        try parent.save()
        let fresh = try makeGraphContainer(directory).newContext()
        XCTAssertEqual(try self.project("Work", in: fresh).rank, 5)
        XCTAssertEqual(try self.task("t", in: fresh).project?.name, "Work")
    }

    func testValidationAndUniquenessRunAtTheChildsSaveAgainstWhatTheParentSees() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try saveHomeGraph(in: container)
        let parent = container.newContext()
        let work = GProject(context: parent)
        work.name = "Work"
        let child = try parent.newChildContext()
        let duplicate = GProject(context: child)
        duplicate.name = "Work"
        expectError(try child.save(), .constraintViolation, "the parent's unsaved project holds the name")
        duplicate.name = "Home"
        expectError(try child.save(), .constraintViolation, "the store's project holds the name")
        XCTAssertEqual(try parent.count(for: FetchRequest<GProject>()), 2, "nothing pushed")
        duplicate.name = "Garden"
        let untitled = GTask(context: child)
        _ = untitled
        expectError(try child.save(), .validation, "a required title is missing")
        XCTAssertEqual(try parent.count(for: FetchRequest<GProject>()), 2, "nothing pushed")
        child.delete(untitled)
        // The parent renamed its project: the child sees the name free.
        let childHome = try project("Home", in: child)
        childHome.name = "Old home"
        duplicate.name = "Home"
        try child.save()
        XCTAssertEqual(names(try parent.fetch(FetchRequest<GProject>(sortBy: [FetchSortDescriptor(\.name)])), \.name),
                       ["Home", "Old home", "Work"])
        try parent.save()
    }

    func testTheParentsObserversAndControllersHearAPushAsOneChange() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try saveHomeGraph(in: container)
        let parent = container.newContext()
        let results = FetchedResultsController(fetchRequest: FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\.title)]), context: parent)
        try results.performFetch()
        var notices: [ContextChanges] = []
        let observing = parent.addObserver { notices.append($0) }
        var changeSets: [ChangeSet] = []
        let watching = results.observe { changeSets.append($0) }
        defer { observing.cancel(); watching.cancel() }

        let child = try parent.newChildContext()
        try task("a", in: child).title = "z"
        child.delete(try task("b", in: child))
        let added = GTask(context: child)
        added.title = "c"
        try child.save()

        XCTAssertEqual(notices.count, 1, "one notice for the whole push")
        XCTAssertEqual(notices.first?.inserted.count, 1)
        XCTAssertEqual(notices.first?.deleted.count, 1)
        // Task "a" renamed, and project "Home", whose tasks lost "b": as if edited in the parent.
        XCTAssertEqual(Set(notices.first?.updated.map { ($0.object as? GTask)?.title ?? ($0.object as? GProject)?.name ?? "" } ?? []),
                       ["z", "Home"])
        XCTAssertEqual(changeSets.count, 1)
        XCTAssertEqual(results.fetchedObjects.map(\.title), ["c", "z"])
        XCTAssertEqual(try parent.fetch(FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\.title)])).map(\.title), ["c", "z"])
    }

    func testAChildsEditWinsOverTheParentsOnTheKeysTheChildChanged() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try saveHomeGraph(in: container)
        let parent = container.newContext()
        let home = try project("Home", in: parent)
        let child = try parent.newChildContext()
        let childHome = try project("Home", in: child)
        home.rank = 4            // after the child took it: the child does not see it
        home.name = "Parent's"
        XCTAssertEqual(childHome.rank, 0)
        childHome.name = "Child's"
        try child.save()
        XCTAssertEqual(home.name, "Child's", "the child's save wins into the parent, as Core Data's does")
        XCTAssertEqual(home.rank, 4, "keys the child did not change keep the parent's values")
        try parent.save()
    }

    func testAPushToAnObjectTheParentDeletedSinceThrowsAndChangesNothing() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try saveHomeGraph(in: container)
        let parent = container.newContext()
        let child = try parent.newChildContext()
        try task("a", in: child).title = "renamed"
        let extra = GTask(context: child)
        extra.title = "extra"
        parent.delete(try task("a", in: parent))
        expectError(try child.save(), .conflict)
        XCTAssertEqual(try parent.fetch(FetchRequest<GTask>()).map(\.title), ["b"], "nothing applied")
        XCTAssertTrue(child.hasChanges, "the child keeps its edits")
    }

    func testOrderedListsAndManyToManyEditsArePushed() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try saveHomeGraph(in: container)
        let parent = container.newContext()
        let child = try parent.newChildContext()
        let plan = try XCTUnwrap(child.fetch(FetchRequest<GPlan>()).first)
        let step = GStep(context: child)
        step.text = "return"
        plan.steps = plan.steps + [step]
        let urgent = try XCTUnwrap(child.fetch(FetchRequest<GTag>()).first)
        let b = try task("b", in: child)
        b.tags = [urgent]
        try child.save()
        let parentPlan = try XCTUnwrap(parent.fetch(FetchRequest<GPlan>()).first)
        XCTAssertEqual(parentPlan.steps.map(\.text), ["pack", "go", "return"])
        XCTAssertEqual(try task("b", in: parent).tags.map(\.label), ["urgent"])
        try parent.save()
        let fresh = try makeGraphContainer(directory).newContext()
        XCTAssertEqual(try XCTUnwrap(fresh.fetch(FetchRequest<GPlan>()).first).steps.map(\.text), ["pack", "go", "return"])
        XCTAssertEqual(Set(try XCTUnwrap(fresh.fetch(FetchRequest<GTag>()).first).tasks.map(\.title)), ["a", "b"])
    }

    func testARollbackInAChildReturnsToItsParentsState() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try saveHomeGraph(in: container)
        let parent = container.newContext()
        try project("Home", in: parent).name = "House"
        let work = GProject(context: parent)
        work.name = "Work"
        let child = try parent.newChildContext()
        try project("House", in: child).name = "X"
        child.delete(try project("Work", in: child))
        let extra = GTask(context: child)
        extra.title = "extra"
        child.rollback()
        XCTAssertFalse(child.hasChanges)
        XCTAssertEqual(names(try child.fetch(FetchRequest<GProject>(sortBy: [FetchSortDescriptor(\.name)])), \.name), ["House", "Work"])
        XCTAssertEqual(try child.count(for: FetchRequest<GTask>()), 2)
        try child.save()
        XCTAssertEqual(names(try parent.fetch(FetchRequest<GProject>(sortBy: [FetchSortDescriptor(\.name)])), \.name), ["House", "Work"])
        XCTAssertEqual(try parent.count(for: FetchRequest<GTask>()), 2)

        child.reset()
        XCTAssertFalse(child.hasChanges)
        XCTAssertEqual(names(try child.fetch(FetchRequest<GProject>(sortBy: [FetchSortDescriptor(\.name)])), \.name), ["House", "Work"])
        // A refresh from the store shows the store's values and pushes nothing back.
        let house = try project("House", in: child)
        child.refresh(house, mergeChanges: false)
        XCTAssertEqual(house.name, "Home")
        try child.save()
        XCTAssertEqual(try project("House", in: parent).objectID, house.objectID, "the parent keeps its rename")
    }

    func testASaveAlongsideAStoreTransactionIsRefusedInAChild() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        let parent = container.newContext()
        let child = try parent.newChildContext()
        let project = GProject(context: child)
        project.name = "Work"
        var ran = false
        expectError(try child.save(alongside: { _ in ran = true }), .misuse)
        XCTAssertFalse(ran)
        XCTAssertTrue(child.hasChanges, "nothing pushed")
        XCTAssertFalse(parent.hasChanges)
    }

    func testAReorderOfAnOrderedListIsPushed() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        try saveHomeGraph(in: container)
        let parent = container.newContext()
        let child = try parent.newChildContext()
        let plan = try XCTUnwrap(child.fetch(FetchRequest<GPlan>()).first)
        plan.steps = plan.steps.reversed()
        XCTAssertEqual(plan.steps.map(\.text), ["go", "pack"])
        try child.save()
        XCTAssertEqual(try XCTUnwrap(parent.fetch(FetchRequest<GPlan>()).first).steps.map(\.text), ["go", "pack"])
        try parent.save()
        let fresh = try makeGraphContainer(directory).newContext()
        XCTAssertEqual(try XCTUnwrap(fresh.fetch(FetchRequest<GPlan>()).first).steps.map(\.text), ["go", "pack"])
    }
}
