import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Corners where changes were reported inexactly (notes of earlier stops, issue 30.2): a
/// `.noAction` delete elsewhere and the partners of a derived list; history naming a row that
/// is gone; `refresh(_:mergeChanges: true)`.
final class ChangeReportingExactnessTests: XCTestCase {
    private var directory = TemporaryDirectory()

    override func setUp() { directory = TemporaryDirectory() }

    private func key(_ object: ManagedObject) -> Int64 { object.objectID.primaryKey ?? -1 }

    private func summary(_ transaction: HistoryTransaction) -> Set<String> {
        Set(transaction.changes.map { "\($0.kind.rawValue) \($0.objectID.entityName) \($0.objectID.primaryKey ?? -1) \($0.changedKeys)" })
    }

    // MARK: .noAction deletes elsewhere and derived lists

    /// Another context deletes a project whose `tasks` (the derived list, the foreign-key side)
    /// is `.noAction`, and a task of another project: this context's controllers over both
    /// sides move exactly, and the lists it had read are read again.
    func testANoActionDeleteElsewhereReportsTheDerivedListsPartners() throws {
        let container = try PersistentContainer(model: try ManagedObjectModel(entities: [NAProject.self, NATask.self]),
                                                store: .sqlite(directory.file("noaction.sqlite")))
        let seeding = container.newContext()
        let p = NAProject(context: seeding), q = NAProject(context: seeding)
        p.name = "p"
        q.name = "q"
        for (title, project) in [("t1", p), ("t2", q), ("t3", q)] {
            let task = NATask(context: seeding)
            task.title = title
            task.project = project
        }
        try seeding.save()

        let watching = container.newContext()
        let orphans = try ResultsWatcher(FetchedResultsController(fetchRequest: FetchRequest<NATask>(
            predicate: try .init(format: "project == nil"), sortBy: [FetchSortDescriptor(\.title)]), context: watching))
        let withT2 = try ResultsWatcher(FetchedResultsController(fetchRequest: FetchRequest<NAProject>(
            predicate: try .init(format: "ANY tasks.title == 't2'"), sortBy: [FetchSortDescriptor(\.name)]), context: watching))
        let heldQ = try XCTUnwrap(watching.fetch(FetchRequest<NAProject>(predicate: \.name == "q")).first)
        XCTAssertEqual(heldQ.tasks.map(\.title).sorted(), ["t2", "t3"])
        XCTAssertEqual(withT2.current.flatMap { $0 }, [heldQ.objectID])

        let deleting = container.newContext()
        deleting.delete(try XCTUnwrap(deleting.fetch(FetchRequest<NAProject>(predicate: \.name == "p")).first))
        deleting.delete(try XCTUnwrap(deleting.fetch(FetchRequest<NATask>(predicate: \.title == "t2")).first))
        try deleting.save()
        watching.processPendingChanges()

        XCTAssertEqual(orphans.controller.fetchedObjects.map(\.title), ["t1"], "t1 lost its project")
        XCTAssertEqual(withT2.current.flatMap { $0 }, [], "q lost t2 from its derived list")
        XCTAssertEqual(heldQ.tasks.map(\.title), ["t3"])
        for watcher in [orphans.problems, withT2.problems] { XCTAssertEqual(watcher, []) }
        XCTAssertEqual(orphans.invalidations + withT2.invalidations, 0, "merged exactly")
        let reference = container.newContext()
        XCTAssertEqual(orphans.mirror, orphans.current)
        XCTAssertEqual(try reference.fetch(FetchRequest<NATask>(predicate: .init(format: "project == nil"))).map(\.objectID),
                       orphans.current.flatMap { $0 })
    }

    /// One save inserts a task and deletes a project that held tasks refer to (`.noAction`,
    /// and one way): SQLite clears those references and the context reads the rows again, and
    /// a limited controller refetches on hearing of it. The inserted task is the one instance
    /// of its row throughout: the refetch finds it, not a second object for the same row.
    func testAnInsertSavedWithAClearedReferenceStaysOneInstance() throws {
        let container = try PersistentContainer(model: try ManagedObjectModel(entities: [NAProject.self, NATask.self]),
                                                store: .sqlite(directory.file("noaction.sqlite")))
        let context = container.newContext()
        let p = NAProject(context: context)
        p.name = "p"
        let held = NATask(context: context), reviewed = NATask(context: context)
        held.title = "b"
        held.project = p
        reviewed.title = "c"
        reviewed.reviewer = p
        try context.save()
        var request = FetchRequest<NATask>(sortBy: [FetchSortDescriptor(\.title)])
        request.fetchLimit = 10
        let limited = try ResultsWatcher(FetchedResultsController(fetchRequest: request, context: context))

        let inserted = NATask(context: context)
        inserted.title = "a"
        context.delete(p)
        context.processPendingChanges()
        let temporaryID = inserted.objectID
        try context.save()

        XCTAssertNil(held.project)
        XCTAssertNil(reviewed.reviewer)
        let fetched = try context.fetch(FetchRequest<NATask>(predicate: \.title == "a"))
        XCTAssertTrue(fetched.first === inserted, "the row's object is the inserted one")
        XCTAssertTrue(limited.controller.fetchedObjects.first === inserted, "the controller holds the inserted object")
        XCTAssertEqual(limited.controller.fetchedObjects.map(\.title), ["a", "b", "c"])
        // The replayed rows keep the ID the insert was reported with (no change set reports a
        // new ID, as in Core Data); the saved rows are where they were.
        XCTAssertEqual(limited.mirror, [[temporaryID] + limited.current[0].dropFirst()])
        XCTAssertEqual(limited.problems, [])
        inserted.title = "renamed"
        XCTAssertTrue(context.hasChanges, "a change to the inserted object is tracked")
        try context.save()
        XCTAssertEqual(try container.newContext().fetch(FetchRequest<NATask>(predicate: \.title == "renamed")).count, 1)
    }

    // MARK: History never names a row that is gone

    /// A context read a tag's list before another context's batch delete took one of its
    /// tasks; its next save names only rows that are there and changed.
    func testASaveNeverNamesALinkPartnerDeletedElsewhere() throws {
        let container = try makeGraphContainer(directory)
        let context = container.newContext()
        let urgent = GTag(context: context)
        urgent.label = "urgent"
        let tasks = (0..<3).map { index in
            let task = GTask(context: context)
            task.title = "t\(index)"
            task.tags = [urgent]
            return task
        }
        try context.save()
        XCTAssertEqual(urgent.tasks.count, 3, "the list is read")

        try container.newContext().execute(BatchDeleteRequest<GTask>(predicate: \.title == "t0"))
        let start = try container.currentHistoryToken()
        context.delete(tasks[1])
        try context.save()
        let save = try XCTUnwrap(container.history(after: start).first)
        XCTAssertEqual(summary(save), ["delete GTask \(key(tasks[1])) []", "update GTag \(key(urgent)) [\"tasks\"]"])
    }

    /// A context moves a task to another project after another context deleted its old one:
    /// the old project is not named (it is gone), the new one is.
    func testASaveNeverNamesAnOldTargetDeletedElsewhere() throws {
        let container = try makeGraphContainer(directory)
        let context = container.newContext()
        context.mergePolicy = .objectTrump
        let old = GProject(context: context), new = GProject(context: context)
        old.name = "old"
        new.name = "new"
        let task = GTask(context: context)
        task.title = "t"
        task.project = old
        try context.save()

        try container.newContext().execute(BatchDeleteRequest<GProject>(predicate: \.name == "old"))
        let start = try container.currentHistoryToken()
        task.project = new
        try context.save()
        let save = try XCTUnwrap(container.history(after: start).first)
        XCTAssertEqual(summary(save), ["update GTask \(key(task)) [\"project\"]", "update GProject \(key(new)) [\"tasks\"]"])
    }

    // MARK: refresh(_:mergeChanges: true)

    /// Refreshing an object with a local to-one change, keeping it: when the store holds what
    /// the object read, nothing changed and nothing is reported; the lists on both sides are
    /// as before; the change still saves.
    func testRefreshKeepingALocalMoveReportsNothingWhenNothingChanged() throws {
        let container = try makeGraphContainer(directory)
        let context = container.newContext()
        let p = GProject(context: context), q = GProject(context: context)
        p.name = "p"
        q.name = "q"
        let task = GTask(context: context)
        task.title = "t"
        task.project = p
        try context.save()
        task.project = q
        XCTAssertEqual(p.tasks.count, 0)
        XCTAssertEqual(q.tasks.map(\.title), ["t"])
        context.processPendingChanges()
        var notices: [ContextChanges] = []
        let token = context.addObserver { notices.append($0) }
        defer { token.cancel() }

        context.refresh(task, mergeChanges: true)
        context.processPendingChanges()
        XCTAssertTrue(notices.allSatisfy(\.isEmpty), "nothing changed: \(notices.map { $0.updated.map { ($0.object.objectID, Array($0.keys)) } })")
        XCTAssertTrue(task.project === q)
        XCTAssertEqual(p.tasks.count, 0)
        XCTAssertEqual(q.tasks.map(\.title), ["t"])
        XCTAssertTrue(task.hasChanges)
        try context.save()
        let fresh = try makeGraphContainer(directory).newContext()
        XCTAssertEqual(try fresh.fetch(FetchRequest<GTask>()).first?.project?.name, "q")
    }

    /// The same, when another context renamed the task meanwhile: only the title is reported,
    /// and neither project.
    func testRefreshKeepingALocalMoveReportsOnlyWhatTheStoreChanged() throws {
        let container = try makeGraphContainer(directory)
        let context = container.newContext()
        let p = GProject(context: context), q = GProject(context: context)
        p.name = "p"
        q.name = "q"
        let task = GTask(context: context)
        task.title = "t"
        task.project = p
        try context.save()
        task.project = q
        _ = (p.tasks.count, q.tasks.count)
        context.processPendingChanges()
        let other = container.newContext()
        try XCTUnwrap(other.fetch(FetchRequest<GTask>()).first).title = "renamed"
        try other.save()
        var notices: [ContextChanges] = []
        let token = context.addObserver { notices.append($0) }
        defer { token.cancel() }

        context.refresh(task, mergeChanges: true)
        context.processPendingChanges()
        let updated = notices.flatMap { $0.updated.map { ($0.object.objectID, Set($0.keys)) } }
        XCTAssertEqual(updated.map(\.0), [task.objectID], "only the task: \(updated)")
        XCTAssertEqual(updated.first?.1, ["title"])
        XCTAssertEqual(task.title, "renamed")
        XCTAssertTrue(task.project === q)
        XCTAssertEqual(q.tasks.map(\.title), ["renamed"])
        XCTAssertEqual(p.tasks.count, 0)
    }
}
