import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Batch requests are merged like saves: another context's controllers, and another process's,
/// change exactly the rows the batch inserted, updated or deleted (cascaded and nullified rows
/// included), from the store's change log or the persistent history, never by refreshing
/// everything; and the batch's history transaction names what it did.
final class BatchMergeTests: XCTestCase {
    static let childRole = "batch-merge-writer"

    /// The store every test starts from: Ann owns "home" (cascade); "work" has no owner; six
    /// tasks alternate between the two, every third one done.
    private struct Fixture {
        let container: PersistentContainer
        let url: URL
        let home: ObjectID
        let work: ObjectID
        let owner: ObjectID
    }

    private func fixture(_ directory: TemporaryDirectory) throws -> Fixture {
        let url = directory.file("merge.sqlite")
        let container = try makeGraphContainer(directory, url: url)
        let context = container.newContext()
        let owner = GOwner(context: context)
        owner.name = "Ann"
        let home = GProject(context: context), work = GProject(context: context)
        home.name = "home"
        home.owner = owner
        work.name = "work"
        for index in 0..<6 {
            let task = GTask(context: context)
            task.title = "t\(index)"
            task.done = index % 3 == 0
            task.project = index % 2 == 0 ? home : work
        }
        try context.save()
        return Fixture(container: container, url: url, home: home.objectID, work: work.objectID, owner: owner.objectID)
    }

    private static let taskRequest = FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\.done), FetchSortDescriptor(\.title)])
    private static let projectRequest = FetchRequest<GProject>(sortBy: [FetchSortDescriptor(\.name)])

    /// The rows a change set names, by object: deleted ones in the old sections, the others in the new.
    private func touched<T>(_ change: ChangeSet, old: [[ObjectID]], _ watcher: ResultsWatcher<T>) -> Set<ObjectID> {
        let new = watcher.current
        var ids = Set(change.deletedRows.map { old[$0[0]][$0[1]] })
        ids.formUnion(change.insertedRows.map { new[$0[0]][$0[1]] })
        ids.formUnion(change.movedRows.map { new[$0.to[0]][$0.to[1]] })
        ids.formUnion(change.updatedRows.map { new[$0.to[0]][$0.to[1]] })
        return ids
    }

    // MARK: Another context of the container

    func testAnotherContextsControllersSeeExactlyWhatABatchDid() throws {
        let directory = TemporaryDirectory()
        let fixture = try fixture(directory)
        let watching = fixture.container.newContext()
        let tasks = try ResultsWatcher(FetchedResultsController(fetchRequest: Self.taskRequest, context: watching, sectionNameKeyPath: \.done))
        let projects = try ResultsWatcher(FetchedResultsController(fetchRequest: Self.projectRequest, context: watching))
        let held = try watching.fetch(Self.taskRequest)
        let batching = fixture.container.newContext()
        batching.transactionAuthor = "loader"

        // Insert: two new rows, one of them in "work".
        var old = tasks.current
        let inserted = try batching.execute(BatchInsertRequest<GTask>(objects: [["title": "n1", "project": fixture.work],
                                                                               ["title": "n2", "done": true]]))
        watching.processPendingChanges()
        XCTAssertEqual(tasks.changes.count, 1)
        XCTAssertEqual(tasks.changes.last.map { tasks.insertedAndDeleted($0, old: old).inserted }, Set(inserted.objectIDs))
        XCTAssertEqual(tasks.changes.last?.deletedRows, [])
        try tasks.check(against: fixture.container.newContext(), Self.taskRequest, section: { "\($0.done)" }, "after the insert")
        let work = try XCTUnwrap(watching.existingObject(with: fixture.work) as? GProject)
        XCTAssertEqual(Set(work.tasks.map(\.title)), ["t1", "t3", "t5", "n1"], "the graph holds the inserted to-one")

        // Update: two tasks become done and move to the other section.
        old = tasks.current
        let updated = try batching.execute(BatchUpdateRequest<GTask>(predicate: \.title == "t1" || \.title == "n1",
                                                                     propertiesToUpdate: ["done": true]))
        watching.processPendingChanges()
        XCTAssertEqual(tasks.changes.count, 2)
        XCTAssertEqual(tasks.changes.last.map { touched($0, old: old, tasks) }, Set(updated.objectIDs))
        try tasks.check(against: fixture.container.newContext(), Self.taskRequest, section: { "\($0.done)" }, "after the update")

        // Delete with rules: Ann goes, "home" with her (cascade), its tasks lose their project (nullify).
        old = projects.current
        let deleted = try batching.execute(BatchDeleteRequest<GOwner>(predicate: \.name == "Ann"))
        XCTAssertEqual(Set(deleted.objectIDs), [fixture.owner, fixture.home])
        watching.processPendingChanges()
        XCTAssertEqual(projects.changes.last.map { projects.insertedAndDeleted($0, old: old).deleted }, [fixture.home])
        try projects.check(against: fixture.container.newContext(), Self.projectRequest, section: nil, "after the delete")
        XCTAssertEqual(held.filter { ["t0", "t2", "t4"].contains($0.title) }.map { $0.project == nil }, [true, true, true],
                       "nullified in the watching context")
        XCTAssertEqual(held.filter { ["t1", "t3", "t5"].contains($0.title) }.map { $0.project?.name }, ["work", "work", "work"])

        // Delete by predicate: the done tasks go.
        old = tasks.current
        let gone = try batching.execute(BatchDeleteRequest<GTask>(predicate: \.done == true))
        watching.processPendingChanges()
        XCTAssertEqual(tasks.changes.last.map { tasks.insertedAndDeleted($0, old: old).deleted }, Set(gone.objectIDs))
        XCTAssertEqual(tasks.changes.last?.insertedRows, [])
        try tasks.check(against: fixture.container.newContext(), Self.taskRequest, section: { "\($0.done)" }, "after the second delete")
        XCTAssertEqual(tasks.invalidations + projects.invalidations, 0, "every batch was merged exactly")
    }

    func testABatchRecordsItsHistoryTransaction() throws {
        let directory = TemporaryDirectory()
        let fixture = try fixture(directory)
        let context = fixture.container.newContext()
        context.transactionAuthor = "loader"
        context.name = "batches"
        let start = try fixture.container.currentHistoryToken()
        let inserted = try context.execute(BatchInsertRequest<GTask>(objects: [["title": "n1", "project": fixture.work]]))
        let updated = try context.execute(BatchUpdateRequest<GTask>(predicate: \.title == "t1", propertiesToUpdate: ["done": true, "title": "T1"]))
        let deleted = try context.execute(BatchDeleteRequest<GOwner>(objectIDs: [fixture.owner]))
        let nullified = try context.fetch(FetchRequest<GTask>(predicate: \.title == "t0" || \.title == "t2" || \.title == "t4")).map(\.objectID)
        let transactions = try fixture.container.history(after: start)
        guard transactions.count == 3 else { return XCTFail("one transaction per batch, not \(transactions.count)") }
        XCTAssertEqual(transactions.map(\.author), ["loader", "loader", "loader"])
        XCTAssertEqual(transactions.map(\.contextName), ["batches", "batches", "batches"])
        func changes(_ transaction: HistoryTransaction, _ kind: HistoryChange.Kind) -> [ObjectID: [String]] {
            Dictionary(uniqueKeysWithValues: transaction.changes.filter { $0.kind == kind }.map { ($0.objectID, $0.changedKeys) })
        }
        XCTAssertEqual(Set(changes(transactions[0], .insert).keys), Set(inserted.objectIDs))
        XCTAssertEqual(changes(transactions[1], .update), [updated.objectIDs[0]: ["title", "done"]])
        XCTAssertEqual(Set(changes(transactions[2], .delete).keys), Set(deleted.objectIDs), "the cascaded project too")
        XCTAssertEqual(changes(transactions[2], .update), Dictionary(uniqueKeysWithValues: nullified.map { ($0, ["project"]) }),
                       "the nullified tasks, under the relationship")
    }

    /// Deleting tasks (a join table's destinations) changes the tags that held them: the
    /// history names those under their relationship, as a save's record does; the links go.
    func testABatchDeleteRecordsTheOwnersOfRemovedLinks() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        let context = container.newContext()
        let urgent = GTag(context: context), later = GTag(context: context), other = GTag(context: context)
        urgent.label = "urgent"
        later.label = "later"
        other.label = "other"
        let tasks = (0..<3).map { index in
            let task = GTask(context: context)
            task.title = "t\(index)"
            return task
        }
        tasks[0].tags = [urgent, later]
        tasks[1].tags = [urgent]
        tasks[2].tags = [other]
        try context.save()
        func summary(_ transaction: HistoryTransaction) -> Set<String> {
            Set(transaction.changes.map { "\($0.kind.rawValue) \($0.objectID.entityName) \($0.objectID.primaryKey ?? -1) \($0.changedKeys)" })
        }
        func key(_ object: ManagedObject) -> Int64 { object.objectID.primaryKey ?? -1 }

        var start = try container.currentHistoryToken()
        try context.execute(BatchDeleteRequest<GTask>(predicate: \.title == "t0"))
        let batch = try XCTUnwrap(container.history(after: start).first)
        XCTAssertEqual(summary(batch), ["delete GTask \(key(tasks[0])) []", "update GTag \(key(urgent)) [\"tasks\"]",
                                        "update GTag \(key(later)) [\"tasks\"]"])
        // A save deleting a task records the same kind of change.
        start = try container.currentHistoryToken()
        context.delete(tasks[1])
        try context.save()
        let save = try XCTUnwrap(container.history(after: start).first)
        // Exactly: this context read urgent's list before the batch, but the task the batch
        // deleted is gone, and no row that is gone is named.
        XCTAssertEqual(summary(save), ["delete GTask \(key(tasks[1])) []", "update GTag \(key(urgent)) [\"tasks\"]"])
        let fresh = try makeGraphContainer(directory).newContext()
        XCTAssertEqual(try fresh.fetch(FetchRequest<GTag>(sortBy: [FetchSortDescriptor(\.label)])).map { $0.tasks.map(\.title).sorted() },
                       [[], ["t2"], []])
    }

    // MARK: Another process

    func testAnotherProcessesBatchesAreMergedExactly() throws {
        let directory = TemporaryDirectory()
        let fixture = try fixture(directory)
        let watching = fixture.container.newContext()
        let tasks = try ResultsWatcher(FetchedResultsController(fetchRequest: Self.taskRequest, context: watching, sectionNameKeyPath: \.done))
        let projects = try ResultsWatcher(FetchedResultsController(fetchRequest: Self.projectRequest, context: watching))
        let held = try watching.fetch(Self.taskRequest)
        let reference = try makeGraphContainer(directory, url: fixture.url)

        for action in ["insert", "update", "upsert", "delete"] {
            let oldTasks = tasks.current, oldProjects = projects.current
            let changesBefore = (tasks.changes.count, projects.changes.count)
            let reported = try runChild(action, fixture)
            watching.processPendingChanges()
            XCTAssertEqual(tasks.invalidations + projects.invalidations, 0, "\(action): merged exactly from the history")
            let message = "after another process's \(action)"
            try tasks.check(against: reference.newContext(), Self.taskRequest, section: { "\($0.done)" }, message)
            try projects.check(against: reference.newContext(), Self.projectRequest, section: nil, message)
            let taskChange = tasks.changes.count > changesBefore.0 ? tasks.changes.last : nil
            let projectChange = projects.changes.count > changesBefore.1 ? projects.changes.last : nil
            switch action {
            case "insert":
                XCTAssertEqual(taskChange.map { tasks.insertedAndDeleted($0, old: oldTasks).inserted }, reported, message)
            case "update":
                XCTAssertEqual(taskChange.map { touched($0, old: oldTasks, tasks) }, reported, message)
            case "upsert":
                XCTAssertEqual(projectChange.map { touched($0, old: oldProjects, projects) }, reported, message)
                XCTAssertEqual(try XCTUnwrap(watching.existingObject(with: fixture.work) as? GProject).rank, 7, message)
            default:
                XCTAssertEqual(projectChange.map { projects.insertedAndDeleted($0, old: oldProjects).deleted }, [fixture.home], message)
                XCTAssertTrue(reported.isSuperset(of: [fixture.owner, fixture.home]), message)
                XCTAssertEqual(held.filter { $0.title.hasPrefix("t") && Int($0.title.dropFirst()).map { $0 % 2 == 0 } == true }
                    .map { $0.project == nil }, [true, true, true], "nullified: " + message)
            }
        }
    }

    /// Starts the child for one batch and waits for it; returns the object IDs it reports.
    private func runChild(_ action: String, _ fixture: Fixture) throws -> Set<ObjectID> {
        let report = fixture.url.deletingLastPathComponent().appendingPathComponent("report-\(action)").path
        let child = try ChildProcess.start(role: Self.childRole, settings: ["STORE": fixture.url.path, "ACTION": action, "REPORT": report])
        XCTAssertTrue(ChildProcess.wait(for: child, timeout: 120), "the child ends by itself")
        XCTAssertEqual(child.terminationStatus, 0, "the child's \(action) succeeded")
        let text = try XCTUnwrap(ChildProcess.awaitReport(at: report, until: Date()), "the child reported")
        return Set(text.split(separator: "\n").compactMap { URL(string: String($0)).flatMap(ObjectID.init(uriRepresentation:)) })
    }

    /// In the child: one batch request on the store, its object IDs written to the report.
    static func playChild() -> Int32 {
        guard let path = ChildProcess.setting("STORE"), let action = ChildProcess.setting("ACTION"),
              let report = ChildProcess.setting("REPORT") else { return 2 }
        do {
            let container = try makeGraphContainer(TemporaryDirectory(), url: URL(fileURLWithPath: path))
            let context = container.newContext()
            context.transactionAuthor = "child"
            let projects = try context.fetch(projectRequest)
            let result: BatchResult
            switch action {
            case "insert":
                result = try context.execute(BatchInsertRequest<GTask>(objects: [["title": "c1", "project": projects.first?.objectID],
                                                                                ["title": "c2", "done": true]]))
            case "update":
                result = try context.execute(BatchUpdateRequest<GTask>(predicate: \.title == "t2" || \.title == "c1",
                                                                       propertiesToUpdate: ["done": true]))
            case "upsert":
                context.mergePolicy = .objectTrump
                result = try context.execute(BatchInsertRequest<GProject>(objects: [["name": "work", "rank": 7], ["name": "play"]]))
            case "delete":
                result = try context.execute(BatchDeleteRequest<GOwner>(predicate: \.name == "Ann"))
            default:
                return 3
            }
            ChildProcess.report(result.objectIDs.map(\.uriRepresentation.absoluteString).joined(separator: "\n"), to: report)
            return 0
        } catch {
            return 5
        }
    }
}
