import Foundation
import PersistKit
import PersistKitTestSupport
import TaskModel
import XCTest

/// README's "TaskModel in code", compiled and run as a user's file would be
/// (`DocumentationCodeBlocksTests` checks that the block stands here).
final class ReadmeTaskModelTests: XCTestCase {
    func testTaskModelInCode() throws {
        let directory = TemporaryDirectory()
        let storeURL = directory.file("tasks.sqlite")

        let store = try TaskStore(url: storeURL)            // a new store is empty (stagesSampleData: true adds examples)
        let task = try store.add(name: "Buy milk", notes: nil, due: nil)
        try store.edit(task, TaskChanges(due: .some(.day(CalendarDay(isoText: "2026-11-25")!)), priority: .high,
                                         project: "Home", addedTags: ["errands"]))
        try store.toggleIsComplete(task)                     // completedAt recorded
        let found = try store.tasks(.all, matching: "milk")  // name or notes, [cd]
        let home = try store.tasks(TaskQuery(filter: .incomplete, project: "Home", sort: .priority))
        let results = store.resultsController(filter: .incomplete)
        try results.performFetch()                           // sections keyed by isComplete: TaskSection(section)?.title

        XCTAssertNotNil(task.completedAt)
        XCTAssertTrue(found.contains(task))
        XCTAssertFalse(home.contains(task), "completed, so not incomplete")
        XCTAssertFalse(results.fetchedObjects.contains(task))
    }
}
