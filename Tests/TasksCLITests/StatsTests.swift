import Foundation
import XCTest

/// `tasks stats`: completions per day over 14 days as a bar chart, open tasks by project and
/// by priority, overdue count; `--json`.
final class StatsTests: XCTestCase {
    func testStatsTextAndJSON() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        try fixture.add("Overdue", "--due", "2020-01-01", "--project", "Home", "--priority", "high")
        try fixture.add("Open", "--project", "Home")
        try fixture.add("Unfiled", "--priority", "low")
        for name in ["one", "two", "three"] {
            try fixture.ok("done", String(try fixture.add(name, "--project", "Work")))
        }

        let lines = try fixture.ok("stats").lines
        XCTAssertEqual(lines.first, "Completed in the last 14 days (3)")
        let days = Array(lines[1...14])
        XCTAssertTrue(days.dropLast().allSatisfy { $0.hasSuffix(" 0") && !$0.contains("█") }, days.joined(separator: "\n"))
        XCTAssertTrue(try XCTUnwrap(days.last).hasSuffix("███ 3"), "today's bar: \(days.last ?? "")")
        let rest = Array(lines[15...])
        XCTAssertEqual(rest, ["", "Planned tasks per day, last 14 days", "  nothing was planned", "",
                              "Completion by project, last 14 days", "  none planned", "", "Open by project (3)", "  +Home         2", "  (no project)  1", "", "Open by priority",
                              "  high    1", "  normal  1", "  low     1", "", "Overdue: 1"])
        XCTAssertFalse(lines.joined().contains("\u{1B}["), "no colour off a terminal")

        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try fixture.ok("stats", "--json").stdout.utf8)) as? [String: Any])
        XCTAssertEqual(Set(json.keys), ["days", "completedPerDay", "plannedPerDay", "completionByProject", "openByProject",
                                        "openByPriority", "overdue", "open", "done"])
        let perDay = try XCTUnwrap(json["completedPerDay"] as? [[String: Any]])
        XCTAssertEqual(perDay.count, 14)
        XCTAssertEqual(perDay.map { $0["count"] as? Int }, Array(repeating: 0, count: 13) + [3])
        let today = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        XCTAssertEqual(perDay.last?["day"] as? String,
                       String(format: "%04d-%02d-%02d", today.year ?? 0, today.month ?? 0, today.day ?? 0))
        let byProject = try XCTUnwrap(json["openByProject"] as? [[String: Any]])
        XCTAssertEqual(byProject.map { $0["project"] as? String }, ["Home", nil])
        XCTAssertTrue(byProject[1]["project"] is NSNull, "no project is null, never absent")
        XCTAssertEqual(json["openByPriority"] as? [String: Int], ["high": 1, "normal": 1, "low": 1])
        XCTAssertEqual(json["overdue"] as? Int, 1)
        XCTAssertEqual(json["open"] as? Int, 3)
        XCTAssertEqual(json["done"] as? Int, 3)
    }

    func testBarsAreScaledToFit() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        var references: [String] = []
        for index in 0..<45 { references.append(String(try fixture.add("t\(index)"))) }
        for reference in references { try fixture.ok("done", reference) }
        let today = try XCTUnwrap(try fixture.ok("stats").lines.dropFirst(14).first)
        XCTAssertTrue(today.hasSuffix(String(repeating: "█", count: 40) + " 45"), today)
    }
}
