import Foundation
import PersistKit
import TaskModel
import XCTest

/// Issue 31: a day's plan within per-priority limits kept in the store; the backlog.
final class DayPlanTests: XCTestCase {
    private let today = CalendarDay(isoText: "2026-11-21")!

    /// 09:00 UTC on `today`.
    private let clock = TestClock(isoDate("2026-11-21T09:00:00.000Z"))


    func testPlansStayWithinTheLimitsOfOpenTasks() throws {
        let fixture = try TaskStoreFixture(clock: clock)
        let store = fixture.store
        let first = try store.add(name: "Fix the gate", TaskChanges(priority: .high))
        let second = try store.add(name: "Write the report", TaskChanges(priority: .high))
        try store.plan([first], on: today)
        XCTAssertEqual(try store.overflow(planning: [second], on: today),
                       PlanOverflow(day: today, priority: .high, limit: 1, holding: [first.referenceNumber!], adding: [second.referenceNumber!]))
        let before = fixture.fileBytes()
        XCTAssertThrowsError(try store.plan([second], on: today)) { error in
            XCTAssertEqual((error as? PersistError)?.code, .validation)
            XCTAssertEqual((error as? PersistError)?.message,
                           "2026-11-21 already holds 1 of 1 high-priority tasks: finish or unplan #\(first.referenceNumber!) first")
        }
        XCTAssertEqual(fixture.fileBytes(), before, "a refused plan changes nothing")
        XCTAssertNil(second.day)
        // Finishing a task makes room: only open tasks count.
        try store.setIsComplete(first, true)
        XCTAssertEqual(try store.plan([second], on: today), [.none])
        XCTAssertEqual(try store.plannedTasks(on: today).map(\.name), ["Write the report", "Fix the gate"], "open before done")

        let normals = try (1...4).map { try store.add(name: "Normal \($0)") }
        let overflow = try XCTUnwrap(try store.overflow(planning: normals, on: today))
        XCTAssertEqual(overflow.message(dayName: "today"),
                       "today holds 0 of 3 normal-priority tasks: room for 3 more, not 4 ("
                       + normals.map(\.reference).dropLast().joined(separator: ", ") + " and \(normals[3].reference))")
        try store.plan(Array(normals.prefix(3)), on: today)
        XCTAssertEqual(try store.plan([normals[0]], on: today), [.day(today)], "planning a task again changes nothing")
        try store.unplan([normals[2]])
        XCTAssertEqual(try store.plan([normals[2], normals[2]], on: today), [.backlog, .backlog], "a task given twice counts once")
        XCTAssertNil(try store.overflow(planning: [normals[0]], on: today), "a task on the day counts once")
    }

    func testPlanningTakesFromTheBacklogAndOtherDays() throws {
        let store = try TaskStoreFixture(clock: clock).store
        let task = try store.add(name: "Call mom")
        let tomorrow = today.adding(days: 1)
        XCTAssertEqual(try store.plan([task], on: tomorrow), [.none])
        XCTAssertEqual(try store.plan([task], on: today), [.day(tomorrow)], "moved from tomorrow")
        XCTAssertEqual(try store.plannedTasks(on: tomorrow), [])
        XCTAssertEqual(try store.unplan([task]), [.day(today)])
        XCTAssertEqual(task.planPlace, .backlog)
        XCTAssertEqual(try store.backlog(), [task])
        XCTAssertEqual(try store.plan([task], on: today), [.backlog])
        XCTAssertNil(task.backloggedAt, "planning takes a task out of the backlog")
        XCTAssertEqual(try store.backlog(), [])
        XCTAssertEqual(try store.unplan([try store.add(name: "Never planned")]), [.none], "nothing to take off")
        XCTAssertEqual(try store.backlog(), [])
    }

    func testDoneTasksAndReviewedDaysAreRefused() throws {
        let store = try TaskStoreFixture(clock: clock).store
        let done = try store.add(name: "Done")
        try store.setIsComplete(done, true)
        XCTAssertThrowsError(try store.plan([done], on: today)) { error in
            XCTAssertEqual((error as? PersistError)?.message, "task \(done.reference) is done: there is nothing left to plan")
        }
        _ = try store.review(today, calendar: utcCalendar)
        XCTAssertThrowsError(try store.plan([try store.add(name: "Late")], on: today)) { error in
            XCTAssertEqual((error as? PersistError)?.message, "2026-11-21 was reviewed already: plan for a day still to come")
        }
    }

    func testTheBacklogIsHighPriorityFirstThenTheLongestWaiting() throws {
        let fixture = try TaskStoreFixture(clock: clock)
        let store = fixture.store
        let low = try store.add(name: "Low", TaskChanges(priority: .low))
        let early = try store.add(name: "Early")
        let late = try store.add(name: "Late")
        let high = try store.add(name: "High", TaskChanges(priority: .high))
        try store.plan([low, early, late, high], on: today)
        try store.unplan([early, low])
        clock.advance(by: 60)
        try store.unplan([late, high])
        XCTAssertEqual(try store.backlog().map(\.name), ["High", "Early", "Late", "Low"])
        XCTAssertEqual(late.backloggedAt, isoDate("2026-11-21T09:01:00.000Z"))
        try store.setIsComplete(early, true)
        XCTAssertEqual(try store.backlog().map(\.name), ["High", "Late", "Low"], "the backlog lists open tasks")
    }

    func testLimitsAreKeptInTheStore() throws {
        let fixture = try TaskStoreFixture()
        XCTAssertEqual(try fixture.store.dayLimits(), DayLimits(high: 1, normal: 3, low: 5))
        try fixture.store.setDayLimits(DayLimits(high: 2, normal: 0, low: 99))
        XCTAssertEqual(try fixture.reopen().dayLimits(), DayLimits(high: 2, normal: 0, low: 99))
        XCTAssertThrowsError(try fixture.store.setDayLimits(DayLimits(high: 100))) { error in
            XCTAssertEqual((error as? PersistError)?.code, .validation)
            XCTAssertEqual((error as? PersistError)?.message, "a day's limit of high-priority tasks must be from 0 to 99, not 100")
        }
        XCTAssertEqual(try fixture.reopen().dayLimits().high, 2, "a refused limit changes nothing")
        let task = try fixture.store.add(name: "Anything")
        XCTAssertEqual(try fixture.store.overflow(planning: [task], on: today)?.message(dayName: "today"),
                       "a day holds no normal-priority tasks (its limit is 0)")
    }

    func testTasksDueOnADayThatAreNotOnItsPlan() throws {
        let store = try TaskStoreFixture(clock: clock).store
        let planned = try store.add(name: "Planned", TaskChanges(due: .some(.day(today))))
        let due = try store.add(name: "Due", TaskChanges(due: .some(.day(today))))
        let timed = try store.add(name: "Timed", TaskChanges(due: .some(.time(isoDate("2026-11-21T23:30:00.000Z")))))
        try store.add(name: "Tomorrow", TaskChanges(due: .some(.day(today.adding(days: 1)))))
        try store.plan([planned], on: today)
        XCTAssertEqual(try store.openTasks(dueOn: today, calendar: utcCalendar), [due, timed])
        try store.setIsComplete(due, true)
        XCTAssertEqual(try store.openTasks(dueOn: today, calendar: utcCalendar), [timed])
        XCTAssertEqual(try store.unreviewedDays(before: today.adding(days: 1)), [today])
        XCTAssertEqual(try store.unreviewedDays(before: today), [])
    }
}
