import Foundation
import XCTest

/// Tags: `--tag` (repeatable) and `--untag` on add and edit, `list --tag`, `tasks tags`,
/// `tasks tag rename`, `tasks tag rm`.
final class TagTests: XCTestCase {
    func testTagsAreMadeOnFirstUseListedAndFiltered() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        XCTAssertEqual(try fixture.ok("tags").stdout, "No tags. Tag a task with: tasks edit 12 --tag errands\n")
        let milk = try fixture.add("Buy milk", "--tag", "errands", "--tag", "#shop")
        let bank = try fixture.add("Call the bank", "--tag", "Errands", "--tag", "phone")
        try fixture.ok("done", String(bank))
        XCTAssertEqual(try fixture.list().task(milk)?.tags, ["errands", "shop"])
        XCTAssertEqual(try fixture.list().task(bank)?.tags, ["errands", "phone"])
        XCTAssertEqual(try fixture.ok("tags").lines, ["#errands  1 open  1 done", "#phone    0 open  1 done", "#shop     1 open  0 done"])
        XCTAssertEqual(try fixture.list("--tag", "ERRANDS").allTasks.map(\.ref), [milk, bank])
        XCTAssertEqual(try fixture.list("--tag", "#shop").allTasks.map(\.ref), [milk])
        try fixture.fails(["list", "--tag", "nope"], status: 1, message: "no tag named \"nope\"")
        let row = try XCTUnwrap(try fixture.ok("list").lines.first { $0.contains("Buy milk") })
        XCTAssertTrue(row.hasSuffix("#errands #shop"), row)
    }

    func testUntagAndConflicts() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let task = try fixture.add("Buy milk", "--tag", "errands", "--tag", "shop")
        try fixture.ok("edit", String(task), "--untag", "SHOP", "--tag", "dairy", "--untag", "never-there")
        XCTAssertEqual(try fixture.list().task(task)?.tags, ["dairy", "errands"])
        try fixture.fails(["edit", String(task), "--tag", "x", "--untag", "#X"], status: 64, message: "--tag and --untag both name 'x'")
        try fixture.fails(["add", "y", "--tag", "two words"], status: 64, message: "a tag's name cannot contain spaces")
        try fixture.fails(["add", "y", "--tag", "#"], status: 64, message: "a tag's name cannot be empty")
    }

    func testRenameAndRemove() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let milk = try fixture.add("Buy milk", "--tag", "errands", "--tag", "shop")
        let bread = try fixture.add("Buy bread", "--tag", "errands")
        XCTAssertEqual(try fixture.ok("tag", "rename", "#errands", "shopping-trip").stdout, "Renamed tag \"errands\" to \"shopping-trip\"\n")
        try fixture.fails(["tag", "rename", "shopping-trip", "Shop"], status: 1, message: "a tag named \"shop\" already exists")
        try fixture.fails(["tag", "rename", "nope", "x"], status: 1, message: "no tag named \"nope\"")
        XCTAssertEqual(try fixture.list().task(bread)?.tags, ["shopping-trip"])
        XCTAssertEqual(try fixture.ok("tag", "rm", "shopping-trip").stdout, "Removed tag \"shopping-trip\" from 2 tasks\n")
        XCTAssertEqual(try fixture.list().task(milk)?.tags, ["shop"])
        XCTAssertEqual(try fixture.list().task(bread)?.tags, [], "the task stays, without the tag")
        try fixture.fails(["tag", "rm", "shopping-trip"], status: 1, message: "no tag named \"shopping-trip\"")
    }
}
