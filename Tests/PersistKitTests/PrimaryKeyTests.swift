import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

final class PrimaryKeyTests: XCTestCase {
    /// An ObjectID URI kept somewhere must never come to name another object.
    func testPrimaryKeysAreNeverReused() {
        forEachStore { container, _ in
            let context = container.newContext()
            let tasks = (0..<3).map { n -> TestTask in
                let task = TestTask(context: context)
                task.name = "t\(n)"
                return task
            }
            try context.save()
            let highest = try XCTUnwrap(tasks.last?.objectID.primaryKey)
            tasks.forEach(context.delete)
            try context.save()
            let other = container.newContext()   // another context, the same store
            let fresh = TestTask(context: other)
            fresh.name = "new"
            try other.save()
            XCTAssertGreaterThan(try XCTUnwrap(fresh.objectID.primaryKey), highest)
            XCTAssertThrowsError(try context.existingObject(TestTask.self, primaryKey: highest))
            XCTAssertEqual(try other.existingObject(TestTask.self, primaryKey: try XCTUnwrap(fresh.objectID.primaryKey)).name, "new")
        }
    }
}
