import Foundation
import TaskModel
import XCTest

/// The due dates people type: ISO days, today, tomorrow, +Nd, +Nw, weekday names.
final class DueDateParserTests: XCTestCase {
    /// Friday, 20 November 2026, 15:00 UTC.
    private let parser = DueDateParser(calendar: utcCalendar, now: isoDate("2026-11-20T15:00:00.000Z"))

    private func day(_ text: String) -> String? {
        parser.date(from: text).map { String(TaskDateCoding.string(from: $0).prefix(10)) }
    }

    func testAcceptedForms() {
        XCTAssertEqual(day("2026-11-25"), "2026-11-25")
        XCTAssertEqual(day("2028-02-29"), "2028-02-29")
        XCTAssertEqual(day("today"), "2026-11-20")
        XCTAssertEqual(day("Tomorrow"), "2026-11-21")
        XCTAssertEqual(day("+3d"), "2026-11-23")
        XCTAssertEqual(day("+0d"), "2026-11-20")
        XCTAssertEqual(day("+2w"), "2026-12-04")
        XCTAssertEqual(day("monday"), "2026-11-23")
        XCTAssertEqual(day("sat"), "2026-11-21")
        XCTAssertEqual(day("FRIDAY"), "2026-11-27", "a weekday name is the next such day after today")
        XCTAssertEqual(day("thu"), "2026-11-26")
    }

    func testResultsAreStartsOfDays() throws {
        let date = try XCTUnwrap(parser.date(from: "tomorrow"))
        XCTAssertEqual(utcCalendar.startOfDay(for: date), date)
    }

    func testRefusedForms() {
        for text in ["next friday", "", "2026-13-01", "2026-02-30", "26-11-25", "2026-11-5", "+d", "+3", "+3x",
                     "-3d", "+999999d", "fr", "fridays", "yesterday-ish", "２０２６-11-25"] {
            XCTAssertNil(parser.date(from: text), text)
        }
        XCTAssertEqual(DueDateParser.examples, "2026-11-25, today, tomorrow, +3d, friday")
    }
}
