import Foundation
import PersistKit
import TaskModel
import XCTest

/// Projects and tags: made on first use, matched without regard to case, renamed, removed.
final class ProjectAndTagTests: XCTestCase {
    func testProjectsAndTagsAreMadeOnFirstUseAndReused() throws {
        let fixture = try TaskStoreFixture()
        let store = fixture.store
        let milk = try store.add(name: "Buy milk", TaskChanges(project: "Home", addedTags: ["errands", "#Shop"]))
        let gate = try store.add(name: "Fix the gate", TaskChanges(project: " home ", addedTags: ["ERRANDS"]))
        XCTAssertEqual(try store.projects().map(\.name), ["Home"])
        XCTAssertEqual(try store.tags().map(\.name), ["errands", "Shop"], "a leading # is dropped; the first spelling stays")
        XCTAssertTrue(milk.project === gate.project)
        XCTAssertEqual(milk.tagNames, ["errands", "Shop"])

        let reopened = try fixture.reopen()
        let tasks = try reopened.tasks()
        XCTAssertEqual(tasks.map { $0.project?.name }, ["Home", "Home"])
        XCTAssertEqual(try reopened.projectSummaries(), [LabelSummary(name: "Home", open: 2, done: 0)])
        XCTAssertEqual(try reopened.tagSummaries(), [LabelSummary(name: "errands", open: 2, done: 0),
                                                     LabelSummary(name: "Shop", open: 1, done: 0)])
    }

    func testEditMovesUnfilesTagsAndUntags() throws {
        let fixture = try TaskStoreFixture()
        let store = fixture.store
        let task = try store.add(name: "Call the bank", TaskChanges(project: "Home", addedTags: ["phone", "money"]))
        try store.edit(task, TaskChanges(project: "Work", addedTags: ["urgent"], removedTags: ["PHONE", "never-there"]))
        XCTAssertEqual(task.project?.name, "Work")
        XCTAssertEqual(task.tagNames, ["money", "urgent"])
        XCTAssertEqual(try store.project(named: "home")?.tasks.count, 0, "the old project no longer holds it")
        try store.edit(task, TaskChanges(project: .some(nil)))
        XCTAssertNil(task.project)
        let reopened = try fixture.reopen()   // kept: a task reads its relationships through its store's context
        let again = try XCTUnwrap(try reopened.tasks().first)
        XCTAssertNil(again.project)
        XCTAssertEqual(again.tagNames, ["money", "urgent"])
    }

    func testBadNamesChangeNothing() throws {
        let fixture = try TaskStoreFixture()
        let store = fixture.store
        let cases: [(TaskChanges, String)] = [
            (TaskChanges(project: "  "), "a project's name cannot be empty"),
            (TaskChanges(project: "two\nlines"), "a project's name must be one line"),
            (TaskChanges(project: .some(String(repeating: "p", count: 101))), "a project's name can be at most 100 characters"),
            (TaskChanges(addedTags: ["two words"]), "a tag's name cannot contain spaces"),
            (TaskChanges(addedTags: ["#"]), "a tag's name cannot be empty"),
            (TaskChanges(project: "Fine", addedTags: ["ok", "##x"]), "a tag's name cannot begin with #"),
        ]
        for (changes, message) in cases {
            XCTAssertThrowsError(try store.add(name: "x", changes), message) { error in
                XCTAssertEqual((error as? PersistError)?.code, .validation)
                XCTAssertTrue((error as? PersistError)?.message.hasPrefix(message) == true, "\(error)")
            }
        }
        XCTAssertEqual(try store.count(), 0)
        XCTAssertEqual(try store.projects().count, 0, "no project made by a refused add")
        XCTAssertEqual(try store.tags().count, 0)
    }

    func testRenamingProjectsAndTags() throws {
        let fixture = try TaskStoreFixture()
        let store = fixture.store
        try store.add(name: "a", TaskChanges(project: "Home", addedTags: ["errands"]))
        try store.add(name: "b", TaskChanges(project: "Work", addedTags: ["phone"]))
        try store.renameProject("home", to: "House")
        try store.renameProject("house", to: "HOUSE")   // a change of case alone
        XCTAssertEqual(try store.projects().map(\.name), ["HOUSE", "Work"])
        XCTAssertThrowsError(try store.renameProject("HOUSE", to: "work")) { error in
            XCTAssertEqual((error as? PersistError)?.message, "a project named \"Work\" already exists")
        }
        XCTAssertThrowsError(try store.renameProject("Garden", to: "Yard")) { error in
            XCTAssertEqual((error as? PersistError)?.code, .objectNotFound)
            XCTAssertEqual((error as? PersistError)?.message, "no project named \"Garden\"")
        }
        try store.renameTag("#errands", to: "shopping")
        XCTAssertThrowsError(try store.renameTag("shopping", to: "Phone"))
        XCTAssertThrowsError(try store.renameTag("shopping", to: "two words"))
        XCTAssertEqual(try fixture.reopen().tags().map(\.name), ["phone", "shopping"])
    }

    func testRemovingAProjectRefusesUnlessToldWhatToDoWithItsTasks() throws {
        let fixture = try TaskStoreFixture()
        let store = fixture.store
        try store.add(name: "a", TaskChanges(project: "Home"))
        try store.add(name: "b", TaskChanges(project: "Home"))
        try store.add(name: "c", TaskChanges(project: "Work"))
        try store.add(name: "d", TaskChanges(project: "Empty"))
        try store.edit(try XCTUnwrap(try store.tasks().first { $0.name == "d" }), TaskChanges(project: .some(nil)))

        XCTAssertThrowsError(try store.removeProject(named: "home", .onlyIfEmpty)) { error in
            XCTAssertEqual((error as? PersistError)?.message, "project \"Home\" has 2 tasks")
        }
        XCTAssertEqual(try store.removeProject(named: "Empty", .onlyIfEmpty), 0)
        XCTAssertEqual(try store.removeProject(named: "Home", .keepingTasks), 2)
        XCTAssertEqual(try store.count(), 4)
        XCTAssertEqual(try store.tasks().filter { $0.project != nil }.map(\.name), ["c"])
        XCTAssertEqual(try store.removeProject(named: "work", .withTasks), 1)
        XCTAssertEqual(try fixture.reopen().tasks().map(\.name).sorted(), ["a", "b", "d"])
        XCTAssertEqual(try fixture.reopen().projects().count, 0)
    }

    func testRemovingATagKeepsItsTasks() throws {
        let fixture = try TaskStoreFixture()
        let store = fixture.store
        try store.add(name: "a", TaskChanges(addedTags: ["x", "y"]))
        try store.add(name: "b", TaskChanges(addedTags: ["x"]))
        XCTAssertEqual(try store.removeTag(named: "X"), 2)
        XCTAssertThrowsError(try store.removeTag(named: "x"))
        let reopened = try fixture.reopen()
        XCTAssertEqual(try reopened.tasks().map(\.tagNames), [["y"], []])
    }

    func testQueriesByProjectTagAndPriorityAndSorts() throws {
        let fixture = try TaskStoreFixture()
        let store = fixture.store
        let day = { (text: String) in TaskChanges(due: .some(.day(CalendarDay(isoText: text) ?? CalendarDay(dayNumber: 0)))) }
        var changes = day("2026-12-03")
        changes.project = "Home"
        changes.addedTags = ["errands"]
        changes.priority = .low
        try store.add(name: "beta", changes)
        changes = day("2026-12-01")
        changes.project = "Home"
        changes.priority = .high
        try store.add(name: "Alpha", changes)
        changes = day("2026-12-02")
        changes.addedTags = ["errands"]
        try store.add(name: "gamma", changes)
        let done = try store.add(name: "delta", TaskChanges(priority: .high, project: "Home"))
        try store.setIsComplete(done, true)

        XCTAssertEqual(try store.tasks(TaskQuery(project: "home")).names, ["Alpha", "beta", "delta"])
        XCTAssertEqual(try store.tasks(TaskQuery(tag: "#Errands")).names, ["gamma", "beta"])
        XCTAssertEqual(try store.tasks(TaskQuery(project: "Home", tag: "errands")).names, ["beta"])
        XCTAssertEqual(try store.tasks(TaskQuery(priority: .high)).names, ["Alpha", "delta"])
        XCTAssertEqual(try store.tasks(TaskQuery(filter: .incomplete, project: "Home")).names, ["Alpha", "beta"])
        XCTAssertEqual(try store.tasks(TaskQuery(project: "Nowhere")).names, [])
        XCTAssertEqual(try store.tasks(TaskQuery(sort: .priority)).names, ["Alpha", "gamma", "beta", "delta"])
        XCTAssertEqual(try store.tasks(TaskQuery(sort: .name)).names, ["Alpha", "beta", "gamma", "delta"])
        XCTAssertEqual(try store.tasks(TaskQuery(search: "ALP", sort: .name)).names, ["Alpha"])
    }

    func testLabelsOfManyTasksMatchEachTasksOwn() throws {
        let fixture = try TaskStoreFixture()
        let store = fixture.store
        for index in 0..<30 {
            var tags = ["t\(index % 3)"]
            if index % 5 == 0 { tags.append("five") }
            try store.add(name: "task \(index)", TaskChanges(project: index % 4 == 0 ? .some(nil) : .some("p\(index % 4)"),
                                                            addedTags: index % 7 == 0 ? [] : tags))
        }
        let reopened = try fixture.reopen()
        for tasks in [try reopened.tasks(), Array(try reopened.tasks().prefix(2))] {
            let labels = try reopened.labels(of: tasks)
            for task in tasks {
                XCTAssertEqual(labels.tags(of: task), task.tagNames, task.name)
                XCTAssertEqual(labels.project(of: task), task.project?.name, task.name)
            }
        }
    }
}
