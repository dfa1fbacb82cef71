import Foundation
import PersistKit
import TaskModel
import XCTest

/// A new store gets example tasks, once: an emptied store stays empty.
final class SampleDataTests: XCTestCase {
    func testNewStoreIsStagedWithExamples() throws {
        let fixture = try TaskStoreFixture(stagesSampleData: true)
        XCTAssertTrue(fixture.store.didStageSampleData)
        let tasks = try fixture.store.tasks()
        XCTAssertGreaterThanOrEqual(tasks.count, 3)
        XCTAssertTrue(tasks.contains { $0.isComplete }, "at least one complete")
        XCTAssertTrue(tasks.contains { $0.due != nil }, "at least one with a due date")
        XCTAssertTrue(tasks.contains { $0.notes != nil }, "at least one with notes")
        XCTAssertTrue(tasks.contains { !$0.isComplete }, "at least one to do")
    }

    func testExamplesAreStagedOnlyOnce() throws {
        let fixture = try TaskStoreFixture(stagesSampleData: true)
        let count = try fixture.store.count()
        let again = try fixture.reopen()
        XCTAssertFalse(again.didStageSampleData)
        XCTAssertEqual(try again.count(), count)
    }

    func testEmptiedStoreStaysEmpty() throws {
        let fixture = try TaskStoreFixture(stagesSampleData: true)
        try fixture.store.remove(try fixture.store.tasks())
        XCTAssertEqual(try fixture.store.count(), 0)
        let reopened = try fixture.reopen()
        XCTAssertFalse(reopened.didStageSampleData)
        XCTAssertEqual(try reopened.count(), 0)
    }

    func testStoreOpenedWithoutExamplesNeverGetsThem() throws {
        let fixture = try TaskStoreFixture(stagesSampleData: false)
        XCTAssertFalse(fixture.store.didStageSampleData)
        XCTAssertEqual(try fixture.store.count(), 0)
        XCTAssertEqual(try fixture.reopen(stagesSampleData: true).count(), 0)
    }

    func testInMemoryStoreIsNewToo() throws {
        let container = try PersistentContainer(model: try TaskStore.makeModel(), store: .inMemory)
        let store = try TaskStore(container: container)
        XCTAssertTrue(store.didStageSampleData)
        XCTAssertGreaterThan(try store.count(), 0)
    }
}
