import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A results controller catching up with large changes: another process's commit (another
/// container on the same file, seen only through `PRAGMA data_version`), or a notice that
/// changes a large part of the rows. It must refetch and diff (not place each object again),
/// and the diff, replayed on the old sections, must still give exactly a fresh fetch.
final class FetchedResultsControllerCatchUpTests: XCTestCase {
    private var directory = TemporaryDirectory()
    /// Enough rows for the large-change paths: over 1,000 changed objects, over 500 registered.
    private let rowCount = 3_000

    override func setUp() { directory = TemporaryDirectory() }

    /// Two containers on one file: what the second commits, the first learns as another process's.
    private func twoContainers() throws -> (PersistentContainer, PersistentContainer) {
        let model = try ManagedObjectModel(entities: [TestTask.self])
        let url = directory.file("shared.sqlite")
        return (try PersistentContainer(model: model, store: .sqlite(url)), try PersistentContainer(model: model, store: .sqlite(url)))
    }

    private func insertTasks(_ count: Int, into context: ManagedObjectContext, rng: inout SeededGenerator) throws {
        for n in 0..<count {
            let task = TestTask(context: context)
            task.name = "t\(n)"
            task.isComplete = Bool.random(using: &rng)
            task.due = Int.random(in: 0..<8, using: &rng) == 0 ? nil : day(Int.random(in: 0..<60, using: &rng))
            task.priority = Priority.allCases.randomElement(using: &rng) ?? .normal
        }
        try context.save()
    }

    /// The sections a fresh fetch gives, as the harness's mirror holds them.
    private func freshSections(_ context: ManagedObjectContext, _ request: FetchRequest<TestTask>) throws -> [[ObjectIdentifier]] {
        var sections: [[ObjectIdentifier]] = []
        var previous: Bool?
        for task in try context.fetch(request) {
            if previous != task.isComplete { sections.append([]) }
            sections[sections.count - 1].append(ObjectIdentifier(task))
            previous = task.isComplete
        }
        return sections
    }

    private func seed(_ name: String) -> UInt64 {
        testSeed(name)
    }

    func testAnotherProcessReplacingEveryRowIsOneRefetch() throws {
        let seed = seed("FetchedResultsControllerCatchUpTests.testAnotherProcessReplacingEveryRowIsOneRefetch")
        var rng = SeededGenerator(seed: seed)
        let (mine, theirs) = try twoContainers()
        let context = mine.newContext()
        try insertTasks(rowCount, into: context, rng: &rng)
        let harness = try ControllerHarness(FetchedResultsController(fetchRequest: tasksRequest(), context: context,
                                                                     sectionNameKeyPath: \.isComplete))
        let before = harness.controller.fetchedObjects

        // The other process deletes every row and inserts as many new ones.
        let other = theirs.newContext()
        for task in try other.fetch(FetchRequest<TestTask>()) { other.delete(task) }
        try other.save()
        try insertTasks(rowCount, into: other, rng: &rng)

        context.processPendingChanges()
        XCTAssertEqual(harness.changes.count, 1, "seed \(seed)")
        XCTAssertEqual(harness.controller.updateCounts.refetch, 1, "seed \(seed): one refetch")
        XCTAssertEqual(harness.controller.updateCounts.incremental, 0, "seed \(seed)")
        XCTAssertEqual(harness.last?.deletedRows.count, rowCount)
        XCTAssertEqual(harness.last?.insertedRows.count, rowCount)
        XCTAssertEqual(harness.mirror, try freshSections(context, tasksRequest()), "seed \(seed): the replayed diff is a fresh fetch")
        XCTAssertEqual(harness.problems, [], "seed \(seed)")
        XCTAssertTrue(before.allSatisfy(\.isDeleted), "every object the other process deleted is marked deleted")
    }

    func testAnotherProcessChangingEveryRowRefreshesAndRefetchesOnce() throws {
        let seed = seed("FetchedResultsControllerCatchUpTests.testAnotherProcessChangingEveryRowRefreshesAndRefetchesOnce")
        var rng = SeededGenerator(seed: seed)
        let (mine, theirs) = try twoContainers()
        let context = mine.newContext()
        try insertTasks(rowCount, into: context, rng: &rng)
        let request = tasksRequest(predicate: \.priority != .low)
        let harness = try ControllerHarness(FetchedResultsController(fetchRequest: request, context: context,
                                                                     sectionNameKeyPath: \.isComplete))
        // Registered here too: objects outside the results, and one with an unsaved change.
        let everything = try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.name)]))
        let edited = try XCTUnwrap(everything.first)
        edited.notes = "mine, not saved"

        let other = theirs.newContext()
        var expectedDue: [ObjectID: Date?] = [:]
        for task in try other.fetch(FetchRequest<TestTask>()) {
            task.due = day(Int.random(in: 0..<60, using: &rng))
            if Int.random(in: 0..<4, using: &rng) == 0 { task.isComplete.toggle() }
            if Int.random(in: 0..<6, using: &rng) == 0 { task.priority = Priority.allCases.randomElement(using: &rng) ?? .high }
            expectedDue[task.objectID] = task.due
        }
        try other.save()
        try insertTasks(50, into: other, rng: &rng)

        context.processPendingChanges()
        XCTAssertEqual(harness.controller.updateCounts.refetch, 1, "seed \(seed)")
        XCTAssertEqual(harness.controller.updateCounts.incremental, 0, "seed \(seed)")
        XCTAssertEqual(harness.mirror, try freshSections(context, request), "seed \(seed)")
        XCTAssertEqual(harness.problems, [], "seed \(seed)")
        for task in everything where task !== edited {
            XCTAssertEqual(task.due, expectedDue[task.objectID] ?? nil, "seed \(seed): \(task.name) shows the other process's values")
        }
        XCTAssertEqual(edited.notes, "mine, not saved", "an unsaved change is kept")
    }

    func testRegisteredObjectsAreReadAgainByOneScanWhenTheyAreMostOfTheTable() throws {
        var rng = SeededGenerator(seed: 7)
        let (mine, theirs) = try twoContainers()
        let context = mine.newContext()
        try insertTasks(rowCount, into: context, rng: &rng)
        let all = try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.name)]))
        let entity = try XCTUnwrap(mine.model.entity(named: "Task"))
        let keys = all.compactMap(\.objectID.primaryKey).sorted()
        // Another process deletes every third row and adds a few.
        let other = theirs.newContext()
        for (index, task) in try other.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.name)])).enumerated() where index % 3 == 0 {
            other.delete(task)
        }
        try other.save()
        try insertTasks(10, into: other, rng: &rng)
        let remainingKeys = Set(try other.fetch(FetchRequest<TestTask>()).compactMap(\.objectID.primaryKey))

        let gone = try XCTUnwrap(try context.rereadRegisteredObjectsByScan(entity: entity), "a scan, not reads by key")
        XCTAssertEqual(gone.sorted(), keys.filter { !remainingKeys.contains($0) }, "each gone object once")
        // Some of them (1,000 of 2,010 rows: still a scan), the table read only up to the last.
        let firstKeys = Set(keys.prefix(1_000))
        let goneFirst = try XCTUnwrap(try context.rereadRegisteredObjectsByScan(entity: entity, only: firstKeys))
        XCTAssertEqual(Set(goneFirst), firstKeys.subtracting(remainingKeys))
        context.processPendingChanges()   // the same scan, run by the merge: the deleted rows' objects are marked
        for task in all {
            XCTAssertEqual(task.isDeleted, !remainingKeys.contains(task.objectID.key), task.name)
        }
        // Few registered objects, or few of the table's rows (600 of 2,010): read by key instead.
        XCTAssertNil(try context.rereadRegisteredObjectsByScan(entity: entity, only: Set(keys.prefix(400))))
        XCTAssertNil(try context.rereadRegisteredObjectsByScan(entity: entity, only: Set(keys.prefix(600))))
    }

    /// Another process deleting every row marks every registered object at once (no pass of
    /// hashing per object): each is still reported once, an object deleted here too included,
    /// and a deletion taken back by a rollback and then found gone is reported once.
    func testEveryObjectDeletedElsewhereIsReportedOnce() throws {
        var rng = SeededGenerator(seed: 11)
        let (mine, theirs) = try twoContainers()
        let context = mine.newContext()
        try insertTasks(rowCount, into: context, rng: &rng)
        let tasks = try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.name)]))
        var notices: [ContextChanges] = []
        let token = context.addObserver { notices.append($0) }
        defer { token.cancel() }

        // Deleted here (not yet reported), then by another context of this container, then the
        // deletion here is rolled back: the row is gone, so the object is reported deleted, once.
        context.delete(tasks[0])
        context.delete(tasks[1])   // rolled back and still in the store: reported as nothing
        let sameProcess = mine.newContext()
        try sameProcess.fetch(FetchRequest<TestTask>(predicate: \.name == tasks[0].name)).forEach(sameProcess.delete)
        try sameProcess.save()
        context.rollback()
        XCTAssertEqual(notices.count, 1)
        XCTAssertEqual(notices.last?.deleted.map(ObjectIdentifier.init), [ObjectIdentifier(tasks[0])])
        XCTAssertTrue(tasks[0].isDeleted)
        XCTAssertFalse(tasks[1].isDeleted)

        // Another process deletes every row; one is also deleted here, pending.
        context.delete(tasks[2])
        let other = theirs.newContext()
        for task in try other.fetch(FetchRequest<TestTask>()) { other.delete(task) }
        try other.save()
        context.processPendingChanges()
        XCTAssertEqual(notices.count, 2)
        let deleted = notices.last?.deleted ?? []
        XCTAssertEqual(deleted.count, rowCount - 1, "every remaining object, each once")
        XCTAssertEqual(Set(deleted.map(ObjectIdentifier.init)), Set(tasks.dropFirst().map(ObjectIdentifier.init)))
        XCTAssertTrue(tasks.allSatisfy(\.isDeleted))
        XCTAssertFalse(context.hasChanges, "a pending deletion of a row already gone is no change")
        XCTAssertEqual(try context.count(for: FetchRequest<TestTask>()), 0)
    }

    func testALargeNoticeIsOneRefetchAndASmallOneIsPlacedInPlace() throws {
        let seed = seed("FetchedResultsControllerCatchUpTests.testALargeNoticeIsOneRefetchAndASmallOneIsPlacedInPlace")
        var rng = SeededGenerator(seed: seed)
        let container = try makeContainer(.sqlite, in: directory)
        let context = container.newContext()
        try insertTasks(rowCount, into: context, rng: &rng)
        let harness = try ControllerHarness(FetchedResultsController(fetchRequest: tasksRequest(), context: context,
                                                                     sectionNameKeyPath: \.isComplete))
        let tasks = harness.controller.fetchedObjects
        // Another context of the same container changes half of the rows: an exact notice.
        let other = container.newContext()
        for (index, task) in try other.fetch(FetchRequest<TestTask>()).enumerated() where index % 2 == 0 {
            task.due = day(Int.random(in: 0..<60, using: &rng))
            if index % 6 == 0 { task.isComplete.toggle() }
        }
        try other.save()
        context.processPendingChanges()
        XCTAssertEqual(harness.controller.updateCounts.refetch, 1, "seed \(seed): half the rows changed, one refetch")
        XCTAssertEqual(harness.mirror, try freshSections(context, tasksRequest()), "seed \(seed)")

        // A few changes here: placed in place.
        for task in tasks.prefix(20) { task.due = day(Int.random(in: 0..<60, using: &rng)) }
        context.processPendingChanges()
        XCTAssertEqual(harness.controller.updateCounts.refetch, 1, "seed \(seed)")
        XCTAssertEqual(harness.controller.updateCounts.incremental, 1, "seed \(seed)")
        XCTAssertEqual(harness.mirror, try freshSections(context, tasksRequest()), "seed \(seed)")
        XCTAssertEqual(harness.problems, [], "seed \(seed)")
    }

    func testRefetchPolicy() {
        XCTAssertFalse(ResultsUpdatePolicy.prefersRefetch(changed: 999, rows: 1_000), "few changes: always in place")
        XCTAssertFalse(ResultsUpdatePolicy.prefersRefetch(changed: 1_000, rows: 100_000))
        XCTAssertTrue(ResultsUpdatePolicy.prefersRefetch(changed: 40_000, rows: 100_000))
        XCTAssertTrue(ResultsUpdatePolicy.prefersRefetch(changed: 5_000, rows: 3_000), "more changes than rows")
    }
}
