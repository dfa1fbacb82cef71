import Foundation
import PersistKit
import PersistKitTestSupport
import TaskModel
import XCTest

/// Stores written by TaskModel versions 1 and 2 open with version 3: migrated on open, in one
/// transaction, every task and value kept exactly, hashtags made tags (from version 1), no task
/// planned and the default daily limits (to version 3).
final class MigrationTests: XCTestCase {
    func testA50000TaskVersion1StoreKeepsEveryTaskAndFieldAndTakesTheNewOptions() throws {
        let directory = TemporaryDirectory(prefix: "taskmodel-migration")
        let url = directory.file("tasks.sqlite")
        let count = testSize("testA50000TaskVersion1Store", full: 50_000, ci: 5_000)
        let written = try Version1Store(url: url, count: count, seed: testSeed("testA50000TaskVersion1Store"))

        let store = try TaskStore(url: url)
        XCTAssertEqual(store.upgrade, StoreUpgrade(fromVersion: 1, toVersion: 3, taskCount: count))
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

        XCTAssertTrue(tasks.allSatisfy { $0.planPlace == .none }, "no task is planned or in the backlog")
        XCTAssertEqual(try store.dayLimits(), .defaults)
        XCTAssertEqual(try store.backlog(), [])

        // The new options work on the old tasks, and the store opens as version 3 from now on.
        let old = try XCTUnwrap(tasks.first)
        let day = try XCTUnwrap(CalendarDay(isoText: "2027-03-01"))
        try store.edit(old, TaskChanges(due: .some(.day(day)), priority: .high, project: "Home", addedTags: ["errands"],
                                        remindAt: .some(Date(timeIntervalSince1970: 1_900_000_000))))
        let planned = try XCTUnwrap(tasks.first { !$0.isComplete && $0 !== old })
        let today = CalendarDay(date: Date(), calendar: .current)
        try store.plan([planned], on: today)
        try store.setIsComplete(old, true)
        let again = try TaskStore(url: url)
        XCTAssertNil(again.upgrade)
        let edited = try again.task(withReference: try XCTUnwrap(old.referenceNumber))
        XCTAssertEqual(edited.dueDay, day)
        XCTAssertEqual(edited.project?.name, "Home")
        XCTAssertTrue(edited.tagNames.contains { $0.lowercased() == "errands" })
        XCTAssertNotNil(edited.completedAt)
        XCTAssertEqual(try again.plannedTasks(on: today).map(\.referenceNumber), [planned.referenceNumber])
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

    /// A store of version 2, with projects, tags, priorities, reminders shown and examples
    /// staged, opens as version 3 with every value kept, nothing planned, the default limits.
    func testAVersion2StoreIsUpgradedKeepingEverything() throws {
        let directory = TemporaryDirectory(prefix: "taskmodel-migration")
        let url = directory.file("tasks.sqlite")
        let count = testSize("testAVersion2StoreIsUpgraded", full: 5_000, ci: 1_000)
        var random = SeededGenerator(seed: testSeed("testAVersion2StoreIsUpgraded"))
        struct Row: Equatable {
            let name: String, notes: String?, due: Date?, dueIsDay: Bool, isComplete: Bool, createdAt: Date
            let priority: TaskPriority, completedAt: Date?, remindAt: Date?, project: String?, tags: [String]
        }
        var written: [String: Row] = [:]
        do {
            let context = try PersistentContainer(model: try TaskModelV2.makeModel(), store: .sqlite(url)).newContext()
            let info = TaskModelV2.StoreInfo(context: context)
            info.sampleDataStaged = true
            let projects = ["Home", "Work", "Garden"].map { name -> TaskModelV2.Project in
                let project = TaskModelV2.Project(context: context)
                project.name = name
                return project
            }
            let tags = ["errands", "phone", "café"].map { name -> TaskModelV2.Tag in
                let tag = TaskModelV2.Tag(context: context)
                tag.name = name
                return tag
            }
            for index in 0..<count {
                let task = TaskModelV2.TaskItem(context: context)
                task.name = "Task \(index)"
                task.notes = index % 3 == 0 ? "notes \(index)\nline two" : nil
                task.dueIsDay = index % 4 == 0
                task.due = index % 2 == 0 ? Date(timeIntervalSince1970: Double(Int.random(in: 1_700_000_000...1_900_000_000, using: &random) / 86_400 * 86_400)) : nil
                task.isComplete = Bool.random(using: &random)
                task.createdAt = Date(timeIntervalSince1970: 1_700_000_000 + Double(index))
                task.priority = TaskPriority.allCases.randomElement(using: &random) ?? .normal
                task.completedAt = task.isComplete && index % 5 != 0 ? task.createdAt.addingTimeInterval(3_600) : nil
                task.remindAt = index % 7 == 0 ? task.createdAt.addingTimeInterval(86_400) : nil
                task.project = index % 3 == 1 ? projects.randomElement(using: &random) : nil
                task.tags = Set(tags.filter { _ in Int.random(in: 0..<4, using: &random) == 0 })
                written[task.name] = Row(name: task.name, notes: task.notes, due: task.due, dueIsDay: task.dueIsDay,
                                         isComplete: task.isComplete, createdAt: task.createdAt, priority: task.priority,
                                         completedAt: task.completedAt, remindAt: task.remindAt, project: task.project?.name,
                                         tags: task.tags.map(\.name).sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) })
            }
            try context.save()
            // Task 0's reminder was shown (it is task #1: the first key given).
            let notice = TaskModelV2.ReminderNotice(context: context)
            notice.taskReference = 1
            notice.remindAt = Date(timeIntervalSince1970: 1_700_000_000 + 86_400)
            try context.save()
        }

        let store = try TaskStore(url: url)
        XCTAssertEqual(store.upgrade, StoreUpgrade(fromVersion: 2, toVersion: 3, taskCount: count))
        XCTAssertFalse(store.didStageSampleData, "the store was not new")
        let tasks = try store.tasks()
        let labels = try store.labels(of: tasks)
        var mismatches = 0
        for task in tasks {
            let kept = Row(name: task.name, notes: task.notes, due: task.due, dueIsDay: task.dueIsDay, isComplete: task.isComplete,
                           createdAt: task.createdAt, priority: task.priority, completedAt: task.completedAt, remindAt: task.remindAt,
                           project: labels.project(of: task), tags: labels.tags(of: task))
            if kept != written[task.name] || task.planPlace != .none {
                mismatches += 1
                if mismatches <= 5 { XCTFail("\(task.reference): \(kept), written \(String(describing: written[task.name]))") }
            }
        }
        XCTAssertEqual(mismatches, 0)
        XCTAssertEqual(tasks.count, count)
        XCTAssertEqual(try store.projects().map(\.name), ["Garden", "Home", "Work"])
        XCTAssertEqual(try store.tags().map(\.name), ["café", "errands", "phone"])
        XCTAssertEqual(try store.dayLimits(), .defaults)
        let due = try store.dueReminders(now: .distantFuture).compactMap(\.referenceNumber)
        XCTAssertFalse(due.contains(1), "the reminder shown before the upgrade stays shown")
        let seventh = try store.task(withReference: 8)
        XCTAssertTrue(due.contains(8) || seventh.isComplete, "task 7's reminder was not shown")
        try store.setDayLimits(DayLimits(high: 2))
        let today = CalendarDay(date: Date(), calendar: .current)
        let open = try XCTUnwrap(tasks.first { !$0.isComplete })
        try store.plan([open], on: today)
        // Attachments, new in version 3, work on the upgraded store, their large bytes in files.
        let photo = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try store.attach(photo, fileName: "photo.jpg", to: open)
        let reopened = try TaskStore(url: url)
        XCTAssertNil(reopened.upgrade)
        XCTAssertEqual(try reopened.dayLimits().high, 2)
        XCTAssertEqual(try reopened.plannedTasks(on: today).map(\.name), [open.name])
        XCTAssertEqual(try reopened.plannedTasks(on: today).first?.attachments.first?.readContents(), photo)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: url.path + "-external").count, 1)
    }

    /// The released version 1 document is the plan's version 1: the planning needs no store.
    func testThePlanReachesTheCurrentModel() throws {
        try TaskStore.migrationPlan().check(upTo: try TaskStore.makeModel())
    }
}
