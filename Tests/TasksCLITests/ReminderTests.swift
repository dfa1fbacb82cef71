import Foundation
import XCTest

/// Reminders: `--remind DATE-TIME` / `--no-remind`, shown by `show` and `--json`, and printed by
/// `tasks watch` when they come due (on start for those already due), once.
final class ReminderTests: XCTestCase {
    private func instant(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    func testRemindIsSetShownAndRemoved() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let task = try fixture.add("Call mom", "--remind", "2030-01-02T09:30:00Z")
        XCTAssertEqual(try fixture.list().task(task)?.remindAt, "2030-01-02T09:30:00.000Z")
        let remindLine = try XCTUnwrap(try fixture.ok("show", String(task)).lines.first { $0.hasPrefix("Remind:  ") })
        XCTAssertNotEqual(remindLine, "Remind:  -")
        try fixture.ok("edit", String(task), "--remind", "tomorrow 9am")
        let tomorrow = try XCTUnwrap(Calendar.current.date(byAdding: .day, value: 1, to: Calendar.current.startOfDay(for: Date())))
        let nine = try XCTUnwrap(Calendar.current.date(bySettingHour: 9, minute: 0, second: 0, of: tomorrow))
        XCTAssertEqual(try fixture.list().task(task)?.remindAt, instant(nine))
        try fixture.ok("edit", String(task), "--no-remind")
        XCTAssertNil(try fixture.list().task(task)?.remindAt)
        XCTAssertTrue(try fixture.ok("show", String(task)).lines.contains("Remind:  -"))
    }

    func testBadRemindersAreUsageErrors() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        try fixture.fails(["add", "x", "--remind", "tomorrow"], status: 64,
                          message: "'tomorrow' has no time of day (try 'tomorrow 9am' or 'tomorrow 14:30')")
        try fixture.fails(["add", "x", "--remind", "soonish"], status: 64, message: "'soonish' is not a date and time "
                          + "(try '2026-11-25 14:30', 'tomorrow 9am', 'friday 18:00', 18:00, +2h)")
        try fixture.fails(["edit", "1", "--remind", "+1h", "--no-remind"], status: 64,
                          message: "--remind and --no-remind cannot be used together")
    }

    func testWatchPrintsEachReminderOnceWhenItComesDue() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let past = try fixture.add("Past", "--remind", instant(Date().addingTimeInterval(-3600)))
        let soon = try fixture.add("Soon", "--remind", instant(Date().addingTimeInterval(3)))
        let later = try fixture.add("Later", "--remind", "+2h")
        let done = try fixture.add("Done", "--remind", instant(Date().addingTimeInterval(-60)))
        try fixture.ok("done", String(done))

        var watch = try RunningTasks(fixture, ["watch"])
        XCTAssertTrue(watch.wait(timeout: 10) { $0.contains("! #\(past) \"Past\" reminder (") }, "on start: \(watch.text)")
        XCTAssertTrue(watch.text.hasPrefix("Incomplete (3)\n"), "the list comes first: \(watch.text)")
        XCTAssertTrue(watch.wait(timeout: 10) { $0.contains("! #\(soon) \"Soon\" reminder (") }, "when due: \(watch.text)")
        XCTAssertEqual(watch.interrupt(), 0)
        XCTAssertEqual(watch.text.components(separatedBy: "reminder (").count - 1, 2, watch.text)
        XCTAssertFalse(watch.text.contains("#\(later) \"Later\" reminder") || watch.text.contains("\"Done\" reminder"))
        XCTAssertFalse(watch.text.contains("changed"), "showing a reminder changes no task: \(watch.text)")

        // Shown once: a new watch prints no reminder, until one is set again.
        watch = try RunningTasks(fixture, ["watch"])
        XCTAssertTrue(watch.wait(timeout: 10) { $0.contains("Complete (1)") })
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertFalse(watch.text.contains("reminder ("), watch.text)
        try fixture.ok("edit", String(past), "--remind", instant(Date().addingTimeInterval(-60)))
        XCTAssertTrue(watch.wait(timeout: 10) { $0.contains("! #\(past) \"Past\" reminder (") }, watch.text)
        XCTAssertEqual(watch.interrupt(), 0)
    }
}
