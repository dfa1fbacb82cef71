import Foundation
import PersistKit
import TaskModel
import XCTest

/// `completedAt`: set when a task is completed, cleared when it is reopened.
final class CompletionTimeTests: XCTestCase {
    func testCompletingRecordsTheTimeAndReopeningClearsIt() throws {
        let fixture = try TaskStoreFixture()
        let task = try fixture.store.add(name: "Water the plants")
        XCTAssertNil(task.completedAt)
        let before = TaskDateCoding.normalized(Date())
        try fixture.store.setIsComplete(task, true)
        let completedAt = try XCTUnwrap(task.completedAt)
        XCTAssertGreaterThanOrEqual(completedAt, before)
        XCTAssertLessThanOrEqual(completedAt, Date().addingTimeInterval(1))
        try fixture.store.setIsComplete(task, true)
        XCTAssertEqual(task.completedAt, completedAt, "completing a complete task changes nothing")
        XCTAssertEqual(try XCTUnwrap(try fixture.reopen().tasks().first).completedAt, completedAt)
        try fixture.store.toggleIsComplete(task)
        XCTAssertNil(task.completedAt)
        XCTAssertNil(try XCTUnwrap(try fixture.reopen().tasks().first).completedAt)
    }
}
