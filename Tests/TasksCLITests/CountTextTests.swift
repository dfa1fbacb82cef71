import Foundation
import XCTest

/// Issue 25, item 10: counts are written one way in every message, grouped by thousands.
final class CountTextTests: XCTestCase {
    func testCountsAreGroupedTheSameEverywhere() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let tasks = (0..<1_001).map { #"{"name": "Task \#($0)", "createdAt": "2026-11-01T08:00:00Z", "project": "Big", "tags": ["bulk"]}"# }
        let document = #"{"format": "tasks", "version": 2, "exportedAt": "2026-11-01T08:00:00Z", "tasks": ["#
            + tasks.joined(separator: ", ") + "]}"
        XCTAssertEqual(try fixture.ok("import", "-", input: Data(document.utf8)).stdout, "Imported 1,001 tasks\n")
        XCTAssertEqual(try fixture.ok("import", "-", input: Data(document.utf8)).stdout,
                       "Imported 0 tasks (skipped 1,001 already in the store)\n")
        XCTAssertEqual(try fixture.ok("list").lines.first, "Incomplete (1,001)")
        XCTAssertEqual(try fixture.ok("projects").lines, ["+Big  1,001 open  0 done"])
        XCTAssertEqual(try fixture.ok("stats").lines.first { $0.hasPrefix("Open by project") }, "Open by project (1,001)")
        let file = fixture.directory.appendingPathComponent("all.json").path
        XCTAssertEqual(try fixture.ok("export", file).stdout, "Exported 1,001 tasks to \(file)\n")
        try fixture.fails(["project", "rm", "Big"], status: 1, message: "project \"Big\" has 1,001 tasks: give --with-tasks "
                          + "to remove them too, or --keep-tasks to keep them without a project")
        XCTAssertEqual(try fixture.ok("tag", "rm", "bulk").stdout, "Removed tag \"bulk\" from 1,001 tasks\n")
        XCTAssertEqual(try fixture.ok("project", "rm", "Big", "--keep-tasks").stdout,
                       "Removed project \"Big\"; its 1,001 tasks kept without a project\n")
    }
}
