import Foundation
import PersistKit
import TaskModel
import XCTest

/// Issue 31: an export (version 3) carries the day plan: each task's day or place in the
/// backlog, the reviews and the daily limits; a restore gives them back exactly.
final class DayPlanTransferTests: XCTestCase {
    private let today = CalendarDay(isoText: "2026-11-21")!
    private let clock = TestClock(isoDate("2026-11-21T09:00:00.000Z"))


    /// Each task's place in the plan, by name.
    private func places(_ store: TaskStore) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try store.tasks().map { task in
            let place: String
            switch task.planPlace {
            case .day(let day): place = day.isoText
            case .backlog: place = "backlog since " + TaskDateCoding.string(from: task.backloggedAt ?? .distantPast)
            case .none: place = "-"
            }
            return (task.name, place)
        })
    }

    func testARestoreGivesBackThePlanTheReviewsAndTheLimits() throws {
        let source = try TaskStoreFixture(clock: clock)
        let store = source.store
        let yesterday = today.adding(days: -1)
        clock.now = isoDate("2026-11-20T09:00:00.000Z")
        let done = try store.add(name: "Done yesterday", TaskChanges(project: "Home"))
        let left = try store.add(name: "Left yesterday")
        try store.plan([done, left], on: yesterday)
        try store.setIsComplete(done, true)
        clock.now = isoDate("2026-11-20T18:00:00.000Z")
        _ = try store.review(yesterday, calendar: utcCalendar)
        clock.now = isoDate("2026-11-21T09:00:00.000Z")
        let planned = try store.add(name: "Planned today")
        try store.plan([planned], on: today)
        try store.add(name: "Not planned")
        try store.setDayLimits(DayLimits(high: 2, normal: 4, low: 6))
        let data = try store.exportDocument()

        let document = try TaskDocument(data: data)
        XCTAssertEqual(document.version, 3)
        XCTAssertEqual(document.limits, DayLimits(high: 2, normal: 4, low: 6))
        XCTAssertEqual(document.reviews, [try XCTUnwrap(try store.review(of: yesterday))])

        let target = try TaskStoreFixture(clock: clock)
        XCTAssertEqual(try target.store.importDocument(data).imported, 4)
        XCTAssertEqual(try places(target.store), try places(store))
        XCTAssertEqual(try target.store.review(of: yesterday), try store.review(of: yesterday))
        XCTAssertEqual(try target.store.dayLimits(), DayLimits(high: 2, normal: 4, low: 6), "a restore takes the limits")
        XCTAssertEqual(try target.store.backlog().map(\.name), ["Left yesterday"])
        XCTAssertEqual(try target.store.stats(days: 2, calendar: utcCalendar).plannedPerDay,
                       try store.stats(days: 2, calendar: utcCalendar).plannedPerDay)
        // Exported again, the restored store writes the same document.
        clock.advance(by: 0)
        XCTAssertEqual(try target.store.exportDocument(), data)
    }

    /// Into a store with tasks, an import adds its tasks and the reviews of days not reviewed
    /// there; the store keeps its limits and its own reviews.
    func testAnImportIntoAStoreInUseKeepsItsLimitsAndReviews() throws {
        let source = try TaskStoreFixture(clock: clock)
        try source.store.add(name: "From the file")
        _ = try source.store.review(today, calendar: utcCalendar)
        _ = try source.store.review(today.adding(days: -1), calendar: utcCalendar)
        try source.store.setDayLimits(DayLimits(high: 9))
        let data = try source.store.exportDocument()

        let target = try TaskStoreFixture(clock: clock)
        let mine = try target.store.add(name: "Mine")
        try target.store.plan([mine], on: today)
        clock.now = isoDate("2026-11-21T20:00:00.000Z")
        let ownReview = try target.store.review(today, calendar: utcCalendar).review
        XCTAssertEqual(try target.store.importDocument(data).imported, 1)
        XCTAssertEqual(try target.store.dayLimits(), .defaults)
        XCTAssertEqual(try target.store.review(of: today), ownReview, "the store's own review stands")
        XCTAssertEqual(try target.store.review(of: today.adding(days: -1))?.planned, 0, "a day it had not reviewed comes in")
    }

    func testImpossibleReviewsAndLimitsAreRefused() throws {
        let fixture = try TaskStoreFixture(clock: clock)
        let head = #"{"format": "tasks", "version": 3, "exportedAt": "2026-11-21T09:00:00.000Z", "tasks": [], "#
        let review = #"{"day": "2026-11-20", "reviewedAt": "2026-11-20T18:00:00.000Z", "planned": 2, "completed": 3, "backlogged": 0, "carried": 0}"#
        let cases: [(String, String)] = [
            (#""reviews": [\#(review)]}"#, "not a valid task export (review 1: more tasks done (3) than planned (2))"),
            (#""reviews": [\#(review.replacingOccurrences(of: "\"completed\": 3", with: "\"completed\": 1"))]}"#,
             "not a valid task export (review 1: the 1 not done are not the 0 backlogged and 0 carried)"),
            (#""limits": {"high": 1, "normal": 300, "low": 5}}"#,
             "not a valid task export (limits: the normal-priority limit must be from 0 to 99, not 300)"),
            (#""reviews": [{"day": "someday"}]}"#, "not a valid task export (day of review 1: 'someday' is not a day (like 2026-11-25))"),
            (#""tasks": [{"name": "x", "createdAt": "2026-11-21T09:00:00.000Z", "plannedFor": "soon"}]}"#
                .replacingOccurrences(of: #""tasks": [{"#, with: #""reviews": [], "tasks": [{"#),
             "not a valid task export (plannedFor of task 1: 'soon' is not a day (like 2026-11-25))"),
        ]
        for (tail, expected) in cases {
            let text = tail.hasPrefix(#""reviews": [], "tasks""#)
                ? #"{"format": "tasks", "version": 3, "exportedAt": "2026-11-21T09:00:00.000Z", "# + tail : head + tail
            XCTAssertThrowsError(try fixture.store.importDocument(Data(text.utf8)), tail) { error in
                XCTAssertEqual((error as? PersistError)?.message, expected)
            }
        }
        XCTAssertEqual(try fixture.store.count(), 0)
    }
}
