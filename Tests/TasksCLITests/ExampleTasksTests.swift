import Foundation
import XCTest

/// The example tasks a new store gets.
final class ExampleTasksTests: XCTestCase {
    /// Issue 25, item 9: the done example is completed when the examples are made, never
    /// before it was created (in five new stores, each made by a process of its own: the
    /// first tasks a process makes are the slowest, when a moment between two clock readings
    /// would show).
    func testTheDoneExampleIsNotCompletedBeforeItWasCreated() throws {
        let fixture = try CLIFixture()
        for index in 0..<5 {
            let result = try fixture.run(["list", "--json", "--store", "store-\(index).sqlite"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let tasks = try JSONDecoder().decode(ListOutput.self, from: Data(result.stdout.utf8)).allTasks
            XCTAssertEqual(tasks.count, 4)
            let done = try XCTUnwrap(tasks.first { $0.isComplete })
            XCTAssertGreaterThanOrEqual(try XCTUnwrap(done.completedAt), done.createdAt, "completed before it was created")
            XCTAssertEqual(Set(tasks.map(\.createdAt)).count, 1, "the examples are made at one moment")
        }
    }
}
