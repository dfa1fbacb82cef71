import Foundation
import XCTest

/// `tasks done` and `tasks undo`.
final class CompletionTests: XCTestCase {
    func testDoneAndUndo() throws {
        let fixture = try CLIFixture()
        try fixture.makeEmptyStore()
        let number = try fixture.add("Water plants")
        XCTAssertEqual(try fixture.ok("done", String(number)).stdout, "Completed #\(number) \"Water plants\"\n")
        XCTAssertEqual(try fixture.list().task(number)?.isComplete, true)
        XCTAssertEqual(try fixture.list("--completed").allTasks.map(\.ref), [number])

        XCTAssertEqual(try fixture.ok("done", "#\(number)").stdout, "#\(number) \"Water plants\" is already complete\n")

        XCTAssertEqual(try fixture.ok("undo", "#\(number)").stdout, "Reopened #\(number) \"Water plants\"\n")
        XCTAssertEqual(try fixture.list().task(number)?.isComplete, false)
        XCTAssertEqual(try fixture.ok("undo", String(number)).stdout, "#\(number) \"Water plants\" is already incomplete\n")
    }
}
