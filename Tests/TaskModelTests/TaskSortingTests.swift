import Foundation
import PersistKit
import TaskModel
import XCTest

/// List order and sections: incomplete then complete, by due date with undated tasks last,
/// then by creation.
final class TaskSortingTests: XCTestCase {
    /// Tasks added in an order unlike the list order, some undated, some complete.
    private func addMixedTasks(to store: TaskStore) throws {
        try store.add(name: "undated first", due: nil)
        try store.add(name: "due late", due: isoDate("2026-12-20T00:00:00.000Z"))
        try store.add(name: "undated second", due: nil)
        try store.add(name: "due early", due: isoDate("2026-11-02T00:00:00.000Z"))
        let doneUndated = try store.add(name: "done undated", due: nil)
        let doneDated = try store.add(name: "done dated", due: isoDate("2026-11-10T00:00:00.000Z"))
        try store.add(name: "due late too", due: isoDate("2026-12-20T00:00:00.000Z"))
        try store.toggleIsComplete(doneUndated)
        try store.toggleIsComplete(doneDated)
    }

    func testListOrder() throws {
        let fixture = try TaskStoreFixture()
        try addMixedTasks(to: fixture.store)
        XCTAssertEqual(try fixture.store.tasks().names, [
            "due early", "due late", "due late too", "undated first", "undated second",
            "done dated", "done undated",
        ])
        XCTAssertEqual(try fixture.store.tasks(.incomplete).names,
                       ["due early", "due late", "due late too", "undated first", "undated second"])
        XCTAssertEqual(try fixture.store.tasks(.completed).names, ["done dated", "done undated"])
        XCTAssertEqual(try fixture.store.count(.completed), 2)
    }

    func testResultsControllerSections() throws {
        let fixture = try TaskStoreFixture()
        try addMixedTasks(to: fixture.store)
        let results = fixture.store.resultsController(filter: .all)
        try results.performFetch()
        XCTAssertEqual(results.sections.compactMap(TaskSection.init).map(\.title), ["Incomplete", "Complete"])
        XCTAssertEqual(results.sections.map(\.numberOfObjects), [5, 2])
        XCTAssertEqual(results.sections[0].objects.names,
                       ["due early", "due late", "due late too", "undated first", "undated second"])
        XCTAssertEqual(results.sections[1].objects.names, ["done dated", "done undated"])
    }

    func testResultsControllerReportsACompletedTaskAsAMove() throws {
        let fixture = try TaskStoreFixture()
        try addMixedTasks(to: fixture.store)
        let results = fixture.store.resultsController(filter: .all)
        try results.performFetch()
        var changes: [ChangeSet] = []
        let token = results.observe { changes.append($0) }
        defer { token.cancel() }

        let early = try XCTUnwrap(results.object(at: IndexPath(item: 0, section: 0)))
        try fixture.store.toggleIsComplete(early)
        XCTAssertEqual(changes.count, 1)
        let change = try XCTUnwrap(changes.first)
        XCTAssertEqual(change.movedRows.count, 1)
        XCTAssertEqual(change.movedRows.first?.from, IndexPath(item: 0, section: 0))
        XCTAssertEqual(change.movedRows.first?.to, IndexPath(item: 0, section: 1), "due Nov 2 sorts before Nov 10")
        XCTAssertEqual(results.sections[1].objects.names, ["due early", "done dated", "done undated"])
    }

    func testFilteredControllerHasOneSection() throws {
        let fixture = try TaskStoreFixture()
        try addMixedTasks(to: fixture.store)
        let results = fixture.store.resultsController(filter: .completed)
        try results.performFetch()
        XCTAssertEqual(results.sections.compactMap(TaskSection.init), [.complete])
        XCTAssertEqual(TaskFilter.completed.sections, [.complete])
        XCTAssertEqual(TaskFilter.all.sections, [.incomplete, .complete])
    }

    func testDueStatus() throws {
        let fixture = try TaskStoreFixture()
        let now = isoDate("2026-11-20T15:00:00.000Z")
        let cases: [(String, DueStatus)] = [
            ("2026-11-19T23:59:59.000Z", .overdue), ("2026-11-20T00:00:00.000Z", .today),
            ("2026-11-20T23:00:00.000Z", .today), ("2026-11-21T00:00:00.000Z", .tomorrow),
            ("2026-11-22T00:00:00.000Z", .later),
        ]
        for (text, expected) in cases {
            let task = try fixture.store.add(name: text, due: isoDate(text))
            XCTAssertEqual(task.dueStatus(now: now, calendar: utcCalendar), expected, text)
            try fixture.store.toggleIsComplete(task)
            XCTAssertNil(task.dueStatus(now: now, calendar: utcCalendar), "complete tasks have no status")
        }
        XCTAssertNil(try fixture.store.add(name: "undated").dueStatus())
    }
}
