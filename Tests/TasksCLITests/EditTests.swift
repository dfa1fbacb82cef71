import Foundation
import XCTest

/// `tasks edit REF [--name] [--notes] [--due DATE | --no-due]`.
final class EditTests: XCTestCase {
    func testEditChangesOnlyWhatIsGiven() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let number = try fixture.add("Call mom", "--notes", "About the trip", "--due", "2030-05-01")

        XCTAssertEqual(try fixture.ok("edit", String(number), "--name", "Call dad").stdout, "Updated #\(number) \"Call dad\"\n")
        var task = try XCTUnwrap(try fixture.list().task(number))
        XCTAssertEqual(task.name, "Call dad")
        XCTAssertEqual(task.notes, "About the trip")
        XCTAssertEqual(task.due, "2030-05-01")

        try fixture.ok("edit", "#\(number)", "--due", "2030-06-02", "--notes", "")
        task = try XCTUnwrap(try fixture.list().task(number))
        XCTAssertEqual(task.due, "2030-06-02")
        XCTAssertNil(task.notes, "empty notes remove them")
        XCTAssertEqual(task.name, "Call dad")

        try fixture.ok("edit", String(number), "--no-due")
        XCTAssertNil(try fixture.list().task(number)?.due)
    }

    func testEditUsageErrorsChangeNothing() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let number = try fixture.add("Call mom")
        try fixture.fails(["edit", String(number)], status: 64,
                          message: "nothing to change: give --name, --notes, --due, --no-due, --project, --no-project, "
                              + "--tag, --untag, --priority, --remind or --no-remind")
        try fixture.fails(["edit", String(number), "--due", "today", "--no-due"], status: 64,
                          message: "--due and --no-due cannot be used together")
        try fixture.fails(["edit", String(number), "--name", "  "], status: 1, message: "a task's name cannot be empty")
        XCTAssertEqual(try fixture.list().task(number)?.name, "Call mom")
    }
}
