import Foundation
import XCTest

/// Issue 31: a full day with `tasks` as separate processes, as a user runs it: plan within
/// the limits, do some, review in the evening (once), the backlog, and the next day.
final class DayCycleTests: XCTestCase {
    /// The session's clock and place: runs of `tasks` at `moment` (UTC, C locale).
    private func at(_ moment: String) -> [String: String?] {
        ["TASKS_NOW": moment, "TZ": "UTC", "LC_ALL": "C"]
    }

    /// Runs `tasks` at `moment`, expecting success; its standard output's lines.
    @discardableResult
    private func run(_ fixture: CLIFixture, _ moment: String, _ arguments: String...,
                     file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let result = try fixture.run(arguments, environment: at(moment), file: file, line: line)
        XCTAssertEqual(result.status, 0, "tasks \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        return result.lines
    }

    func testAFullDayPlanReviewBacklogAndTheNextDay() throws {
        let fixture = try CLIFixture()
        let morning = "2026-11-21T09:00:00Z", evening = "2026-11-21T18:00:00Z", nextMorning = "2026-11-22T08:30:00Z"
        try run(fixture, morning, "rm", "1", "2", "3", "4")
        let adds = [["Fix the gate", "--priority", "high", "--project", "Home"], ["Write the report", "--priority", "high"],
                    ["Pay rent", "--project", "Home"], ["Call mom"], ["Water the garden", "--due", "today"]]
        for arguments in adds {
            XCTAssertEqual(try fixture.run(["add"] + arguments, environment: at(morning)).status, 0)
        }
        // #5 Fix the gate, #6 Write the report, #7 Pay rent, #8 Call mom, #9 Water the garden.
        XCTAssertEqual(try run(fixture, morning, "plan", "5", "7", "8"),
                       ["Planned #5 \"Fix the gate\" for today", "Planned #7 \"Pay rent\" for today",
                        "Planned #8 \"Call mom\" for today"])
        let before = fixture.storeBytes()
        let refused = try fixture.run(["plan", "6"], environment: at(morning))
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, "tasks: today already holds 1 of 1 high-priority tasks: finish or unplan #5 first\n")
        XCTAssertEqual(fixture.storeBytes(), before, "a refused plan changes nothing")
        XCTAssertEqual(try run(fixture, morning, "today"), [
            "Plan for today, Sat, 21 Nov 2026",
            "",
            "High 1/1",
            "  #5  [ ] Fix the gate                           +Home",
            "",
            "Normal 2/3",
            "  #7  [ ] Pay rent                               +Home",
            "  #8  [ ] Call mom",
            "",
            "Low 0/5",
            "",
            "Due today, not planned (1)",
            "  #9  [ ] Water the garden  21 Nov 2026 (today)",
        ])

        try run(fixture, "2026-11-21T11:00:00Z", "done", "5")
        XCTAssertEqual(try run(fixture, "2026-11-21T11:05:00Z", "plan", "6"), ["Planned #6 \"Write the report\" for today"],
                       "finishing #5 made room")
        try run(fixture, "2026-11-21T15:00:00Z", "done", "7")

        XCTAssertEqual(try run(fixture, evening, "review"), [
            "Review of today, Sat, 21 Nov 2026",
            "",
            "Done (2)",
            "  #5  [x] Fix the gate      high    +Home",
            "  #7  [x] Pay rent          normal  +Home",
            "",
            "Not done, to the backlog (2)",
            "  #6  [ ] Write the report  high",
            "  #8  [ ] Call mom          normal",
            "",
            "2 of 4 planned tasks done (50%)",
        ])
        let reviewed = fixture.storeBytes()
        XCTAssertEqual(try run(fixture, "2026-11-21T19:00:00Z", "review", "--carry"),
                       ["Today, Sat, 21 Nov 2026 was reviewed already, at 6:00 PM: 2 of 4 planned tasks done (50%). Nothing changed."])
        XCTAssertEqual(fixture.storeBytes(), reviewed, "a second review writes nothing")
        XCTAssertEqual(try run(fixture, evening, "backlog"), [
            "Backlog (2)",
            "  #6  [ ] Write the report  high    since today",
            "  #8  [ ] Call mom          normal  since today",
        ])

        // The next day: the backlog is planned from; yesterday is reviewed, so nothing nags.
        XCTAssertEqual(try run(fixture, nextMorning, "plan", "6", "8", "9"), [
            "Planned #6 \"Write the report\" for today (from the backlog)",
            "Planned #8 \"Call mom\" for today (from the backlog)",
            "Planned #9 \"Water the garden\" for today",
        ])
        XCTAssertEqual(try run(fixture, nextMorning, "backlog"),
                       ["The backlog is empty. A review moves there what a day's plan did not get done; so does tasks unplan."])
        let today = try run(fixture, nextMorning, "today")
        XCTAssertEqual(today.first, "Plan for today, Sun, 22 Nov 2026")
        XCTAssertEqual(today.filter { $0.hasPrefix("High") || $0.hasPrefix("Normal") || $0.hasPrefix("Low") },
                       ["High 1/1", "Normal 2/3", "Low 0/5"])
        XCTAssertFalse(today.contains { $0.hasPrefix("Not reviewed") }, today.joined(separator: "\n"))
        XCTAssertEqual(try run(fixture, nextMorning, "unplan", "8"), ["Unplanned #8 \"Call mom\" (from today): it waits in the backlog"])

        // Not reviewing a day is noticed the day after.
        XCTAssertEqual(try run(fixture, "2026-11-23T08:00:00Z", "today").last,
                       "Not reviewed yet: yesterday (tasks review --day 2026-11-22)")
        XCTAssertEqual(try run(fixture, "2026-11-23T08:00:00Z", "review", "--day", "2026-11-22", "--carry"), [
            "Review of yesterday, Sun, 22 Nov 2026",
            "",
            "Done (0)",
            "",
            "Not done, carried to today (2)",
            "  #6  [ ] Write the report                         high",
            "  #9  [ ] Water the garden  21 Nov 2026 (overdue)  normal",
            "",
            "0 of 2 planned tasks done (0%)",
        ])
        let stats = try JSONSerialization.jsonObject(with: Data(try run(fixture, "2026-11-23T08:00:00Z", "stats", "--days", "3", "--json")
            .joined(separator: "\n").utf8)) as? [String: Any]
        let days = try XCTUnwrap(stats?["plannedPerDay"] as? [[String: Any]])
        XCTAssertEqual(days.map { $0["day"] as? String }, ["2026-11-21", "2026-11-22", "2026-11-23"])
        XCTAssertEqual(days.map { $0["planned"] as? Int }, [4, 2, 2])
        XCTAssertEqual(days.map { $0["completed"] as? Int }, [2, 0, 0])
        XCTAssertEqual(days.map { $0["reviewed"] as? Bool }, [true, true, false])
    }

    func testDayErrorsAreOneLine() throws {
        let fixture = try CLIFixture()
        let morning = at("2026-11-21T09:00:00Z")
        XCTAssertEqual(try fixture.run(["list"], environment: morning).status, 0)
        try fixture.fails(["plan", "4"], status: 1, message: "#4 \"Water the plants\" is done: there is nothing left to plan",
                          environment: morning)
        try fixture.fails(["plan", "1", "--day", "2026-11-20"], status: 1, message: "cannot plan for yesterday: it has passed",
                          environment: morning)
        try fixture.fails(["plan", "1", "--day", "someday"], status: 64,
                          message: "'someday' is not a day (try 2026-11-25, today, tomorrow, +3d, friday)", environment: morning)
        try fixture.fails(["plan", "-1"], status: 64, message: "'-1' is not a task reference (try 12 or '#12')", environment: morning)
        try fixture.fails(["plan", "42"], status: 1, message: "no task #42", environment: morning)
        try fixture.fails(["review", "--day", "tomorrow"], status: 1,
                          message: "tomorrow has not come yet: a day is reviewed once it has begun", environment: morning)
        XCTAssertEqual(try fixture.run(["review"], environment: morning).lines, ["Reviewed today, Sat, 21 Nov 2026: nothing was planned."])
        try fixture.fails(["plan", "1"], status: 1, message: "today was reviewed already: plan for a day still to come (--day tomorrow)",
                          environment: morning)
        XCTAssertEqual(try fixture.run(["limits", "--normal", "2"], environment: morning).lines,
                       ["Set the daily limits: high 1, normal 2, low 5"])
        try fixture.fails(["plan", "1", "2", "3", "--day", "tomorrow"], status: 1, message: "tomorrow holds 0 of 2 normal-priority "
                          + "tasks: room for 2 more, not 3 (#1, #2 and #3)", environment: morning)
    }

    /// `today --json` and `backlog --json`: one stable shape, the tasks as in `list --json`.
    func testTodayAndBacklogJSON() throws {
        let fixture = try CLIFixture()
        let morning = at("2026-11-21T09:00:00Z")
        XCTAssertEqual(try fixture.run(["plan", "1", "2"], environment: morning).status, 0)
        XCTAssertEqual(try fixture.run(["unplan", "2"], environment: morning).status, 0)
        let today = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try fixture.run(["today", "--json"], environment: morning)
            .stdout.utf8)) as? [String: Any])
        XCTAssertEqual(Set(today.keys), ["day", "reviewedAt", "groups", "dueNotPlanned", "unreviewedDays"])
        XCTAssertEqual(today["day"] as? String, "2026-11-21")
        XCTAssertTrue(today["reviewedAt"] is NSNull)
        let groups = try XCTUnwrap(today["groups"] as? [[String: Any]])
        XCTAssertEqual(groups.map { $0["priority"] as? String }, ["high", "normal", "low"])
        XCTAssertEqual(groups.map { $0["limit"] as? Int }, [1, 3, 5])
        XCTAssertEqual(groups.map { $0["open"] as? Int }, [0, 1, 0])
        let planned = try XCTUnwrap((groups[1]["tasks"] as? [[String: Any]])?.first)
        XCTAssertEqual(planned["ref"] as? Int, 1)
        XCTAssertEqual(planned["plannedFor"] as? String, "2026-11-21")
        XCTAssertTrue(planned["backloggedAt"] is NSNull)
        let backlog = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try fixture.run(["backlog", "--json"], environment: morning)
            .stdout.utf8)) as? [String: [[String: Any]]])
        XCTAssertEqual(backlog["backlog"]?.map { $0["ref"] as? Int }, [2])
        XCTAssertEqual(backlog["backlog"]?.first?["backloggedAt"] as? String, "2026-11-21T09:00:00.000Z")
        XCTAssertTrue(backlog["backlog"]?.first?["plannedFor"] is NSNull)
    }
}
