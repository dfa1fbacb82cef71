import Foundation
import PersistKit
import PersistKitTestSupport
import TaskModel
import XCTest

/// Stores written by TaskModel version 1 open with version 2: migrated on open, in one
/// transaction, every task and value kept exactly, hashtags made tags.
final class MigrationTests: XCTestCase {
    func testA50000TaskVersion1StoreKeepsEveryTaskAndFieldAndTakesTheNewOptions() throws {
        let directory = TemporaryDirectory(prefix: "taskmodel-migration")
        let url = directory.file("tasks.sqlite")
        let count = testSize("testA50000TaskVersion1Store", full: 50_000, ci: 5_000)
        let written = try Version1Store(url: url, count: count, seed: testSeed("testA50000TaskVersion1Store"))

        let store = try TaskStore(url: url)
        XCTAssertEqual(store.upgrade, StoreUpgrade(fromVersion: 1, toVersion: 2, taskCount: count))
        XCTAssertFalse(store.didStageSampleData, "the store was not new")
        let tasks = try store.tasks()
        XCTAssertEqual(tasks.count, count)
        let labels = try store.labels(of: tasks)
        var mismatches = 0
        for task in tasks {
            guard let reference = task.referenceNumber, let row = written.rows[reference] else {
                XCTFail("\(task.reference) was not written")
                continue
            }
            let kept = Version1Store.Row(name: task.name, notes: task.notes, due: task.due, isComplete: task.isComplete,
                                         createdAt: task.createdAt)
            let expectedTags = Hashtags.names(name: row.name, notes: row.notes).map { $0.lowercased() }.sorted()
            if kept != row || task.dueIsDay || task.priority != .normal || task.completedAt != nil || task.remindAt != nil
                || labels.project(of: task) != nil || labels.tags(of: task).map({ $0.lowercased() }).sorted() != expectedTags {
                mismatches += 1
                if mismatches <= 5 { XCTFail("\(task.reference): \(kept) tags \(labels.tags(of: task)), written \(row)") }
            }
        }
        XCTAssertEqual(mismatches, 0)

        // The new options work on the old tasks, and the store opens as version 2 from now on.
        let old = try XCTUnwrap(tasks.first)
        let day = try XCTUnwrap(CalendarDay(isoText: "2027-03-01"))
        try store.edit(old, TaskChanges(due: .some(.day(day)), priority: .high, project: "Home", addedTags: ["errands"],
                                        remindAt: .some(Date(timeIntervalSince1970: 1_900_000_000))))
        try store.setIsComplete(old, true)
        let again = try TaskStore(url: url)
        XCTAssertNil(again.upgrade)
        let edited = try again.task(withReference: try XCTUnwrap(old.referenceNumber))
        XCTAssertEqual(edited.dueDay, day)
        XCTAssertEqual(edited.project?.name, "Home")
        XCTAssertTrue(edited.tagNames.contains { $0.lowercased() == "errands" })
        XCTAssertNotNil(edited.completedAt)
        XCTAssertEqual(try again.count(), count)
    }

    func testHashtagsBecomeTagsAndTheTextStays() throws {
        let directory = TemporaryDirectory(prefix: "taskmodel-migration")
        let url = directory.file("tasks.sqlite")
        do {
            let container = try PersistentContainer(model: try TaskModelV1.makeModel(), store: .sqlite(url))
            let context = container.newContext()
            for (name, notes) in [("Buy milk #errands", "oat, #Shop"), ("Call the bank #Errands", nil), ("Learn C#", "#12 only")] {
                let task = TaskModelV1.TaskItem(context: context)
                task.name = name
                task.notes = notes
            }
            try context.save()
        }
        let store = try TaskStore(url: url)
        XCTAssertEqual(store.upgrade?.taskCount, 3)
        XCTAssertEqual(try store.tasks().map { "\($0.name)|\($0.notes ?? "-")|\($0.tagNames.joined(separator: ","))" },
                       ["Buy milk #errands|oat, #Shop|errands,Shop", "Call the bank #Errands|-|errands", "Learn C#|#12 only|"])
        XCTAssertEqual(try store.tagSummaries(), [LabelSummary(name: "errands", open: 2, done: 0), LabelSummary(name: "Shop", open: 1, done: 0)])
    }

    /// The released version 1 document is the plan's version 1: the planning needs no store.
    func testThePlanReachesTheCurrentModel() throws {
        try TaskStore.migrationPlan().check(upTo: try TaskStore.makeModel())
    }
}
