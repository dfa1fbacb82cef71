import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Corners where changes were reported inexactly (notes of earlier stops, issue 30.2): a
/// `.noAction` delete elsewhere and the partners of a derived list; history naming a row that
/// is gone; `refresh(_:mergeChanges: true)`; a save settled against another save.
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

    // MARK: A save settled against another save

    /// tasks t1, t2, t3 (t3 in project p, tagged red), in a context watched by controllers over
    /// undone tasks by title, over tagged tasks, and over projects with two tasks or more.
    private func settleGraph() throws -> (container: PersistentContainer, context: ManagedObjectContext,
                                          undone: ResultsWatcher<GTask>, tagged: ResultsWatcher<GTask>, busy: ResultsWatcher<GProject>) {
        let container = try makeGraphContainer(directory)
        let seeding = container.newContext()
        let p = GProject(context: seeding)
        p.name = "p"
        let red = GTag(context: seeding)
        red.label = "red"
        for title in ["t1", "t2", "t3"] {
            let task = GTask(context: seeding)
            task.title = title
            if title == "t3" {
                task.project = p
                task.tags = [red]
            }
        }
        try seeding.save()
        let context = container.newContext()
        return (container, context,
                try ResultsWatcher(FetchedResultsController(fetchRequest: FetchRequest<GTask>(
                    predicate: try .init(format: "done == NO"), sortBy: [FetchSortDescriptor(\.title)]), context: context)),
                try ResultsWatcher(FetchedResultsController(fetchRequest: FetchRequest<GTask>(
                    predicate: try .init(format: "tags.@count >= 1"), sortBy: [FetchSortDescriptor(\.title)]), context: context)),
                try ResultsWatcher(FetchedResultsController(fetchRequest: FetchRequest<GProject>(
                    predicate: try .init(format: "tasks.@count >= 2"), sortBy: [FetchSortDescriptor(\.name)]), context: context)))
    }

    /// Renamed here, marked done there: the save settles t3's row (the keys combined), and the
    /// controllers hear exactly that t3 is done (it leaves the undone tasks, and is updated in
    /// the tagged ones) and nothing else; no notice says "refetch everything".
    func testASaveSettledAgainstAnotherSaveReportsTheExactChange() throws {
        let (container, context, undone, tagged, busy) = try settleGraph()
        let t3 = try XCTUnwrap(context.fetch(FetchRequest<GTask>(predicate: \.title == "t3")).first)
        t3.title = "a3"
        context.processPendingChanges()
        XCTAssertEqual(undone.controller.fetchedObjects.map(\.title), ["a3", "t1", "t2"])
        let changesBefore = undone.changes.count

        let other = container.newContext()
        try XCTUnwrap(other.fetch(FetchRequest<GTask>(predicate: \.title == "t3")).first).done = true
        try other.save()
        try context.save()

        XCTAssertEqual(t3.title, "a3")
        XCTAssertTrue(t3.done, "the other save's key, combined")
        XCTAssertEqual(undone.controller.fetchedObjects.map(\.title), ["t1", "t2"])
        let settled = Array(undone.changes.dropFirst(changesBefore))
        XCTAssertEqual(settled.map(\.deletedRows), [[IndexPath(item: 0, section: 0)]], "\(settled)")
        XCTAssertEqual(settled.map { $0.insertedRows + $0.updatedRows.map(\.to) + $0.movedRows.map(\.to) }, [[]])
        XCTAssertEqual(undone.invalidations + tagged.invalidations + busy.invalidations, 0, "exact, not refetched")
        XCTAssertEqual(tagged.changes.count, 2, "the rename, then t3 done")
        XCTAssertEqual(tagged.changes.last.map { $0.updatedRows.map(\.to) }, [IndexPath(item: 0, section: 0)])
        XCTAssertEqual(tagged.changes.last.map { $0.insertedRows + $0.deletedRows + $0.movedRows.map(\.to) }, [])
        XCTAssertEqual(busy.changes.count, 0)
        try assertAgree(undone, tagged, busy, context)
    }

    /// Both saves link tasks to red (its list is owned: the join table's rows are red's), and
    /// the other save moves t1 and t3 to a new project: red's row is settled, and the store's
    /// list holds both saves' links. The controllers over tasks and projects hear exactly what
    /// the store's lists now hold, t2 tagged by the other save too.
    func testASaveSettledAgainstAnotherSavesLinksReportsThem() throws {
        let (container, context, undone, tagged, busy) = try settleGraph()
        let tasks = try context.fetch(FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\.title)]))
        let red = try XCTUnwrap(context.fetch(FetchRequest<GTag>()).first)
        red.label = "crimson"
        red.tasks.insert(tasks[0])
        context.processPendingChanges()
        XCTAssertEqual(tagged.controller.fetchedObjects.map(\.title), ["t1", "t3"])

        let other = container.newContext()
        let theirs = try other.fetch(FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\.title)]))
        try XCTUnwrap(other.fetch(FetchRequest<GTag>()).first).tasks.insert(theirs[1])
        let q = GProject(context: other)
        q.name = "q"
        theirs[0].project = q
        theirs[2].project = q
        try other.save()
        try context.save()

        XCTAssertEqual(red.label, "crimson")
        XCTAssertEqual(red.tasks.map(\.title).sorted(), ["t1", "t2", "t3"])
        XCTAssertEqual(tagged.controller.fetchedObjects.map(\.title), ["t1", "t2", "t3"])
        XCTAssertEqual(busy.controller.fetchedObjects.map(\.name), ["q"])
        XCTAssertEqual(undone.invalidations + tagged.invalidations + busy.invalidations, 0, "exact, not refetched")
        try assertAgree(undone, tagged, busy, context)
    }

    /// Under `.storeTrump`, t3 deleted here and renamed there: the store keeps the row, and the
    /// controllers hear t3 come back, renamed, into the undone tasks, the tagged tasks, and its
    /// project into the projects with a task; nothing is refetched.
    func testADeletionTheStoreDidNotDoBringsTheObjectBackExactly() throws {
        let (container, context, undone, tagged, _) = try settleGraph()
        context.mergePolicy = .storeTrump
        let withTasks = try ResultsWatcher(FetchedResultsController(fetchRequest: FetchRequest<GProject>(
            predicate: try .init(format: "tasks.@count >= 1"), sortBy: [FetchSortDescriptor(\.name)]), context: context))
        let t3 = try XCTUnwrap(context.fetch(FetchRequest<GTask>(predicate: \.title == "t3")).first)
        context.delete(t3)
        context.processPendingChanges()
        XCTAssertEqual(undone.controller.fetchedObjects.map(\.title), ["t1", "t2"])
        XCTAssertEqual(withTasks.controller.fetchedObjects.map(\.name), [])

        let other = container.newContext()
        try XCTUnwrap(other.fetch(FetchRequest<GTask>(predicate: \.title == "t3")).first).title = "b3"
        try other.save()
        try context.save()

        XCTAssertFalse(t3.isDeleted)
        XCTAssertEqual(t3.title, "b3")
        XCTAssertEqual(undone.controller.fetchedObjects.map(\.title), ["b3", "t1", "t2"])
        XCTAssertEqual(withTasks.controller.fetchedObjects.map(\.name), ["p"])
        XCTAssertEqual(undone.invalidations + tagged.invalidations + withTasks.invalidations, 0, "exact, not refetched")
        for watcher in [undone, tagged] {
            XCTAssertEqual(try context.fetch(watcher.controller.fetchRequest).map(\.objectID), watcher.current.flatMap { $0 })
            XCTAssertEqual(watcher.mirror, watcher.current)
            XCTAssertEqual(watcher.problems, [])
        }
        XCTAssertEqual(try context.fetch(withTasks.controller.fetchRequest).map(\.objectID), withTasks.current.flatMap { $0 })
        XCTAssertEqual(withTasks.mirror, withTasks.current)
        XCTAssertEqual(withTasks.problems, [])
    }

    /// Under `.storeTrump`, red relabelled and linked to t1 here, relabelled and linked to t2
    /// there: the store keeps its label (this save's is discarded) and both saves' links, and
    /// the controllers hear the store's label and list exactly; nothing is refetched.
    func testASaveWhoseChangesTheStoreDiscardedReportsTheStoresRow() throws {
        let (container, context, undone, tagged, busy) = try settleGraph()
        context.mergePolicy = .storeTrump
        let tasks = try context.fetch(FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\.title)]))
        let red = try XCTUnwrap(context.fetch(FetchRequest<GTag>()).first)
        red.label = "crimson"
        red.tasks.insert(tasks[0])
        context.processPendingChanges()

        let other = container.newContext()
        let theirRed = try XCTUnwrap(other.fetch(FetchRequest<GTag>()).first)
        theirRed.label = "scarlet"
        theirRed.tasks.insert(try XCTUnwrap(other.fetch(FetchRequest<GTask>(predicate: \.title == "t2")).first))
        try other.save()
        try context.save()

        XCTAssertEqual(red.label, "scarlet")
        let reader = container.newContext()
        let stored = try XCTUnwrap(reader.fetch(FetchRequest<GTag>()).first).tasks.map(\.title).sorted()
        XCTAssertEqual(stored, ["t1", "t2", "t3"], "links are combined: both saves' are kept")
        XCTAssertEqual(red.tasks.map(\.title).sorted(), stored)
        XCTAssertEqual(tagged.controller.fetchedObjects.map(\.title), stored)
        XCTAssertEqual(undone.invalidations + tagged.invalidations + busy.invalidations, 0, "exact, not refetched")
        try assertAgree(undone, tagged, busy, context)
    }

    /// Each controller agrees with a fresh fetch, and its change sets replay to its rows.
    private func assertAgree(_ undone: ResultsWatcher<GTask>, _ tagged: ResultsWatcher<GTask>, _ busy: ResultsWatcher<GProject>,
                             _ context: ManagedObjectContext, file: StaticString = #filePath, line: UInt = #line) throws {
        for watcher in [undone, tagged] {
            XCTAssertEqual(try context.fetch(watcher.controller.fetchRequest).map(\.objectID), watcher.current.flatMap { $0 },
                           file: file, line: line)
            XCTAssertEqual(watcher.mirror, watcher.current, file: file, line: line)
            XCTAssertEqual(watcher.problems, [], file: file, line: line)
        }
        XCTAssertEqual(try context.fetch(busy.controller.fetchRequest).map(\.objectID), busy.current.flatMap { $0 }, file: file, line: line)
        XCTAssertEqual(busy.mirror, busy.current, file: file, line: line)
        XCTAssertEqual(busy.problems, [], file: file, line: line)
    }
}
