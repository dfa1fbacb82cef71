import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

final class ContextSaveTests: XCTestCase {
    func testInsertSaveFetch() {
        forEachStore { container, kind in
            let context = container.newContext()
            let task = TestTask(context: context)
            XCTAssertTrue(task.objectID.isTemporary)
            XCTAssertTrue(task.isInserted)
            task.name = "Buy milk"
            task.notes = "2 litres"
            XCTAssertEqual(task.name, "Buy milk")
            XCTAssertFalse(task.isComplete)
            XCTAssertEqual(task.priority, .normal)
            XCTAssertTrue(context.hasChanges)
            try context.save()
            XCTAssertFalse(task.objectID.isTemporary)
            XCTAssertFalse(task.isInserted)
            XCTAssertFalse(context.hasChanges)

            let other = container.newContext()
            let fetched = try other.fetch(FetchRequest<TestTask>())
            XCTAssertEqual(fetched.count, 1)
            XCTAssertEqual(fetched[0].name, "Buy milk")
            XCTAssertEqual(fetched[0].notes, "2 litres")
            XCTAssertEqual(fetched[0].objectID, task.objectID)
            // Identity map: one instance per object per context.
            XCTAssertTrue(try other.fetch(FetchRequest<TestTask>())[0] === fetched[0])
            XCTAssertTrue(try other.existingObject(with: task.objectID) === fetched[0])
        }
    }

    func testEqualSetChangesNothing() {
        forEachStore { container, _ in
            let context = container.newContext()
            let task = TestTask(context: context)
            task.name = "A"
            try context.save()
            var notices = 0
            let token = context.addObserver { _ in notices += 1 }
            task.name = "A"
            task.isComplete = false
            XCTAssertFalse(task.hasChanges)
            XCTAssertFalse(context.hasChanges)
            context.processPendingChanges()
            XCTAssertEqual(notices, 0)
            task.name = "B"
            XCTAssertTrue(task.isUpdated)
            XCTAssertEqual(task.changedValues()["name"] as? String, "B")
            XCTAssertEqual(task.committedValues(forKeys: ["name"])["name"] as? String, "A")
            context.processPendingChanges()
            XCTAssertEqual(notices, 1)
            token.cancel()
        }
    }
}
