import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A batched fetch knows every object's identity at once and makes the objects a batch at a
/// time; the objects are the ones a plain fetch returns, in the same order.
final class BatchedFetchTests: XCTestCase {
    func testBatchedResultsEqualAPlainFetch() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        try context.execute(BatchInsertRequest<GTask>(objects: (0..<2_345).map { ["title": "t\(($0 * 7919) % 2_345)", "done": $0 % 3 == 0] }))
        var request = FetchRequest<GTask>(predicate: \.done == false, sortBy: [FetchSortDescriptor(\.title)])
        request.fetchBatchSize = 100
        let batched = try context.fetchBatched(request)
        let plain = try context.fetch(request)
        XCTAssertEqual(batched.count, plain.count)
        XCTAssertEqual(batched.map(\.objectID), plain.map(\.objectID))
        XCTAssertEqual(batched.indices.map { batched.objectID(at: $0) }, plain.map(\.objectID))
        XCTAssertTrue(batched[5] === plain[5], "one instance per object in a context")
    }

    func testObjectsOfEarlierBatchesAreLetGo() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        let size = testSize("BatchedFetchTests", full: 20_000, ci: 5_000)
        try context.execute(BatchInsertRequest<GTask>(objects: (0..<size).map { ["title": "t\($0)"] }))
        var request = FetchRequest<GTask>()
        request.fetchBatchSize = 500
        let batched = try context.fetchBatched(request)
        var seen = 0
        for task in batched where !task.title.isEmpty { seen += 1 }
        XCTAssertEqual(seen, size)
        XCTAssertLessThanOrEqual(context.registeredObjects.count, 1_000, "only the two batches read last are held")
    }

    func testPendingChangesAreSeen() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        try context.execute(BatchInsertRequest<GTask>(objects: (0..<50).map { ["title": "t\($0 + 10)"] }))
        let extra = GTask(context: context)
        extra.title = "t00"
        var request = FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\.title)])
        request.fetchBatchSize = 10
        let batched = try context.fetchBatched(request)
        XCTAssertEqual(batched.count, 51)
        XCTAssertTrue(batched[0] === extra)
    }

    func testRowsDeletedElsewhereAfterTheKeysWereReadAreDeletedStandIns() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        let context = container.newContext()
        try context.execute(BatchInsertRequest<GTask>(objects: (0..<30).map { ["title": "t\($0)"] }))
        var request = FetchRequest<GTask>()   // primary-key order: each batch's keys ascend
        request.fetchBatchSize = 10
        let batched = try context.fetchBatched(request)
        let gone = batched.objectID(at: 14)
        try container.newContext().execute(BatchDeleteRequest<GTask>(objectIDs: [gone]))
        XCTAssertEqual(batched.map(\.title).enumerated().filter { $0.offset != 14 }.map(\.element),
                       (0..<30).filter { $0 != 14 }.map { "t\($0)" })
        XCTAssertTrue(batched[14].isDeleted)
        XCTAssertEqual(batched[14].objectID, gone)
        XCTAssertFalse(batched[15].isDeleted)
        XCTAssertTrue(batched[3] === batched[3], "a batch held is not read again")
    }
}
