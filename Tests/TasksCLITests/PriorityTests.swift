import Foundation
import XCTest

/// Priorities: `--priority` on add and edit, `list --priority`, `list --sort due|priority|name`.
final class PriorityTests: XCTestCase {
    func testPrioritiesFilterAndSort() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let low = try fixture.add("alpha", "--priority", "low", "--due", "2030-01-01")
        let high = try fixture.add("Beta", "--priority", "HIGH", "--due", "2030-01-03")
        let normal = try fixture.add("gamma", "--due", "2030-01-02")
        XCTAssertEqual(try fixture.list().allTasks.map(\.priority), ["low", "normal", "high"])
        XCTAssertEqual(try fixture.list("--priority", "high").allTasks.map(\.ref), [high])
        XCTAssertEqual(try fixture.list("--sort", "priority").allTasks.map(\.ref), [high, normal, low])
        XCTAssertEqual(try fixture.list("--sort", "name").allTasks.map(\.ref), [low, high, normal])
        XCTAssertEqual(try fixture.list("--sort", "due").allTasks.map(\.ref), [low, normal, high])
        let lines = try fixture.ok("list", "--sort", "priority").lines
        XCTAssertTrue(lines[1].contains("Beta") && lines[1].hasSuffix("  high"), lines[1])
        XCTAssertTrue(lines[2].contains("gamma") && lines[2].hasSuffix("  normal"), lines[2])
        XCTAssertTrue(lines[3].contains("alpha") && lines[3].hasSuffix("  low"), lines[3])

        try fixture.ok("edit", String(low), "--priority", "high")
        XCTAssertEqual(try fixture.list("--priority", "high").allTasks.map(\.ref), [low, high])
    }

    func testAListWithoutPrioritiesLooksAsBefore() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        try fixture.add("Read a book")
        XCTAssertEqual(try fixture.ok("list").lines, ["Incomplete (1)", "  #5  [ ] Read a book", "", "Complete (0)"])
    }

    func testBadValuesAreUsageErrors() throws {
        let fixture = try CLIFixture()
        try fixture.ok("list")
        try fixture.fails(["add", "x", "--priority", "urgent"], status: 64, message: "'urgent' is not a priority (try low, normal or high)")
        try fixture.fails(["edit", "1", "--priority", "2"], status: 64, message: "'2' is not a priority (try low, normal or high)")
        try fixture.fails(["list", "--priority", "urgent"], status: 64, message: "'urgent' is not a priority (try low, normal or high)")
        try fixture.fails(["list", "--sort", "size"], status: 64, message: "'size' is not an order (try due, priority or name)")
    }
}
