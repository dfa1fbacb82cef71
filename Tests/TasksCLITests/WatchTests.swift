import Foundation
import XCTest

/// `tasks watch`: the list, then one line per change another process makes, until SIGINT.
final class WatchTests: XCTestCase {
    func testWatchSeesAnotherProcessesChangesAndStopsOnSIGINT() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let early = try fixture.add("Early", "--due", "2030-01-01")
        let late = try fixture.add("Late", "--due", "2030-12-01")

        let watch = try RunningTasks(fixture, ["watch"])
        XCTAssertTrue(watch.wait(timeout: 10) { $0.contains("Complete (0)") }, "the list first: \(watch.text)")
        XCTAssertTrue(watch.text.hasPrefix("Incomplete (2)\n"), watch.text)

        let added = try fixture.add("Phone the bank", "--due", "2030-06-01")
        XCTAssertTrue(watch.wait(timeout: 2) { $0.contains("+ #\(added) \"Phone the bank\" into Incomplete at 2\n") },
                      "an insert line within 2 seconds: \(watch.text)")

        try fixture.ok("done", String(early))
        XCTAssertTrue(watch.wait(timeout: 2) { $0.contains("~ #\(early) moved to Complete 1\n") }, watch.text)

        try fixture.ok("edit", String(late), "--name", "Later")
        XCTAssertTrue(watch.wait(timeout: 2) { $0.contains("~ #\(late) \"Later\" changed\n") }, watch.text)

        try fixture.ok("rm", String(added))
        XCTAssertTrue(watch.wait(timeout: 2) { $0.contains("- #\(added)\n") }, watch.text)

        XCTAssertEqual(watch.interrupt(), 0, "watch stops on SIGINT, exiting 0")
    }

    /// Another process's one change is one line, merged from the store's history: the list
    /// is not refetched (the merge trace on standard error says so).
    func testAnotherProcessesOneChangeIsOneLineWithoutARefetch() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        var references: [Int64] = []
        for day in 1...30 { references.append(try fixture.add("Task \(day)", "--due", String(format: "2030-01-%02d", day))) }

        let watch = try RunningTasks(fixture, ["watch"], environment: ["TASKS_TRACE_MERGES": "1"])
        XCTAssertTrue(watch.wait(timeout: 10) { $0.contains("Complete (0)") }, watch.text)
        let listed = watch.text

        try fixture.ok("edit", String(references[9]), "--name", "Renamed")
        let renamed = "~ #\(references[9]) \"Renamed\" changed\n"
        XCTAssertTrue(watch.wait(timeout: 5) { $0.contains(renamed) }, watch.text)
        try fixture.ok("done", String(references[20]))
        let completed = "~ #\(references[20]) moved to Complete 1\n"
        XCTAssertTrue(watch.wait(timeout: 5) { $0.contains(completed) }, watch.text)
        XCTAssertTrue(watch.waitForErrors(timeout: 5) { $0.components(separatedBy: "\n").filter { $0.hasPrefix("watch: merged") }.count == 2 },
                      watch.errorText)

        // Each change is exactly one line, in order, and neither refetched the list.
        XCTAssertEqual(String(watch.text.dropFirst(listed.count)), renamed + completed)
        XCTAssertEqual(watch.errorText, "watch: merged 0 inserted, 1 updated, 0 deleted\n"
                       + "watch: merged 0 inserted, 1 updated, 0 deleted\n")

        XCTAssertEqual(watch.interrupt(), 0, "watch stops on SIGINT")
    }

    func testWatchShowsControlCharactersEscaped() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let watch = try RunningTasks(fixture, ["watch"])
        XCTAssertTrue(watch.wait(timeout: 10) { $0.contains("Complete (0)") }, watch.text)

        let added = try fixture.add("Clear \u{1B}[2J screen")
        let line = "+ #\(added) \"Clear \\u{1B}[2J screen\" into Incomplete at 1\n"
        XCTAssertTrue(watch.wait(timeout: 5) { $0.contains(line) }, watch.text)
        XCTAssertFalse(watch.text.contains("\u{1B}"), "no raw escape: \(watch.text)")

        XCTAssertEqual(watch.interrupt(), 0, "watch stops on SIGINT")
    }

    /// Issue 25, item 5: renaming a project or a tag changes no task row, but changes the rows
    /// the watch shows: one line per listed task of that project or tag, as for any edit.
    func testRenamingAProjectOrATagIsALinePerTaskShowingIt() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let gate = try fixture.add("Fix the gate", "--due", "2030-01-01", "--project", "Q1")
        let rent = try fixture.add("Pay rent", "--due", "2030-01-02", "--project", "Q1", "--tag", "bills")
        let phone = try fixture.add("Phone bill", "--due", "2030-01-03", "--tag", "bills")
        try fixture.add("Unrelated", "--due", "2030-01-04")
        let watch = try RunningTasks(fixture, ["watch"])
        XCTAssertTrue(watch.wait(timeout: 10) { $0.contains("Complete (0)") }, watch.text)
        let listed = watch.text

        try fixture.ok("project", "rename", "Q1", "Q2")
        let projectLines = "~ #\(gate) \"Fix the gate\" changed\n~ #\(rent) \"Pay rent\" changed\n"
        XCTAssertTrue(watch.wait(timeout: 5) { $0.hasSuffix(projectLines) }, watch.text)
        try fixture.ok("tag", "rename", "bills", "money")
        let tagLines = "~ #\(rent) \"Pay rent\" changed\n~ #\(phone) \"Phone bill\" changed\n"
        XCTAssertTrue(watch.wait(timeout: 5) { $0.hasSuffix(tagLines) }, watch.text)
        // A project made after the watch started is renamed too.
        let later = try fixture.add("Later", "--due", "2030-01-05", "--project", "New")
        // Merged apart: in one merge, the insert's line already shows the new name.
        XCTAssertTrue(watch.wait(timeout: 5) { $0.hasSuffix("+ #\(later) \"Later\" into Incomplete at 5\n") }, watch.text)
        try fixture.ok("project", "rename", "New", "Newer")
        let laterLines = "+ #\(later) \"Later\" into Incomplete at 5\n~ #\(later) \"Later\" changed\n"
        XCTAssertTrue(watch.wait(timeout: 5) { $0.hasSuffix(laterLines) }, watch.text)
        XCTAssertEqual(watch.interrupt(), 0)
        XCTAssertEqual(String(watch.text.dropFirst(listed.count)), projectLines + tagLines + laterLines, "one line per task, no more")
    }

    /// Issue 31: `watch` shows plan changes and the review like any other change: one line
    /// per task whose place in the plan changed, and a line for the review.
    func testWatchShowsPlanChangesAndTheReview() throws {
        let fixture = try CLIFixture()
        let morning: [String: String?] = ["TASKS_NOW": "2026-11-21T09:00:00Z", "TZ": "UTC", "LC_ALL": "C"]
        XCTAssertEqual(try fixture.run(["rm", "1", "2", "3", "4"], environment: morning).status, 0)
        for name in ["Fix the gate", "Pay rent", "Call mom"] { XCTAssertEqual(try fixture.run(["add", name], environment: morning).status, 0) }
        let watch = try RunningTasks(fixture, ["watch"], environment: morning)
        XCTAssertTrue(watch.wait(timeout: 10) { $0.contains("Complete (0)") }, watch.text)
        let listed = watch.text
        var expected = ""
        func step(_ arguments: [String], _ lines: String..., at moment: String = "2026-11-21T09:00:00Z") throws {
            let result = try fixture.run(arguments, environment: morning.merging(["TASKS_NOW": moment]) { $1 })
            XCTAssertEqual(result.status, 0, result.stderr)
            expected += lines.map { $0 + "\n" }.joined()
            XCTAssertTrue(watch.wait(timeout: 5) { $0.hasSuffix(expected) }, "after \(arguments): \(watch.text)")
        }
        try step(["plan", "5", "6", "7"], "~ #5 \"Fix the gate\" planned for today", "~ #6 \"Pay rent\" planned for today",
                 "~ #7 \"Call mom\" planned for today")
        try step(["unplan", "7"], "~ #7 \"Call mom\" moved to the backlog")
        try step(["plan", "7", "--day", "tomorrow"], "~ #7 \"Call mom\" planned for tomorrow")
        try step(["done", "5"], "~ #5 moved to Complete 1")
        try step(["review"], "~ #6 \"Pay rent\" moved to the backlog",
                 "= Reviewed today, Sat, 21 Nov 2026: 1 of 2 planned tasks done, 1 to the backlog", at: "2026-11-21T18:00:00Z")
        try step(["review", "--day", "2026-11-20"], "= Reviewed yesterday, Fri, 20 Nov 2026: nothing was planned")
        XCTAssertEqual(watch.interrupt(), 0)
        XCTAssertEqual(String(watch.text.dropFirst(listed.count)), expected, "one line per change, nothing else")
    }
}
