import Foundation
import Observation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Undo and redo through a context's `ContextUndoManager`: values, grouping, levels, saves,
/// inserts, deletions with cascades, relationships on both sides, and what observers hear.
final class UndoTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var container: PersistentContainer!
    private var context: ManagedObjectContext!
    private var undo: ContextUndoManager!

    override func setUpWithError() throws {
        directory = TemporaryDirectory()
        container = try makeGraphContainer(directory)
        try saveHomeGraph(in: container)
        context = container.newContext()
        undo = ContextUndoManager()
        context.undoManager = undo
    }

    private func task(_ title: String) throws -> GTask {
        try XCTUnwrap(context.fetch(FetchRequest<GTask>()).first { $0.title == title })
    }

    private func project(_ name: String) throws -> GProject {
        try XCTUnwrap(context.fetch(FetchRequest<GProject>()).first { $0.name == name })
    }

    private func plan() throws -> GPlan {
        try XCTUnwrap(context.fetch(FetchRequest<GPlan>()).first)
    }

    // MARK: Values and grouping

    func testAContextHasNoUndoManagerByDefault() {
        XCTAssertNil(container.newContext().undoManager)
    }

    func testUndoAndRedoAnAttribute() throws {
        let a = try task("a")
        a.title = "a2"
        context.processPendingChanges()
        XCTAssertTrue(undo.canUndo)
        XCTAssertFalse(undo.canRedo)
        undo.undo()
        XCTAssertEqual(a.title, "a")
        XCTAssertFalse(a.hasChanges)
        XCTAssertTrue(undo.canRedo)
        undo.redo()
        XCTAssertEqual(a.title, "a2")
        XCTAssertTrue(a.hasChanges)
        undo.undo()
        XCTAssertEqual(a.title, "a")
    }

    func testEachProcessPendingChangesClosesOneGroup() throws {
        let a = try task("a")
        a.title = "one"
        context.processPendingChanges()
        a.title = "two"
        a.done = true
        context.processPendingChanges()
        undo.undo()
        XCTAssertEqual(a.title, "one")
        XCTAssertFalse(a.done)
        undo.undo()
        XCTAssertEqual(a.title, "a")
        XCTAssertFalse(undo.canUndo)
    }

    func testUndoClosesTheOpenGroupFirst() throws {
        let a = try task("a")
        a.title = "changed"
        undo.undo()            // no processPendingChanges in between: the open group is undone
        XCTAssertEqual(a.title, "a")
    }

    func testExplicitGroupingUndoesEverythingInsideAtOnce() throws {
        undo.groupsByEvent = false
        let a = try task("a")
        undo.beginUndoGrouping()
        a.title = "one"
        context.processPendingChanges()     // no group boundary while grouping explicitly
        undo.beginUndoGrouping()            // nested: part of the outer group
        a.done = true
        undo.endUndoGrouping()
        a.title = "two"
        undo.endUndoGrouping()
        XCTAssertEqual(undo.groupingLevel, 0)
        undo.undo()
        XCTAssertEqual(a.title, "a")
        XCTAssertFalse(a.done)
        a.title = "not recorded"            // outside a group, with groupsByEvent off
        context.processPendingChanges()
        XCTAssertFalse(undo.canUndo)
    }

    func testLevelsOfUndoDropTheOldestGroups() throws {
        undo.levelsOfUndo = 2
        let a = try task("a")
        for title in ["1", "2", "3", "4"] {
            a.title = title
            context.processPendingChanges()
        }
        undo.undo()
        undo.undo()
        XCTAssertEqual(a.title, "2")
        XCTAssertFalse(undo.canUndo)
        undo.redo()
        undo.redo()
        XCTAssertEqual(a.title, "4")
    }

    func testANewChangeEmptiesTheRedoStack() throws {
        let a = try task("a")
        a.title = "one"
        context.processPendingChanges()
        undo.undo()
        a.done = true
        context.processPendingChanges()
        XCTAssertFalse(undo.canRedo)
    }

    func testActionNames() throws {
        let a = try task("a")
        undo.setActionName("Rename")
        a.title = "renamed"
        context.processPendingChanges()
        XCTAssertEqual(undo.undoActionName, "Rename")
        undo.undo()
        XCTAssertEqual(undo.redoActionName, "Rename")
        XCTAssertEqual(undo.undoActionName, "")
    }

    func testDisabledRegistrationRecordsNothing() throws {
        let a = try task("a")
        undo.disableUndoRegistration()
        a.title = "quiet"
        undo.enableUndoRegistration()
        XCTAssertFalse(undo.canUndo)
        XCTAssertEqual(a.title, "quiet")
    }

    func testRollbackAndResetRemoveAllActions() throws {
        let a = try task("a")
        a.title = "one"
        context.processPendingChanges()
        context.rollback()
        XCTAssertFalse(undo.canUndo)
        try task("a").title = "two"
        context.processPendingChanges()
        context.reset()
        XCTAssertFalse(undo.canUndo)
        XCTAssertFalse(undo.canRedo)
    }

    // MARK: Saves

    func testUndoAfterASaveIsAPendingChangeTheNextSaveWrites() throws {
        let a = try task("a")
        a.title = "saved"
        try context.save()
        undo.undo()
        XCTAssertEqual(a.title, "a")
        XCTAssertTrue(context.hasChanges)
        try context.save()
        let fresh = container.newContext()
        XCTAssertEqual(try fresh.fetch(FetchRequest<GTask>()).filter { $0.title == "a" }.count, 1)
        undo.redo()
        XCTAssertEqual(a.title, "saved")
        try context.save()
        XCTAssertEqual(try container.newContext().fetch(FetchRequest<GTask>()).filter { $0.title == "saved" }.count, 1)
    }

    func testUndoOfASavedInsertDeletesIt() throws {
        let home = try project("Home")     // a fetch processes pending changes: a group boundary
        let added = GTask(context: context)
        added.title = "new"
        added.project = home
        try context.save()
        let id = added.objectID
        undo.undo()
        XCTAssertTrue(added.isDeleted)
        XCTAssertEqual(try project("Home").tasks.count, 2)
        try context.save()
        XCTAssertNil(container.newContext().object(with: id))
        undo.redo()             // its row is gone: it comes back as a new insert, the same instance
        XCTAssertFalse(added.isDeleted)
        XCTAssertTrue(added.isInserted)
        XCTAssertEqual(added.title, "new")
        XCTAssertTrue(try project("Home").tasks.contains(added))
        try context.save()
        XCTAssertEqual(try container.newContext().fetch(FetchRequest<GTask>()).first { $0.title == "new" }?.project?.name, "Home")
    }

    // MARK: Inserts and deletes

    func testUndoAnInsertTakesTheObjectOutAndRedoBringsTheSameOneBack() throws {
        let home = try project("Home")
        let added = GTask(context: context)
        added.title = "c"
        added.project = home
        let id = added.objectID
        context.processPendingChanges()
        undo.undo()
        XCTAssertFalse(context.insertedObjects.contains(added))
        XCTAssertFalse(home.tasks.contains(added))
        XCTAssertNil(added.managedObjectContext)
        undo.redo()
        XCTAssertTrue(context.insertedObjects.contains(added))
        XCTAssertEqual(context.insertedObjects.filter { $0 === added }.count, 1)
        XCTAssertEqual(added.objectID, id)
        XCTAssertEqual(added.title, "c")
        XCTAssertTrue(home.tasks.contains(added))
        XCTAssertTrue(added.project === home)
    }

    func testUndoADeletionBringsBackTheObjectWithItsRelationshipsAndItsCascade() throws {
        let trip = try plan()
        let steps = trip.steps
        XCTAssertEqual(steps.map(\.text), ["pack", "go"])
        context.delete(trip)                      // cascades to the steps
        context.processPendingChanges()
        XCTAssertTrue(steps.allSatisfy(\.isDeleted))
        undo.undo()
        XCTAssertFalse(trip.isDeleted)
        XCTAssertTrue(steps.allSatisfy { !$0.isDeleted })
        XCTAssertEqual(trip.steps.map(\.text), ["pack", "go"])
        XCTAssertTrue(steps.allSatisfy { $0.plan === trip })
        XCTAssertFalse(context.hasChanges)
        undo.redo()
        XCTAssertTrue(trip.isDeleted)
        XCTAssertTrue(steps.allSatisfy(\.isDeleted))
        try context.save()
        undo.undo()                               // after the save: they come back as inserts
        XCTAssertEqual(trip.steps.map(\.text), ["pack", "go"])
        try context.save()
        let stored = try XCTUnwrap(container.newContext().fetch(FetchRequest<GPlan>()).first)
        XCTAssertEqual(stored.steps.map(\.text), ["pack", "go"])
    }

    func testUndoADeletionRelinksTheOtherSide() throws {
        let a = try task("a"), home = try project("Home")
        let tag = try XCTUnwrap(a.tags.first)
        context.delete(a)                          // nullify: Home and the tag let go of it
        context.processPendingChanges()
        XCTAssertFalse(home.tasks.contains(a))
        XCTAssertFalse(tag.tasks.contains(a))
        undo.undo()
        XCTAssertTrue(home.tasks.contains(a))
        XCTAssertTrue(tag.tasks.contains(a))
        XCTAssertTrue(a.tags.contains(tag))
    }

    // MARK: Relationships

    func testUndoARelinkRestoresBothSides() throws {
        let a = try task("a"), home = try project("Home")
        let work = GProject(context: context)
        work.name = "Work"
        context.processPendingChanges()
        a.project = work
        context.processPendingChanges()
        XCTAssertEqual(home.tasks.count, 1)
        undo.undo()
        XCTAssertTrue(a.project === home)
        XCTAssertTrue(home.tasks.contains(a))
        XCTAssertTrue(work.tasks.isEmpty)
        undo.redo()
        XCTAssertTrue(a.project === work)
        XCTAssertFalse(home.tasks.contains(a))
    }

    func testUndoManyToManyEditsOnEitherSide() throws {
        let a = try task("a"), b = try task("b")
        let tag = try XCTUnwrap(a.tags.first)
        tag.tasks.insert(b)
        context.processPendingChanges()
        a.tags = []
        context.processPendingChanges()
        XCTAssertEqual(tag.tasks, [b])
        undo.undo()
        XCTAssertEqual(tag.tasks, [a, b])
        undo.undo()
        XCTAssertEqual(tag.tasks, [a])
        XCTAssertTrue(b.tags.isEmpty)
        undo.redo()
        undo.redo()
        XCTAssertEqual(tag.tasks, [b])
        XCTAssertTrue(a.tags.isEmpty)
    }

    func testUndoAnOrderedMove() throws {
        let trip = try plan()
        trip.steps = trip.steps.reversed()
        context.processPendingChanges()
        XCTAssertEqual(trip.steps.map(\.text), ["go", "pack"])
        undo.undo()
        XCTAssertEqual(trip.steps.map(\.text), ["pack", "go"])
        undo.redo()
        XCTAssertEqual(trip.steps.map(\.text), ["go", "pack"])
        let other = GPlan(context: context)
        other.title = "other"
        context.processPendingChanges()
        let go = trip.steps[0]
        go.plan = other
        context.processPendingChanges()
        undo.undo()
        XCTAssertEqual(trip.steps.map(\.text), ["go", "pack"])
        XCTAssertTrue(other.steps.isEmpty)
    }

    func testUndoAOneToOne() throws {
        let person = GPerson(context: context), desk = GDesk(context: context), other = GDesk(context: context)
        person.name = "p"
        person.desk = desk
        context.processPendingChanges()
        person.desk = other
        context.processPendingChanges()
        XCTAssertNil(desk.person)
        undo.undo()
        XCTAssertTrue(person.desk === desk)
        XCTAssertTrue(desk.person === person)
        XCTAssertNil(other.person)
    }

    func testUndoAValueKeptInAFileAfterTheSaveRemovedTheFile() throws {
        let photos = try PersistentContainer(model: ManagedObjectModel(entities: photoEntities),
                                             store: .sqlite(directory.file("photos.sqlite")))
        let writer = photos.newContext()
        let photo = Photo(context: writer)
        photo.caption = "one"
        photo.bytes = sampleBytes(4_096, seed: 1)
        try writer.save()
        let editing = photos.newContext()
        let undo = ContextUndoManager()
        editing.undoManager = undo
        let mine = try XCTUnwrap(editing.fetch(FetchRequest<Photo>()).first)
        mine.caption = "two"                  // recorded before the bytes change: a file reference
        mine.bytes = sampleBytes(4_096, seed: 2)
        try editing.save()                    // the first value's file is removed
        undo.undo()
        XCTAssertEqual(mine.bytes, sampleBytes(4_096, seed: 1))
        try editing.save()
        XCTAssertEqual(try photos.newContext().fetch(FetchRequest<Photo>()).first?.bytes, sampleBytes(4_096, seed: 1))
        undo.redo()
        XCTAssertEqual(mine.caption, "two")
        XCTAssertEqual(mine.bytes, sampleBytes(4_096, seed: 2))
    }

    // MARK: Observers

    func testObserversAndControllersHearAnUndoAndARedo() throws {
        let watcher = try ResultsWatcher(FetchedResultsController(
            fetchRequest: FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\GTask.title)]), context: context))
        var notices: [ContextChanges] = []
        let token = context.addObserver { notices.append($0) }
        defer { token.cancel() }
        let a = try task("a"), b = try task("b")
        a.title = "z"
        let added = GTask(context: context)
        added.title = "c"
        context.delete(b)
        context.processPendingChanges()
        notices.removeAll()
        undo.undo()
        XCTAssertEqual(notices.count, 1)
        XCTAssertEqual(notices.first?.updated.contains { $0.object === a }, true)
        XCTAssertEqual(notices.first?.deleted.contains(added), true)
        XCTAssertEqual(watcher.controller.fetchedObjects.map(\.title), ["a", "b"])
        XCTAssertEqual(watcher.mirror, watcher.current)
        undo.redo()
        XCTAssertEqual(watcher.controller.fetchedObjects.map(\.title), ["c", "z"])
        XCTAssertEqual(watcher.mirror, watcher.current)
        XCTAssertEqual(watcher.problems, [])
    }

    func testObservationHearsAnUndo() throws {
        context.isObservable = true
        let a = try task("a")
        a.title = "b2"
        context.processPendingChanges()
        let fired = expectation(description: "onChange")
        withObservationTracking { _ = a.title } onChange: { fired.fulfill() }
        undo.undo()
        wait(for: [fired], timeout: 1)
    }
}
