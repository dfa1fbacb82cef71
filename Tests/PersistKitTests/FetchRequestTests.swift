import XCTest
@testable import PersistKit

final class FetchRequestTests: XCTestCase {
    private func seed(_ context: ManagedObjectContext) throws -> [TestTask] {
        let tasks = (0..<10).map { n -> TestTask in
            let task = TestTask(context: context)
            task.name = "task \(n)"
            task.count = n
            task.isComplete = n % 3 == 0
            task.due = n % 4 == 0 ? nil : day(n)
            return task
        }
        try context.save()
        return tasks
    }

    func testLimitOffsetCountAndIDs() {
        forEachStore { container, _ in
            let context = container.newContext()
            _ = try seed(context)
            var request = FetchRequest<TestTask>(predicate: \.count >= 2, sortBy: [FetchSortDescriptor(\.count, order: .reverse)])
            XCTAssertEqual(try context.count(for: request), 8)
            request.fetchLimit = 3
            request.fetchOffset = 2
            XCTAssertEqual(try context.fetch(request).map(\.count), [7, 6, 5])
            XCTAssertEqual(try context.count(for: request), 3)
            XCTAssertEqual(try context.fetchObjectIDs(request), try context.fetch(request).map(\.objectID))
        }
    }

    func testIncludesPendingChanges() {
        forEachStore { container, _ in
            let context = container.newContext()
            let tasks = try seed(context)
            let inserted = TestTask(context: context)
            inserted.name = "pending"
            inserted.count = 100
            tasks[9].count = -1          // no longer matches
            tasks[1].count = 50          // still matches, new position
            context.delete(tasks[8])
            var request = FetchRequest<TestTask>(predicate: \.count >= 5, sortBy: [FetchSortDescriptor(\.count)])
            XCTAssertEqual(try context.fetch(request).map(\.count), [5, 6, 7, 50, 100])
            XCTAssertEqual(try context.count(for: request), 5)
            request.fetchLimit = 2
            request.fetchOffset = 3
            XCTAssertEqual(try context.fetch(request).map(\.count), [50, 100])
            request.includesPendingChanges = false
            request.fetchLimit = 0
            request.fetchOffset = 0
            XCTAssertEqual(try context.fetch(request).map(\.name), ["task 5", "task 6", "task 7", "task 8", "task 9"])
        }
    }

    func testSortNilsAndStringComparisons() {
        forEachStore { container, _ in
            let context = container.newContext()
            _ = try seed(context)
            let last = try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.due, nils: .last)])).map(\.count)
            XCTAssertEqual(last, [1, 2, 3, 5, 6, 7, 9, 0, 4, 8])
            let first = try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.due, order: .reverse, nils: .first)])).map(\.count)
            XCTAssertEqual(first, [0, 4, 8, 9, 7, 6, 5, 3, 2, 1])
        }
    }

    func testRequestErrors() {
        forEachStore { container, _ in
            let context = container.newContext()
            var negative = FetchRequest<TestTask>()
            negative.fetchLimit = -1
            XCTAssertThrowsError(try context.fetch(negative)) { XCTAssertEqual(($0 as? PersistError)?.code, .invalidRequest) }
            XCTAssertThrowsError(try context.fetch(FetchRequest<Note>())) { XCTAssertEqual(($0 as? PersistError)?.code, .invalidRequest) }
            XCTAssertThrowsError(try context.fetch(FetchRequest<ManagedObject>(entityName: "Nope"))) {
                XCTAssertEqual(($0 as? PersistError)?.code, .invalidRequest)
            }
            XCTAssertThrowsError(try context.fetch(FetchRequest<TestTask>(sortBy: [.init(key: "nope")]))) {
                XCTAssertEqual(($0 as? PersistError)?.code, .invalidRequest)
            }
        }
    }
}
