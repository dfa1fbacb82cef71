import Foundation
import PersistKit
import TaskModel
import XCTest

/// Issue 31: the review ends a day once: it records the day's figures and moves what was not
/// done to the backlog, or with `carry` to the next day within its limits.
final class DayReviewTests: XCTestCase {
    private let today = CalendarDay(isoText: "2026-11-21")!
    /// 18:00 UTC on `today`.
    private let clock = TestClock(isoDate("2026-11-21T18:00:00.000Z"))


    func testAReviewRecordsTheDayAndMovesWhatWasNotDone() throws {
        let fixture = try TaskStoreFixture(clock: clock)
        let store = fixture.store
        let gate = try store.add(name: "Fix the gate", TaskChanges(priority: .high, project: "Home"))
        let rent = try store.add(name: "Pay rent", TaskChanges(project: "Home"))
        let call = try store.add(name: "Call mom")
        let elsewhere = try store.add(name: "Not planned")
        try store.plan([gate, rent, call], on: today)
        try store.setIsComplete(gate, true)
        try store.setIsComplete(rent, true)

        let result = try store.review(today, calendar: utcCalendar)
        XCTAssertTrue(result.isNew)
        XCTAssertEqual(result.done, [gate, rent])
        XCTAssertEqual(result.backlogged, [call])
        XCTAssertEqual(result.carried, [])
        XCTAssertNil(result.carriedTo)
        let expected = DayReview(day: today, reviewedAt: isoDate("2026-11-21T18:00:00.000Z"), planned: 3, completed: 2, backlogged: 1,
                                 carried: 0, projects: [ProjectCompletion(project: "Home", planned: 2, completed: 2),
                                                        ProjectCompletion(project: nil, planned: 1, completed: 0)])
        XCTAssertEqual(result.review, expected)
        XCTAssertEqual(try fixture.reopen().review(of: today), expected, "recorded in the store")
        XCTAssertEqual(call.planPlace, .backlog)
        XCTAssertEqual(call.backloggedAt, isoDate("2026-11-21T18:00:00.000Z"))
        XCTAssertEqual(gate.planPlace, .day(today), "a task done stays on its day")
        XCTAssertEqual(elsewhere.planPlace, .none)
        XCTAssertEqual(try store.backlog(), [call])
        XCTAssertEqual(try store.plannedTasks(on: today), [gate, rent])
    }

    func testReviewingADayTwiceChangesNothing() throws {
        let fixture = try TaskStoreFixture(clock: clock)
        let store = fixture.store
        let call = try store.add(name: "Call mom")
        try store.plan([call], on: today)
        let first = try store.review(today, carry: true, calendar: utcCalendar)
        XCTAssertEqual(first.carried, [call])
        let bytes = fixture.fileBytes()
        clock.advance(by: 600)
        for carry in [false, true] {
            let again = try store.review(today, carry: carry, calendar: utcCalendar)
            XCTAssertFalse(again.isNew)
            XCTAssertEqual(again.review, first.review, "the first review stands")
            XCTAssertEqual(again.backlogged + again.carried, [])
        }
        // Another process: the same.
        let other = try fixture.reopen()
        XCTAssertFalse(try other.review(today, calendar: utcCalendar).isNew)
        XCTAssertEqual(fixture.fileBytes(), bytes, "nothing written the second time")
    }

    func testCarryTakesWhatFitsTheNextDaysLimits() throws {
        let fixture = try TaskStoreFixture(clock: clock)
        let store = fixture.store
        let tomorrow = today.adding(days: 1)
        let waiting = try store.add(name: "Already tomorrow", TaskChanges(priority: .high))
        try store.plan([waiting], on: tomorrow)
        let high = try store.add(name: "High", TaskChanges(priority: .high))
        let normals = try (1...3).map { try store.add(name: "Normal \($0)") }
        try store.plan([high] + normals, on: today)
        try store.setDayLimits(DayLimits(high: 1, normal: 2, low: 5))

        let result = try store.review(today, carry: true, calendar: utcCalendar)
        XCTAssertEqual(result.carriedTo, tomorrow)
        XCTAssertEqual(result.carried, Array(normals.prefix(2)), "tomorrow has room for two normal tasks")
        XCTAssertEqual(result.backlogged, [high, normals[2]], "no room for another high one, nor a third normal one")
        XCTAssertEqual(result.review.carried, 2)
        XCTAssertEqual(result.review.backlogged, 2)
        XCTAssertEqual(Set(try store.plannedTasks(on: tomorrow)), Set([waiting] + normals.prefix(2)))
        XCTAssertNil(try store.overflow(planning: [], on: tomorrow))
    }

    func testALateReviewCarriesIntoToday() throws {
        let fixture = try TaskStoreFixture(clock: clock)
        let store = fixture.store
        let old = today.adding(days: -3)
        let task = try store.add(name: "Left over")
        clock.now = isoDate("2026-11-18T09:00:00.000Z")
        try store.plan([task], on: old)
        clock.now = isoDate("2026-11-21T08:00:00.000Z")
        XCTAssertEqual(try store.unreviewedDays(before: today), [old])
        let result = try store.review(old, carry: true, calendar: utcCalendar)
        XCTAssertEqual(result.carriedTo, today, "not into a day that has passed")
        XCTAssertEqual(task.planPlace, .day(today))
        XCTAssertEqual(try store.unreviewedDays(before: today), [])
    }

    func testADayToComeIsRefused() throws {
        let fixture = try TaskStoreFixture(clock: clock)
        let before = fixture.fileBytes()
        XCTAssertThrowsError(try fixture.store.review(today.adding(days: 1), calendar: utcCalendar)) { error in
            XCTAssertEqual((error as? PersistError)?.code, .validation)
            XCTAssertEqual((error as? PersistError)?.message, "2026-11-22 has not come yet: a day is reviewed once it has begun")
        }
        XCTAssertEqual(fixture.fileBytes(), before)
    }

    func testADayWithNoPlanIsReviewedOnceToo() throws {
        let fixture = try TaskStoreFixture(clock: clock)
        let result = try fixture.store.review(today, calendar: utcCalendar)
        XCTAssertTrue(result.isNew)
        XCTAssertEqual(result.review.planned, 0)
        XCTAssertFalse(try fixture.reopen().review(today, calendar: utcCalendar).isNew)
    }

    /// `stats` counts each day's plan: a reviewed day as recorded, another as it stands; and
    /// completion per project over the days.
    func testStatsCountEachDaysPlan() throws {
        let fixture = try TaskStoreFixture(clock: clock)
        let store = fixture.store
        let yesterday = today.adding(days: -1)
        clock.now = isoDate("2026-11-20T09:00:00.000Z")
        let home = try store.add(name: "Home task", TaskChanges(project: "Home"))
        let loose = try store.add(name: "Loose task")
        try store.plan([home, loose], on: yesterday)
        try store.setIsComplete(home, true)
        clock.now = isoDate("2026-11-20T20:00:00.000Z")
        _ = try store.review(yesterday, calendar: utcCalendar)
        try store.remove(home)   // a review's figures are kept, whatever happens to its tasks
        clock.now = isoDate("2026-11-21T09:00:00.000Z")
        let work = try store.add(name: "Work task", TaskChanges(project: "Work"))
        try store.plan([work, loose], on: today)
        try store.setIsComplete(work, true)

        let stats = try store.stats(days: 3, calendar: utcCalendar)
        XCTAssertEqual(stats.plannedPerDay, [
            DayOutcome(day: today.adding(days: -2), planned: 0, completed: 0, isReviewed: false),
            DayOutcome(day: yesterday, planned: 2, completed: 1, isReviewed: true),
            DayOutcome(day: today, planned: 2, completed: 1, isReviewed: false),
        ])
        XCTAssertEqual(stats.completionByProject, [ProjectCompletion(project: "Home", planned: 1, completed: 1),
                                                   ProjectCompletion(project: "Work", planned: 1, completed: 1),
                                                   ProjectCompletion(project: nil, planned: 2, completed: 0)])
    }
}
