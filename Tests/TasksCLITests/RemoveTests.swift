import Foundation
import XCTest

/// `tasks rm REF...`: all or none.
final class RemoveTests: XCTestCase {
    func testRemoveSeveral() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let one = try fixture.add("One")
        let two = try fixture.add("Two")
        let three = try fixture.add("Three")
        let result = try fixture.ok("rm", String(one), "#\(three)")
        XCTAssertEqual(result.lines, ["Removed #\(one) \"One\"", "Removed #\(three) \"Three\""])
        XCTAssertEqual(try fixture.list().allTasks.map(\.ref), [two])
    }

    func testOneUnknownReferenceRemovesNothing() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let one = try fixture.add("One")
        try fixture.fails(["rm", String(one), "999"], status: 1, message: "no task #999")
        XCTAssertEqual(try fixture.list().allTasks.map(\.ref), [one])
    }

    func testRemoveNeedsAReference() throws {
        let fixture = try CLIFixture()
        let result = try fixture.run(["rm"])
        XCTAssertEqual(result.status, 64)
    }

    func testEmptiedStoreStaysEmpty() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        XCTAssertEqual(try fixture.list().allTasks, [])
        XCTAssertTrue(try fixture.ok("list").stdout.contains("Nothing to do."))
    }
}
