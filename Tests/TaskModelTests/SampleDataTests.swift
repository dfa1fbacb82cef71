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
        let store = try TaskStore(container: container, stagesSampleData: true)
        XCTAssertTrue(store.didStageSampleData)
        XCTAssertGreaterThan(try store.count(), 0)
    }

    // Issue 25: a library user gets no example data unless asked (item 4), and the examples'
    // times are possible ones (item 9).

    func testALibraryStoreGetsNoExamplesUnlessAsked() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("taskmodel-samples-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = try TaskStore(url: directory.appendingPathComponent("plain.sqlite"))
        XCTAssertFalse(plain.didStageSampleData)
        XCTAssertEqual(try plain.count(), 0)
        let inMemory = try TaskStore(container: try PersistentContainer(model: try TaskStore.makeModel(), store: .inMemory))
        XCTAssertEqual(try inMemory.count(), 0)
        let asked = try TaskStore(url: directory.appendingPathComponent("asked.sqlite"), stagesSampleData: true)
        XCTAssertTrue(asked.didStageSampleData)
        XCTAssertEqual(try asked.count(), 4)
    }

    /// The done example is completed when it is created, never before.
    func testTheDoneExampleIsNotCompletedBeforeItWasCreated() throws {
        let fixture = try TaskStoreFixture(stagesSampleData: true)
        let tasks = try fixture.store.tasks()
        XCTAssertTrue(tasks.contains { $0.completedAt != nil })
        for task in tasks {
            if let completedAt = task.completedAt {
                XCTAssertGreaterThanOrEqual(completedAt, task.createdAt, "\(task.name) completed before it was created")
            }
        }
        XCTAssertEqual(Set(tasks.map(\.createdAt)).count, 1, "the examples are made at one moment")
    }
}
