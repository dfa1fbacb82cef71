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

    /// With unsaved changes the results still hold keys for the saved rows: only the context's
    /// pending objects are held (as the context holds them anyway), each at its place.
    func testPendingChangesKeepSavedRowsAsKeys() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        let size = testSize("BatchedFetchTests.testPendingChangesKeepSavedRowsAsKeys", full: 5_000, ci: 2_000)
        try context.execute(BatchInsertRequest<GTask>(objects: (0..<size).map { ["title": "t\(String(format: "%05d", $0))", "done": $0 % 2 == 0] }))
        let extra = GTask(context: context)
        extra.title = "t00100a"
        let changed = try XCTUnwrap(context.fetch(FetchRequest<GTask>(predicate: \.title == "t00201")).first)
        changed.done = true
        let deleted = try XCTUnwrap(context.fetch(FetchRequest<GTask>(predicate: \.title == "t00300")).first)
        context.delete(deleted)
        var request = FetchRequest<GTask>(predicate: \.done == true, sortBy: [FetchSortDescriptor(\.title)])
        request.fetchBatchSize = 100
        let batched = try context.fetchBatched(request)
        XCTAssertLessThanOrEqual(context.registeredObjects.count, 3, "no saved row made into an object")
        let plain = try context.fetch(request)
        XCTAssertEqual(batched.indices.map { batched.objectID(at: $0) }, plain.map(\.objectID))
        XCTAssertEqual(batched.count, size / 2)
        XCTAssertTrue(batched[101] === changed, "the changed object at its new place")
        XCTAssertEqual(batched.map(\.title), plain.map(\.title))
        extra.done = true
        let again = try context.fetchBatched(request)
        XCTAssertEqual(again.map(\.objectID), try context.fetch(request).map(\.objectID), "an unsaved insert at its place")
    }

    /// A request's prefetching runs on each batch as it is made: reading the batch's related
    /// objects then runs no query, in a batched fetch and in a batched controller.
    func testEachBatchIsPrefetched() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        let projects = (0..<3).map { index in
            let project = GProject(context: context)
            project.name = "p\(index)"
            return project
        }
        try context.save()
        let ids = projects.map(\.objectID)
        try context.execute(BatchInsertRequest<GTask>(objects: (0..<300).map { ["title": "t\(String(format: "%03d", $0))", "project": ids[$0 % 3]] }))
        let reader = try makeGraphContainer(directory).newContext()
        var request = FetchRequest<GTask>(sortBy: [FetchSortDescriptor(\.title)])
        request.fetchBatchSize = 100
        request.relationshipKeyPathsForPrefetching = ["project"]
        let batched = try reader.fetchBatched(request)
        _ = batched[100]
        var before = reader.store.readsRun
        XCTAssertEqual(Set((100..<200).map { batched[$0].project?.name ?? "-" }), ["p0", "p1", "p2"])
        XCTAssertEqual(reader.store.readsRun - before, 0, "the batch's projects came with it")
        let controller = FetchedResultsController(fetchRequest: request, context: reader)
        try controller.performFetch()
        _ = controller.object(at: IndexPath(item: 250, section: 0))
        before = reader.store.readsRun
        XCTAssertEqual((200..<300).compactMap { controller.object(at: IndexPath(item: $0, section: 0))?.project?.name }.count, 100)
        XCTAssertEqual(reader.store.readsRun - before, 0, "the controller's batch came with its projects")
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

    /// A walk of a whole table knows its keys when the fetch runs: rows saved elsewhere later
    /// are not in it, and a gap in the keys (a row deleted before the fetch) is seen.
    func testWholeTableWalksHoldTheRowsOfTheirFetch() throws {
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        let context = container.newContext()
        try context.execute(BatchInsertRequest<GTask>(objects: (0..<40).map { ["title": "t\($0)"] }))
        var request = FetchRequest<GTask>()
        request.fetchBatchSize = 16
        let walk = try context.fetchBatched(request)
        try container.newContext().execute(BatchInsertRequest<GTask>(objects: [["title": "later"]]))
        XCTAssertEqual(walk.map(\.title), (0..<40).map { "t\($0)" })
        try container.newContext().execute(BatchDeleteRequest<GTask>(objectIDs: [walk.objectID(at: 7)]))
        let gapped = try context.fetchBatched(request)
        XCTAssertEqual(gapped.map(\.title), (0..<40).filter { $0 != 7 }.map { "t\($0)" } + ["later"])
        XCTAssertEqual(Array(gapped).map(\.objectID), try context.fetch(request).map(\.objectID))
    }

    /// Objects of a batch let go leave the identity map, but one held elsewhere stays the
    /// context's instance for its row; one held weakly goes, and reading it again makes a new
    /// one for the same row.
    func testObjectsHeldElsewhereOutliveTheirBatch() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        try context.execute(BatchInsertRequest<GTask>(objects: (0..<100).map { ["title": "t\($0)"] }))
        var request = FetchRequest<GTask>()
        request.fetchBatchSize = 10
        let batched = try context.fetchBatched(request)
        let held = batched[3]
        weak let weaklyHeld = batched[14]
        let weakID = batched.objectID(at: 14)
        XCTAssertEqual(batched.map(\.title), (0..<100).map { "t\($0)" })
        XCTAssertNil(weaklyHeld, "its batch was let go")
        XCTAssertTrue(try context.existingObject(with: held.objectID) === held)
        XCTAssertEqual(context.registeredObjects.count, 21, "the last two batches and the object held")
        XCTAssertTrue(batched[3] === held, "read again: the instance held")
        XCTAssertEqual(batched[14].objectID, weakID)
        XCTAssertEqual(batched[14].title, "t14")
    }

    /// The oldest batch is let go while the next one is read (an object per row made): the
    /// objects of it held elsewhere stay the context's instances, the others go, both when the
    /// keys ascend (read as a range) and when they do not (read by key).
    func testBatchLetGoDuringTheNextReadKeepsHeldObjects() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        try context.execute(BatchInsertRequest<GTask>(objects: (0..<100).map { ["title": "t\(String(format: "%03d", $0))"] }))
        for sorts in [[], [FetchSortDescriptor<GTask>(\.title, order: .reverse)]] {
            context.reset()
            var request = FetchRequest<GTask>(sortBy: sorts)
            request.fetchBatchSize = 10
            let batched = try context.fetchBatched(request)
            let held = stride(from: 0, to: 10, by: 2).map { batched[$0] }
            weak let dropped = batched[1]
            let titles = batched.map(\.title)
            XCTAssertEqual(titles, try context.fetch(request).map(\.title))
            XCTAssertNil(dropped, "not held: let go with its batch")
            for object in held {
                XCTAssertTrue(try context.existingObject(with: object.objectID) === object)
            }
            XCTAssertEqual(held.map(\.title), stride(from: 0, to: 10, by: 2).map { titles[$0] })
            XCTAssertEqual(context.registeredObjects.count, 20 + held.count, "the last two batches and the objects held")
        }
    }
}
