import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Generated batched fetches against a plain fetch: tables with and without gaps in their keys,
/// filters that keep many or few rows, unsaved changes, rows deleted elsewhere after the keys
/// were read, read in order (the iterator) or at random positions (the subscript).
final class BatchedFetchOracleTests: XCTestCase {
    private struct Expected {
        var ids: [ObjectID] = []
        var titles: [String] = []
    }

    func testBatchedFetchesMatchAPlainFetch() throws {
        let seed = testSeed("BatchedFetchOracleTests.testBatchedFetchesMatchAPlainFetch")
        var random = SeededGenerator(seed: seed)
        let cases = testSize("BatchedFetchOracleTests.testBatchedFetchesMatchAPlainFetch", full: 60, ci: 15)
        for index in 0..<cases {
            try runCase(index, seed: seed, random: &random)
        }
    }

    private func runCase(_ index: Int, seed: UInt64, random: inout SeededGenerator) throws {
        let label = "seed \(seed), case \(index)"
        let directory = TemporaryDirectory()
        let container = try makeGraphContainer(directory)
        let context = container.newContext()
        let rows = Int.random(in: 0...700, using: &random)
        if rows > 0 {
            try context.execute(BatchInsertRequest<GTask>(objects: (0..<rows).map { _ in
                ["title": "t\(String(format: "%04d", Int.random(in: 0..<1_000, using: &random)))",
                 "done": Bool.random(using: &random)]
            }))
        }
        try makeGaps(in: container, rows: rows, random: &random)
        let request = makeRequest(&random)
        let pending = try makePendingChanges(in: context, random: &random)
        var expected = Expected()
        do {
            let plain = try context.fetch(request)
            expected.ids = plain.map(\.objectID)
            expected.titles = plain.map(\.title)
        }
        let batched = try context.fetchBatched(request)
        XCTAssertEqual(batched.count, expected.ids.count, label)
        XCTAssertEqual(batched.indices.map { batched.objectID(at: $0) }, expected.ids, label)
        // Rows deleted elsewhere once the keys are read: their objects are deleted stand-ins.
        let goneElsewhere = Set(expected.ids.filter { !$0.isTemporary && !pending.touched.contains($0) && Int.random(in: 0..<10, using: &random) == 0 })
        if !goneElsewhere.isEmpty {
            try container.newContext().execute(BatchDeleteRequest<GTask>(objectIDs: Array(goneElsewhere)))
        }
        let positions: [Int] = Bool.random(using: &random)
            ? Array(batched.indices)
            : (0..<batched.count).map { _ in Int.random(in: 0..<batched.count, using: &random) }
        let objects: [GTask] = positions == Array(batched.indices) && Bool.random(using: &random)
            ? Array(batched) : positions.map { batched[$0] }
        for (position, object) in zip(positions, objects) {
            XCTAssertEqual(object.objectID, expected.ids[position], "\(label), position \(position)")
            if goneElsewhere.contains(object.objectID) {
                XCTAssertTrue(object.isDeleted, "\(label), position \(position): deleted elsewhere")
            } else {
                // An object deleted here stays in a fetch that leaves out pending changes.
                XCTAssertEqual(object.isDeleted, pending.deleted.contains(object.objectID) && !request.includesPendingChanges,
                               "\(label), position \(position)")
                XCTAssertEqual(object.title, expected.titles[position], "\(label), position \(position)")
            }
        }
    }

    /// Deletes none, a few or most rows (the first and the last among them at times), so the
    /// keys have gaps of every size.
    private func makeGaps(in container: PersistentContainer, rows: Int, random: inout SeededGenerator) throws {
        guard rows > 0 else { return }
        let context = container.newContext()
        let tasks = try context.fetch(FetchRequest<GTask>())
        let share = [0, 0, 2, 30, 90].randomElement(using: &random) ?? 0
        var gone = Set(tasks.filter { _ in Int.random(in: 0..<100, using: &random) < share }.map(\.objectID))
        if Bool.random(using: &random), let first = tasks.first { gone.insert(first.objectID) }
        if Bool.random(using: &random), let last = tasks.last { gone.insert(last.objectID) }
        for task in tasks where gone.contains(task.objectID) { context.delete(task) }
        try context.save()
    }

    private func makeRequest(_ random: inout SeededGenerator) -> FetchRequest<GTask> {
        let bound = "t\(String(format: "%04d", Int.random(in: 0..<1_000, using: &random)))"
        let predicate: FetchPredicate<GTask>? = [nil, \.done == true, \.title < bound, \.title > "t0980"]
            .randomElement(using: &random) ?? nil
        var request = Bool.random(using: &random)
            ? FetchRequest<GTask>(predicate: predicate)
            : FetchRequest<GTask>(predicate: predicate, sortBy: [FetchSortDescriptor(\.title)])
        request.fetchBatchSize = [1, 7, 50, 128, 500, 0].randomElement(using: &random) ?? 0
        request.includesPendingChanges = Int.random(in: 0..<5, using: &random) > 0
        return request
    }

    /// Unsaved changes half the time: an insert, a change and a deletion. Returns the IDs of the
    /// saved objects they touch (the context holds those, whatever happens elsewhere) and of the
    /// one deleted.
    private func makePendingChanges(in context: ManagedObjectContext,
                                    random: inout SeededGenerator) throws -> (touched: Set<ObjectID>, deleted: Set<ObjectID>) {
        guard Bool.random(using: &random) else { return ([], []) }
        let inserted = GTask(context: context)
        inserted.title = "t\(String(format: "%04d", Int.random(in: 0..<1_000, using: &random)))"
        inserted.done = Bool.random(using: &random)
        var touched: Set<ObjectID> = [], deleted: Set<ObjectID> = []
        var request = FetchRequest<GTask>()
        request.fetchLimit = 3
        request.fetchOffset = Int.random(in: 0..<50, using: &random)
        let saved = try context.fetch(request)
        if let changed = saved.first {
            changed.done.toggle()
            changed.title = "t0500"
            touched.insert(changed.objectID)
        }
        if let gone = saved.last, saved.count > 1 {
            context.delete(gone)
            touched.insert(gone.objectID)
            deleted.insert(gone.objectID)
        }
        return (touched, deleted)
    }
}
