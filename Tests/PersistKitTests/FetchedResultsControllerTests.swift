import Foundation
import XCTest
@testable import PersistKit

final class FetchedResultsControllerTests: XCTestCase {
    private var directory = TemporaryDirectory()

    override func setUp() { directory = TemporaryDirectory() }

    private func makeTasks(_ context: ManagedObjectContext, _ specs: [(String, Bool, Int?)]) throws -> [TestTask] {
        let tasks = specs.map { spec -> TestTask in
            let task = TestTask(context: context)
            task.name = spec.0
            task.isComplete = spec.1
            task.due = spec.2.map(day)
            return task
        }
        try context.save()
        return tasks
    }

    private func sectioned(_ context: ManagedObjectContext, _ request: FetchRequest<TestTask> = tasksRequest()) throws -> ControllerHarness {
        try ControllerHarness(FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: \.isComplete))
    }

    func testPerformFetchRequiresSortOnSectionKey() throws {
        let context = try makeContainer(.inMemory, in: directory).newContext()
        let unsorted = FetchedResultsController(fetchRequest: FetchRequest<TestTask>(), context: context)
        XCTAssertThrowsError(try unsorted.performFetch()) { XCTAssertEqual(($0 as? PersistError)?.code, .misuse) }
        let wrongFirst = FetchedResultsController(
            fetchRequest: FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.due)]), context: context, sectionNameKeyPath: \.isComplete)
        XCTAssertThrowsError(try wrongFirst.performFetch()) { XCTAssertEqual(($0 as? PersistError)?.code, .misuse) }
    }

    func testSectionsAndLookup() throws {
        let context = try makeContainer(.sqlite, in: directory).newContext()
        let tasks = try makeTasks(context, [("a", false, 3), ("b", true, 1), ("c", false, nil), ("d", false, 1)])
        let harness = try sectioned(context)
        let results = harness.controller
        XCTAssertEqual(results.sections.map(\.name), ["false", "true"])
        XCTAssertEqual(results.sections[0].objects.map(\.name), ["d", "a", "c"])   // due ascending, undated last
        XCTAssertEqual(results.sections[1].numberOfObjects, 1)
        XCTAssertEqual(results.object(at: IndexPath(item: 1, section: 0))?.name, "a")
        XCTAssertNil(results.object(at: IndexPath(item: 9, section: 0)))
        XCTAssertEqual(results.indexPath(forObject: tasks[1]), IndexPath(item: 0, section: 1))
        XCTAssertEqual(results.fetchedObjects.count, 4)
        XCTAssertEqual(results.sectionIndexTitles, ["F", "T"])
    }

    func testCompletingOneOfTwoIsOneCrossSectionMove() throws {
        let context = try makeContainer(.sqlite, in: directory).newContext()
        let tasks = try makeTasks(context, [("a", false, 1), ("b", false, 5), ("c", true, 2), ("d", true, 9)])
        let harness = try sectioned(context)
        tasks[1].isComplete = true
        try context.save()
        let change = try XCTUnwrap(harness.last)
        XCTAssertEqual(harness.changes.count, 1)
        XCTAssertEqual(change.movedRows.count, 1)
        XCTAssertEqual(change.movedRows.first?.from, IndexPath(item: 1, section: 0))
        XCTAssertEqual(change.movedRows.first?.to, IndexPath(item: 1, section: 1))   // between due 2 and due 9
        XCTAssertTrue(change.insertedRows.isEmpty && change.deletedRows.isEmpty && change.updatedRows.isEmpty)
        XCTAssertTrue(change.insertedSections.isEmpty && change.deletedSections.isEmpty)
        XCTAssertEqual(harness.problems, [])
    }

    func testCompletingTheOnlyIncompleteDeletesItsSection() throws {
        let context = try makeContainer(.sqlite, in: directory).newContext()
        let tasks = try makeTasks(context, [("a", false, 1), ("c", true, 2)])
        let harness = try sectioned(context)
        tasks[0].isComplete = true
        try context.save()
        let change = try XCTUnwrap(harness.last)
        XCTAssertEqual(change.deletedSections, IndexSet([0]))
        XCTAssertEqual(change.deletedRows, [IndexPath(item: 0, section: 0)])
        XCTAssertEqual(change.insertedRows, [IndexPath(item: 0, section: 0)])
        XCTAssertTrue(change.movedRows.isEmpty)
        XCTAssertEqual(harness.controller.sections.map(\.name), ["true"])
        XCTAssertEqual(harness.problems, [])
    }

    func testEditingNotesIsOneUpdate() throws {
        let context = try makeContainer(.inMemory, in: directory).newContext()
        let tasks = try makeTasks(context, [("a", false, 1), ("b", false, 2)])
        let harness = try sectioned(context)
        tasks[1].notes = "call first"
        context.processPendingChanges()
        let change = try XCTUnwrap(harness.last)
        XCTAssertEqual(change.updatedRows.count, 1)
        XCTAssertEqual(change.updatedRows.first?.from, IndexPath(item: 1, section: 0))
        XCTAssertEqual(change.updatedRows.first?.to, IndexPath(item: 1, section: 0))
        XCTAssertTrue(change.movedRows.isEmpty && change.insertedRows.isEmpty && change.deletedRows.isEmpty)
    }

    func testSwappingTwoDueDates() throws {
        let context = try makeContainer(.inMemory, in: directory).newContext()
        let tasks = try makeTasks(context, [("a", false, 1), ("b", false, 2), ("c", false, 3)])
        let harness = try sectioned(context)
        tasks[0].due = day(2)
        tasks[1].due = day(1)
        context.processPendingChanges()
        let change = try XCTUnwrap(harness.last)
        XCTAssertEqual(change.movedRows.count, 1)
        XCTAssertLessThanOrEqual(change.updatedRows.count, 1)
        XCTAssertTrue(change.insertedRows.isEmpty && change.deletedRows.isEmpty)
        for move in change.movedRows { XCTAssertNotEqual(move.from, move.to) }
        XCTAssertEqual(harness.controller.sections[0].objects.map(\.name), ["b", "a", "c"])
        XCTAssertEqual(harness.problems, [])
    }

    func testInsertNonMatchingThenEditToMatchIsOneInsert() throws {
        let context = try makeContainer(.inMemory, in: directory).newContext()
        _ = try makeTasks(context, [("a", false, 1)])
        let harness = try sectioned(context, tasksRequest(predicate: \.priority != .low))
        let task = TestTask(context: context)
        task.name = "new"
        task.priority = .low
        context.processPendingChanges()
        XCTAssertTrue(harness.changes.isEmpty, "a non-matching insert changes nothing")
        task.priority = .high
        context.processPendingChanges()
        XCTAssertEqual(harness.changes.count, 1)
        XCTAssertEqual(harness.last?.insertedRows, [IndexPath(item: 1, section: 0)])
        XCTAssertEqual(harness.problems, [])
    }

    func testFetchLimitHoldsAfterChanges() throws {
        let context = try makeContainer(.sqlite, in: directory).newContext()
        _ = try makeTasks(context, (1...5).map { ("t\($0)", false, $0 * 2) })
        let harness = try sectioned(context, tasksRequest(limit: 5))
        let sixth = TestTask(context: context)
        sixth.name = "early"
        sixth.due = day(1)
        try context.save()
        let change = try XCTUnwrap(harness.last)
        XCTAssertEqual(change.insertedRows, [IndexPath(item: 0, section: 0)])
        XCTAssertEqual(change.deletedRows, [IndexPath(item: 4, section: 0)])
        XCTAssertEqual(harness.controller.fetchedObjects.count, 5)
        XCTAssertEqual(harness.controller.fetchedObjects.first?.name, "early")
        context.delete(sixth)
        try context.save()
        XCTAssertEqual(harness.controller.fetchedObjects.map(\.name), ["t1", "t2", "t3", "t4", "t5"])
        XCTAssertEqual(harness.problems, [])
    }

    func testDeleteAll() throws {
        let context = try makeContainer(.sqlite, in: directory).newContext()
        let tasks = try makeTasks(context, [("a", false, 1), ("b", true, 2), ("c", true, nil)])
        let harness = try sectioned(context)
        tasks.forEach(context.delete)
        try context.save()
        let change = try XCTUnwrap(harness.last)
        XCTAssertEqual(change.deletedSections, IndexSet([0, 1]))
        XCTAssertEqual(change.deletedRows.count, 3)
        XCTAssertTrue(harness.controller.sections.isEmpty)
        XCTAssertEqual(harness.problems, [])
    }

    func testNoOpSetsDeliverNothing() throws {
        let context = try makeContainer(.inMemory, in: directory).newContext()
        let tasks = try makeTasks(context, [("a", false, 1)])
        let harness = try sectioned(context)
        tasks[0].name = "a"
        tasks[0].due = day(1)
        tasks[0].isComplete = false
        context.processPendingChanges()
        try context.save()
        XCTAssertTrue(harness.changes.isEmpty)
    }

    func testChangesSavedInAnotherContext() throws {
        let container = try makeContainer(.sqlite, in: directory)
        let context = container.newContext()
        let tasks = try makeTasks(context, [("a", false, 1), ("b", false, 2)])
        let harness = try sectioned(context)
        let other = container.newContext()
        let theirs = try XCTUnwrap(try other.existingObject(with: tasks[0].objectID) as? TestTask)
        theirs.isComplete = true
        let added = TestTask(context: other)
        added.name = "added elsewhere"
        added.due = day(0)
        try other.save()
        XCTAssertTrue(harness.changes.isEmpty, "nothing until this context processes changes")
        context.processPendingChanges()
        XCTAssertEqual(harness.changes.count, 1)
        XCTAssertEqual(harness.controller.sections.map { $0.objects.map(\.name) }, [["added elsewhere", "b"], ["a"]])
        XCTAssertEqual(harness.mirror, harness.current)
        XCTAssertTrue(tasks[0].isComplete, "the object was refreshed with the other context's value")
        other.delete(theirs)
        try other.save()
        context.processPendingChanges()
        XCTAssertEqual(harness.controller.fetchedObjects.map(\.name), ["added elsewhere", "b"])
        XCTAssertTrue(tasks[0].isDeleted)
        XCTAssertEqual(harness.problems, [])
    }

    func testRollbackAndReset() throws {
        let context = try makeContainer(.inMemory, in: directory).newContext()
        let tasks = try makeTasks(context, [("a", false, 1), ("b", true, 2)])
        let harness = try sectioned(context)
        tasks[0].isComplete = true
        let added = TestTask(context: context)
        added.name = "x"
        context.delete(tasks[1])
        context.processPendingChanges()
        XCTAssertEqual(harness.controller.fetchedObjects.map(\.name), ["x", "a"])
        context.rollback()
        XCTAssertEqual(harness.controller.fetchedObjects.map(\.name), ["a", "b"])
        context.reset()
        XCTAssertEqual(harness.controller.fetchedObjects.map(\.name), ["a", "b"])
        XCTAssertEqual(harness.mirror, harness.current)
        XCTAssertEqual(harness.problems, [])
    }

    func testDelegateCallbackOrderAndAsyncSequence() async throws {
        final class Recorder: FetchedResultsControllerDelegate {
            var calls: [String] = []
            func controllerWillChangeContent(_ controller: AnyObject) { calls.append("will") }
            func controller(_ controller: AnyObject, didChangeSectionNamed name: String, atSectionIndex index: Int, for type: ResultsChangeType) {
                calls.append("section \(type) \(index)")
            }
            func controller(_ controller: AnyObject, didChange object: ManagedObject, at indexPath: IndexPath?, for type: ResultsChangeType, newIndexPath: IndexPath?) {
                calls.append("object \(type)")
            }
            func controllerDidChangeContent(_ controller: AnyObject) { calls.append("did") }
        }
        let context = try makeContainer(.inMemory, in: directory).newContext()
        let tasks = try makeTasks(context, [("a", false, 1)])
        let results = FetchedResultsController(fetchRequest: tasksRequest(), context: context, sectionNameKeyPath: \.isComplete)
        let recorder = Recorder()
        results.delegate = recorder
        try results.performFetch()
        let stream = results.changes
        tasks[0].isComplete = true
        context.processPendingChanges()
        XCTAssertEqual(recorder.calls, ["will", "section delete 0", "section insert 0", "object delete", "object insert", "did"])
        var iterator = stream.makeAsyncIterator()
        let change = await iterator.next()
        XCTAssertEqual(change?.deletedSections, IndexSet([0]))
    }

    func testReentrantSaveInsideObserverDeliversNoNestedChange() throws {
        let context = try makeContainer(.inMemory, in: directory).newContext()
        let tasks = try makeTasks(context, [("a", false, 1), ("b", false, 2)])
        let harness = try sectioned(context)
        var depth = 0, maxDepth = 0
        let token = harness.controller.observe { _ in
            depth += 1
            maxDepth = max(maxDepth, depth)
            if tasks[1].notes == nil {
                tasks[1].notes = "changed inside the callback"
                try? context.save()
                _ = try? context.fetch(tasksRequest())
            }
            depth -= 1
        }
        tasks[0].notes = "first"
        context.processPendingChanges()
        XCTAssertEqual(maxDepth, 1)
        XCTAssertEqual(harness.changes.count, 1)
        context.processPendingChanges()
        XCTAssertEqual(harness.changes.count, 2, "the change made inside the callback comes with the next call")
        XCTAssertEqual(harness.problems, [])
        token.cancel()
    }

    /// Large batches take the in-place merge path (more than 16 rows out or in): replayed
    /// change sets and the rows themselves must still equal a fresh fetch.
    func testLargeBatchesMatchAFreshFetch() throws {
        let seed = testSeed(#function)
        var rng = SeededGenerator(seed: seed)
        let context = try makeContainer(.inMemory, in: directory).newContext()
        var tasks = (0..<600).map { n -> TestTask in
            let task = TestTask(context: context)
            task.name = "t\(n)"
            task.isComplete = Bool.random(using: &rng)
            task.due = Int.random(in: 0..<5, using: &rng) == 0 ? nil : day(Int.random(in: 0..<30, using: &rng))
            return task
        }
        try context.save()
        let harness = try sectioned(context)
        for round in 0..<20 {
            for _ in 0..<Int.random(in: 17...300, using: &rng) {
                guard let task = tasks.randomElement(using: &rng) else { break }
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: task.isComplete.toggle()
                case 1: task.due = day(Int.random(in: 0..<30, using: &rng))
                case 2: task.due = nil
                case 3:
                    context.delete(task)
                    tasks.removeAll { $0 === task }
                default:
                    let added = TestTask(context: context)
                    added.name = "new"
                    added.due = day(Int.random(in: 0..<30, using: &rng))
                    tasks.append(added)
                }
            }
            if Bool.random(using: &rng) { try context.save() } else { context.processPendingChanges() }
            let fresh = try context.fetch(tasksRequest())
            XCTAssertEqual(harness.controller.fetchedObjects.map(ObjectIdentifier.init), fresh.map(ObjectIdentifier.init),
                           "seed \(seed) round \(round)")
            XCTAssertEqual(harness.mirror, harness.current, "seed \(seed) round \(round)")
            XCTAssertEqual(harness.problems, [], "seed \(seed) round \(round)")
        }
    }
}
