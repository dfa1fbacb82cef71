import Foundation
import XCTest

/// `tasks add` and `tasks list`: sections with counts, rows with reference, box, name, due
/// date and marks, first line of notes; filters; JSON.
final class AddAndListTests: XCTestCase {
    private let mediumDate: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateStyle = .medium
        formatter.timeStyle = .none
        return formatter
    }()

    private func day(_ offset: Int) throws -> Date {
        try XCTUnwrap(Calendar.current.date(byAdding: .day, value: offset, to: Calendar.current.startOfDay(for: Date())))
    }

    func testNewStoreListsExampleTasks() throws {
        let fixture = try CLIFixture()
        let result = try fixture.ok("list")
        XCTAssertTrue(result.stdout.hasPrefix("Incomplete ("), result.stdout)
        XCTAssertTrue(result.stdout.contains("\nComplete ("), result.stdout)
        XCTAssertTrue(result.stdout.contains("[x]"), "an example is complete")
        XCTAssertFalse(result.stdout.contains("\u{1B}["), "no colour when standard output is not a terminal")
        XCTAssertEqual(try fixture.ok().stdout, result.stdout, "plain tasks is tasks list")
    }

    func testAddPrintsTheReferenceAndSaves() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let result = try fixture.ok("add", "Call mom", "--notes", "About the trip\nand the car", "--due", "tomorrow")
        XCTAssertTrue(result.stdout.hasPrefix("Added #"), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix(" \"Call mom\"\n"), result.stdout)
        let task = try XCTUnwrap(try fixture.list().allTasks.first)
        XCTAssertEqual(task.name, "Call mom")
        XCTAssertEqual(task.notes, "About the trip\nand the car")
        XCTAssertEqual(task.dueStatus, "tomorrow")
        XCTAssertFalse(task.isComplete)
    }

    func testListTextShowsSectionsRowsMarksAndNotes() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let overdue = try fixture.add("Pay rent", "--due", "2020-01-01")
        let today = try fixture.add("Call mom", "--due", "today", "--notes", "First line\nsecond line")
        let tomorrow = try fixture.add("Buy milk", "--due", "tomorrow")
        let later = try fixture.add("Plan trip", "--due", "+3d")
        let undated = try fixture.add("Read a book")
        let done = try fixture.add("Water plants", "--due", "2020-01-02")
        try fixture.ok("done", String(done))

        let lines = try fixture.ok("list").lines
        XCTAssertEqual(lines.count, 9, lines.joined(separator: "\n"))
        XCTAssertEqual(lines[0], "Incomplete (5)")
        let rows = Array(lines[1...5])
        XCTAssertEqual(rows.map { $0.split(separator: " ").first.map(String.init) },
                       ["#\(overdue)", "#\(today)", "#\(tomorrow)", "#\(later)", "#\(undated)"], "due order, undated last")
        XCTAssertTrue(rows[0].contains("[ ] Pay rent"), rows[0])
        XCTAssertTrue(rows[0].contains(mediumDate.string(from: try XCTUnwrap(TestDates.isoDay("2020-01-01"))) + " (overdue)"), rows[0])
        XCTAssertTrue(rows[1].contains(mediumDate.string(from: try day(0)) + " (today)"), rows[1])
        XCTAssertTrue(rows[1].hasSuffix("First line"), "first line of the notes only: \(rows[1])")
        XCTAssertTrue(rows[2].contains(mediumDate.string(from: try day(1)) + " (tomorrow)"), rows[2])
        XCTAssertTrue(rows[3].contains(mediumDate.string(from: try day(3))), rows[3])
        XCTAssertFalse(rows[3].contains("("), "no mark after tomorrow: \(rows[3])")
        XCTAssertTrue(rows[4].hasSuffix("[ ] Read a book"), rows[4])
        XCTAssertEqual(lines[6], "")
        XCTAssertEqual(lines[7], "Complete (1)")
        XCTAssertTrue(lines[8].contains("#\(done)  [x] Water plants"), lines[8])
        XCTAssertFalse(lines[8].contains("overdue"), "complete tasks get no marks: \(lines[8])")
    }

    func testFilters() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        try fixture.add("Open task")
        let done = try fixture.add("Done task")
        try fixture.ok("done", String(done))

        let incomplete = try fixture.ok("list", "--incomplete").lines
        XCTAssertEqual(incomplete.first, "Incomplete (1)")
        XCTAssertFalse(incomplete.contains { $0.contains("Complete (") || $0.contains("Done task") })
        let completed = try fixture.ok("--completed").lines
        XCTAssertEqual(completed.first, "Complete (1)")
        XCTAssertEqual(completed.count, 2)
        XCTAssertEqual(try fixture.list("--completed").sections.map(\.name), ["Complete"])

        let both = try fixture.run(["list", "--completed", "--incomplete"])
        XCTAssertEqual(both.status, 64, "exclusive flags are a usage error")
    }

    func testJSONShape() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let number = try fixture.add("Buy milk", "--due", "2026-11-25")
        let text = try fixture.ok("list", "--json").stdout
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(Array(json.keys), ["sections"])
        let sections = try XCTUnwrap(json["sections"] as? [[String: Any]])
        XCTAssertEqual(sections.map { $0["name"] as? String }, ["Incomplete", "Complete"])
        XCTAssertEqual(sections.map { $0["count"] as? Int }, [1, 0])
        let task = try XCTUnwrap((sections[0]["tasks"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set(task.keys), ["ref", "name", "notes", "due", "dueAt", "dueStatus", "isComplete", "createdAt", "completedAt",
                                        "priority", "project", "tags", "remindAt", "plannedFor", "backloggedAt"])
        XCTAssertEqual(task["ref"] as? Int, Int(number))
        XCTAssertEqual(task["due"] as? String, "2026-11-25")
        XCTAssertTrue(task["notes"] is NSNull, "missing values are null, never absent")
        XCTAssertTrue(task["dueAt"] is NSNull, "a due day has no time")
        XCTAssertTrue(task["project"] is NSNull)
        XCTAssertTrue(task["remindAt"] is NSNull)
        XCTAssertTrue(task["completedAt"] is NSNull)
        XCTAssertEqual(task["priority"] as? String, "normal")
        XCTAssertEqual(task["tags"] as? [String], [])
        XCTAssertEqual(task["isComplete"] as? Bool, false)
        XCTAssertNotNil(TestDates.isoInstant(try XCTUnwrap(task["createdAt"] as? String)))
    }

    func testShow() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let number = try fixture.add("Call mom", "--notes", "one\ntwo", "--due", "2030-01-02")
        let lines = try fixture.ok("show", "#\(number)").lines
        XCTAssertEqual(lines.first, "#\(number) [ ] Call mom")
        XCTAssertTrue(lines.contains("Due:     " + mediumDate.string(from: try XCTUnwrap(TestDates.isoDay("2030-01-02")))), "\(lines)")
        XCTAssertEqual(Array(lines.suffix(3)), ["Notes:", "  one", "  two"])
        let json = try fixture.ok("show", String(number), "--json").stdout
        let row = try JSONDecoder().decode(ListOutput.Row.self, from: Data(json.utf8))
        XCTAssertEqual(row.name, "Call mom")
        XCTAssertEqual(row.due, "2030-01-02")
    }
}

/// Dates in the forms `tasks` prints.
enum TestDates {
    /// The local start of `YYYY-MM-DD`.
    static func isoDay(_ text: String) -> Date? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return Calendar.current.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
    }

    /// `2026-11-25T09:30:00.000Z`.
    static func isoInstant(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
