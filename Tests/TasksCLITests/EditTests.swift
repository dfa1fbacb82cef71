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
        try fixture.fails(["edit", String(number), "--name", "  "], status: 64, message: "a task's name cannot be empty")
        XCTAssertEqual(try fixture.list().task(number)?.name, "Call mom")
    }

    /// Issue 25, item 8: an edit that changes nothing says so (and writes nothing).
    func testAnEditThatChangesNothingSaysSo() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let number = try fixture.add("Buy milk", "--tag", "errands", "--project", "Home", "--due", "2030-01-01")
        let unchanged = "Nothing changed: #\(number) \"Buy milk\" already was as asked\n"
        for arguments in [["--untag", "nosuchtag"], ["--tag", "errands"], ["--tag", "#ERRANDS"], ["--name", "Buy milk"],
                          ["--project", "home"], ["--due", "2030-01-01"], ["--no-remind"], ["--priority", "normal"]] {
            let before = fixture.storeBytes()
            XCTAssertEqual(try fixture.ok(["edit", String(number)] + arguments).stdout, unchanged, "\(arguments)")
            XCTAssertEqual(fixture.storeBytes(), before, "\(arguments) wrote to the store")
        }
        XCTAssertEqual(try fixture.ok("edit", String(number), "--tag", "shop").stdout, "Updated #\(number) \"Buy milk\"\n")
    }
}
