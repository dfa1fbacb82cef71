import Foundation
import PersistKit
import TaskModel
import XCTest

/// A due given as a day is a calendar day, the same day in every time zone; a due instant (as
/// version 1 stored every due) keeps its instant exactly.
final class DueDayTests: XCTestCase {
    private func calendar(_ zone: String) throws -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try XCTUnwrap(TimeZone(identifier: zone))
        return calendar
    }

    func testADueDayIsTheSameDayInEveryTimeZone() throws {
        let fixture = try TaskStoreFixture()
        let day = try XCTUnwrap(CalendarDay(isoText: "2026-12-01"))
        try fixture.store.add(name: "Pay rent", TaskChanges(due: .some(.day(day))))
        let task = try XCTUnwrap(try fixture.reopen().tasks().first)
        XCTAssertTrue(task.dueIsDay)
        XCTAssertEqual(task.dueDay, day)
        XCTAssertEqual(task.dueValue, .day(day))
        for zone in ["Pacific/Kiritimati", "Asia/Tokyo", "Europe/Paris", "UTC", "America/New_York", "Pacific/Pago_Pago"] {
            XCTAssertEqual(task.dueDay(calendar: try calendar(zone)), day, zone)
            // Seen on 1 December local time, it is due today wherever that is.
            let noon = try XCTUnwrap(try calendar(zone).date(from: DateComponents(year: 2026, month: 12, day: 1, hour: 12)))
            XCTAssertEqual(task.dueStatus(now: noon, calendar: try calendar(zone)), .today, zone)
        }
    }

    /// What today's (version 1) app did: local midnight, which moves with the time zone. Such a
    /// due is an instant and keeps it exactly.
    func testADueInstantKeepsItsInstant() throws {
        let fixture = try TaskStoreFixture()
        let parisMidnight = try XCTUnwrap(try calendar("Europe/Paris").date(from: DateComponents(year: 2026, month: 12, day: 1)))
        try fixture.store.add(name: "Legacy", notes: nil, due: parisMidnight)
        let task = try XCTUnwrap(try fixture.reopen().tasks().first)
        XCTAssertFalse(task.dueIsDay)
        XCTAssertNil(task.dueDay)
        XCTAssertEqual(task.due, parisMidnight)
        XCTAssertEqual(task.dueDay(calendar: try calendar("Europe/Paris"))?.isoText, "2026-12-01")
        XCTAssertEqual(task.dueDay(calendar: try calendar("America/New_York"))?.isoText, "2026-11-30", "an instant moves with the zone")
    }

    func testEditingOtherValuesKeepsADueDayADay() throws {
        let fixture = try TaskStoreFixture()
        let day = try XCTUnwrap(CalendarDay(isoText: "2027-01-15"))
        let task = try fixture.store.add(name: "Renew passport", TaskChanges(due: .some(.day(day))))
        try fixture.store.update(task, name: "Renew the passport", notes: "photos", due: task.due)
        XCTAssertEqual(task.dueDay, day, "passing the current due keeps it a day")
        try fixture.store.edit(task, TaskChanges(priority: .high))
        XCTAssertEqual(task.dueDay, day)
        try fixture.store.edit(task, TaskChanges(due: .some(nil)))
        XCTAssertNil(task.due)
        XCTAssertFalse(task.dueIsDay)
    }

    func testDayAndInstantDuesSortTogether() throws {
        let fixture = try TaskStoreFixture()
        let store = fixture.store
        try store.add(name: "day 3", TaskChanges(due: .some(.day(try XCTUnwrap(CalendarDay(isoText: "2026-12-03"))))))
        try store.add(name: "instant 2", notes: nil, due: isoDate("2026-12-02T15:00:00.000Z"))
        try store.add(name: "day 1", TaskChanges(due: .some(.day(try XCTUnwrap(CalendarDay(isoText: "2026-12-01"))))))
        try store.add(name: "undated", TaskChanges())
        XCTAssertEqual(try store.tasks().names, ["day 1", "instant 2", "day 3", "undated"])
    }

    func testCalendarDayArithmeticAndText() throws {
        let leap = try XCTUnwrap(CalendarDay(year: 2028, month: 2, day: 29))
        XCTAssertEqual(leap.isoText, "2028-02-29")
        XCTAssertEqual(leap.adding(days: 1).isoText, "2028-03-01")
        XCTAssertEqual(leap.adding(days: -366).isoText, "2027-02-28")
        XCTAssertNil(CalendarDay(year: 2027, month: 2, day: 29))
        XCTAssertNil(CalendarDay(isoText: "2026-11-5"))
        XCTAssertEqual(CalendarDay(dayNumber: 0).isoText, "1970-01-01")
        XCTAssertEqual(CalendarDay(dayNumber: -1).isoText, "1969-12-31")
        XCTAssertEqual(CalendarDay(storedInstant: CalendarDay(dayNumber: -1).storedInstant).dayNumber, -1)
        XCTAssertEqual(leap.days(since: try XCTUnwrap(CalendarDay(isoText: "2028-02-01"))), 28)
        XCTAssertLessThan(try XCTUnwrap(CalendarDay(isoText: "1999-12-31")), try XCTUnwrap(CalendarDay(isoText: "2000-01-01")))
    }

    /// Friday, 20 November 2026, 15:00 UTC: days and times as people type them.
    func testParserReadsDaysAndTimes() throws {
        let parser = DueDateParser(calendar: utcCalendar, now: isoDate("2026-11-20T15:00:00.000Z"))
        XCTAssertEqual(parser.due(from: "tomorrow"), .day(try XCTUnwrap(CalendarDay(isoText: "2026-11-21"))))
        XCTAssertEqual(parser.due(from: "2026-12-01"), .day(try XCTUnwrap(CalendarDay(isoText: "2026-12-01"))))
        let times: [(String, String)] = [
            ("2026-12-01 14:30", "2026-12-01T14:30:00.000Z"), ("2026-12-01T14:30", "2026-12-01T14:30:00.000Z"),
            ("tomorrow 9am", "2026-11-21T09:00:00.000Z"), ("tomorrow at 9:15pm", "2026-11-21T21:15:00.000Z"),
            ("monday 12am", "2026-11-23T00:00:00.000Z"), ("friday 12pm", "2026-11-27T12:00:00.000Z"),
            ("18:00", "2026-11-20T18:00:00.000Z"), ("+30m", "2026-11-20T15:30:00.000Z"), ("+2h", "2026-11-20T17:00:00.000Z"),
            ("+1d", "2026-11-21T15:00:00.000Z"), ("2026-12-01T14:30:00+02:00", "2026-12-01T12:30:00.000Z"),
            ("+3d 08:00:30", "2026-11-23T08:00:30.000Z"),
        ]
        for (text, expected) in times {
            XCTAssertEqual(parser.dateTime(from: text).map(TaskDateCoding.string), expected, text)
        }
        XCTAssertEqual(parser.due(from: "friday 18:00"), .time(isoDate("2026-11-27T18:00:00.000Z")))
        for text in ["tomorrow", "9", "25:00", "13pm", "0am", "12:60", "tomorrow 9", "next friday 9am", "2026-12-01 14:30 extra", ""] {
            XCTAssertNil(parser.dateTime(from: text), text)
        }
    }

    func testTimesAreLocal() throws {
        var paris = Calendar(identifier: .gregorian)
        paris.timeZone = try XCTUnwrap(TimeZone(identifier: "Europe/Paris"))
        let parser = DueDateParser(calendar: paris, now: isoDate("2026-11-20T15:00:00.000Z"))
        XCTAssertEqual(parser.dateTime(from: "tomorrow 9am").map(TaskDateCoding.string), "2026-11-21T08:00:00.000Z")
    }
}
