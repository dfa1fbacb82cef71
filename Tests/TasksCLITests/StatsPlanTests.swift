import Foundation
import XCTest

/// Issue 31: `tasks stats --days N` draws the planned tasks done and not done per day as a
/// line chart (Unicode; ASCII in the C locale or with --ascii) and gives completion per
/// project; `--json` gives the same numbers.
final class StatsPlanTests: XCTestCase {
    /// Three days: the 19th (1 of 2 done, reviewed), the 20th (3 of 3, reviewed), the 21st
    /// (0 of 2 so far).
    private func makeThreeDays() throws -> CLIFixture {
        let fixture = try CLIFixture()
        func run(_ moment: String, _ arguments: String...) throws {
            let result = try fixture.run(arguments, environment: ["TASKS_NOW": moment, "TZ": "UTC"])
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        }
        try run("2026-11-19T09:00:00Z", "rm", "1", "2", "3", "4")
        for arguments in [["a", "--project", "Home"], ["b"]] { try fixture.run(["add"] + arguments, environment: ["TASKS_NOW": "2026-11-19T09:00:00Z"]) }
        try run("2026-11-19T09:00:00Z", "plan", "5", "6")
        try run("2026-11-19T12:00:00Z", "done", "5")
        try run("2026-11-19T18:00:00Z", "review")
        for arguments in [["c", "--project", "Home"], ["d", "--project", "Work"]] {
            try fixture.run(["add"] + arguments, environment: ["TASKS_NOW": "2026-11-20T09:00:00Z"])
        }
        try run("2026-11-20T09:00:00Z", "plan", "6", "7", "8")
        for reference in ["6", "7", "8"] { try run("2026-11-20T12:00:00Z", "done", reference) }
        try run("2026-11-20T18:00:00Z", "review")
        for name in ["e", "f"] { try fixture.run(["add", name], environment: ["TASKS_NOW": "2026-11-21T09:00:00Z"]) }
        try run("2026-11-21T09:00:00Z", "plan", "9", "10")
        return fixture
    }

    /// The chart and the completion table of `stats --days 3` on the 21st.
    private func planLines(_ fixture: CLIFixture, _ extra: [String] = [], locale: String) throws -> [String] {
        let result = try fixture.run(["stats", "--days", "3"] + extra,
                                     environment: ["TASKS_NOW": "2026-11-21T20:00:00Z", "TZ": "UTC", "LC_ALL": locale])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.lines
        let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("Planned tasks per day") })
        let end = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("Open by project") })
        return Array(lines[start..<end])
    }

    func testTheLineChartAndCompletionPerProject() throws {
        let fixture = try makeThreeDays()
        let completion = ["", "Completion by project, last 3 days", "  +Home         2 of 2  100%", "  +Work         1 of 1  100%",
                          "  (no project)  1 of 4   25%", ""]
        XCTAssertEqual(try planLines(fixture, locale: "C.UTF-8"), [
            "Planned tasks per day, last 3 days: ━ done  ─ not done",
            " 3 ┤ ┏━┓",
            " 2 ┤ ┃ ┃──",
            " 1 ┤━┛ ┃",
            " 0 ┤ ╰─┗━━",
            "    19 Nov 21 Nov",
        ] + completion)
        let ascii = [
            "Planned tasks per day, last 3 days: = done  - not done",
            " 3 | +=+",
            " 2 | | |--",
            " 1 |=+ |",
            " 0 | .-+==",
            "    19 Nov 21 Nov",
        ] + completion
        XCTAssertEqual(try planLines(fixture, locale: "C"), ascii, "ASCII in the C locale")
        XCTAssertEqual(try planLines(fixture, ["--ascii"], locale: "C.UTF-8"), ascii, "ASCII when asked")
    }

    func testTheJSONHasTheSameNumbers() throws {
        let fixture = try makeThreeDays()
        let result = try fixture.run(["stats", "--days", "3", "--json"], environment: ["TASKS_NOW": "2026-11-21T20:00:00Z", "TZ": "UTC"])
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["days"] as? Int, 3)
        let days = try XCTUnwrap(json["plannedPerDay"] as? [[String: Any]])
        XCTAssertEqual(days.map { $0["day"] as? String }, ["2026-11-19", "2026-11-20", "2026-11-21"])
        XCTAssertEqual(days.map { $0["planned"] as? Int }, [2, 3, 2])
        XCTAssertEqual(days.map { $0["completed"] as? Int }, [1, 3, 0])
        XCTAssertEqual(days.map { $0["notCompleted"] as? Int }, [1, 0, 2])
        XCTAssertEqual(days.map { $0["reviewed"] as? Bool }, [true, true, false])
        let projects = try XCTUnwrap(json["completionByProject"] as? [[String: Any]])
        XCTAssertEqual(projects.map { $0["project"] as? String }, ["Home", "Work", nil])
        XCTAssertTrue(projects[2]["project"] is NSNull)
        XCTAssertEqual(projects.map { $0["planned"] as? Int }, [2, 1, 4])
        XCTAssertEqual(projects.map { $0["completed"] as? Int }, [2, 1, 1])
        XCTAssertEqual((json["completedPerDay"] as? [[String: Any]])?.count, 3)
    }

    func testDaysOutsideTheRangeAreBadUsage() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        for bad in ["0", "367", "a month"] {
            try fixture.fails(["stats", "--days", bad], status: 64,
                              message: "'\(bad)' is not a number of days (try a number from 1 to 366)")
        }
    }
}
