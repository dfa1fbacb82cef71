import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// The results controller's delegate: typed callbacks, their order, section names.
final class FetchedResultsControllerDelegateTests: XCTestCase {
    private var directory = TemporaryDirectory()

    override func setUp() { directory = TemporaryDirectory() }

    /// Records every callback; reads the typed controller and objects it is handed.
    private final class Recorder: FetchedResultsControllerDelegate {
        var calls: [String] = []
        weak var expected: FetchedResultsController<TestTask>?
        var log: ((String) -> Void)?

        private func record(_ call: String, _ controller: FetchedResultsController<TestTask>) {
            calls.append(call)
            log?(call)
            if controller !== expected { calls.append("another controller") }
        }

        func controllerWillChangeContent(_ controller: FetchedResultsController<TestTask>) {
            record("will", controller)
        }

        func controller(_ controller: FetchedResultsController<TestTask>, didChangeSectionNamed name: String,
                        atSectionIndex index: Int, for type: ResultsChangeType) {
            record("section \(type) \(index) \"\(name)\"", controller)
        }

        func controller(_ controller: FetchedResultsController<TestTask>, didChange task: TestTask, at indexPath: IndexPath?,
                        for type: ResultsChangeType, newIndexPath: IndexPath?) {
            // `task` is a TestTask, and the controller's new state answers for new paths.
            let paths = [indexPath, newIndexPath].map { $0.map(ChangeSet.text) ?? "-" }.joined(separator: " ")
            var line = "object \(type) \(task.name) \(paths)"
            if let newIndexPath, controller.object(at: newIndexPath) !== task { line += " (not at its new path)" }
            record(line, controller)
        }

        func controllerDidChangeContent(_ controller: FetchedResultsController<TestTask>) {
            record("did", controller)
        }
    }

    private func makeTasks(_ context: ManagedObjectContext, _ specs: [(String, Bool, Int)]) throws -> [TestTask] {
        let tasks = specs.map { spec -> TestTask in
            let task = TestTask(context: context)
            task.name = spec.0
            task.isComplete = spec.1
            task.due = day(spec.2)
            return task
        }
        try context.save()
        return tasks
    }

    private func watched(_ context: ManagedObjectContext, limit: Int = 0) throws -> (FetchedResultsController<TestTask>, Recorder) {
        let results = FetchedResultsController(fetchRequest: tasksRequest(limit: limit), context: context,
                                               sectionNameKeyPath: \.isComplete)
        let recorder = Recorder()
        recorder.expected = results
        results.delegate = recorder
        try results.performFetch()
        return (results, recorder)
    }

    func testCallbackOrderWithTheTypedControllerAndObjects() throws {
        let context = try makeContainer(.inMemory, in: directory).newContext()
        let tasks = try makeTasks(context, [("a", false, 1), ("b", false, 2)])
        let (results, recorder) = try watched(context)
        tasks[0].isComplete = true
        context.processPendingChanges()
        // Into an inserted section: a delete plus an insert.
        XCTAssertEqual(recorder.calls, ["will", "section insert 1 \"true\"", "object delete a [0, 0] -",
                                        "object insert a - [1, 0]", "did"])
        recorder.calls = []
        tasks[1].due = day(0)
        context.processPendingChanges()
        XCTAssertEqual(recorder.calls, ["will", "object update b [0, 0] [0, 0]", "did"])
        recorder.calls = []
        tasks[1].isComplete = true
        context.processPendingChanges()
        XCTAssertEqual(recorder.calls, ["will", "section delete 0 \"false\"", "object delete b [0, 0] -",
                                        "object insert b - [0, 0]", "did"])
        XCTAssertTrue(results.delegate === recorder)
    }

    func testDeletedSectionsAreReportedByName() throws {
        // Deleting every task deletes both sections: each is named as it was, not "".
        let context = try makeContainer(.sqlite, in: directory).newContext()
        let tasks = try makeTasks(context, [("a", false, 1), ("b", true, 2)])
        let (results, recorder) = try watched(context)
        tasks.forEach(context.delete)
        try context.save()
        XCTAssertEqual(recorder.calls, ["will", "section delete 0 \"false\"", "section delete 1 \"true\"",
                                        "object delete a [0, 0] -", "object delete b [1, 0] -", "did"])
        XCTAssertEqual(results.sections.count, 0)
    }

    func testDeletedSectionNamesAfterARefetch() throws {
        // A fetch limit takes the refetch path: it names deleted sections and objects too.
        let context = try makeContainer(.sqlite, in: directory).newContext()
        let tasks = try makeTasks(context, [("a", false, 1), ("b", true, 2)])
        let (results, recorder) = try watched(context, limit: 5)
        context.delete(tasks[0])
        try context.save()
        XCTAssertEqual(recorder.calls, ["will", "section delete 0 \"false\"", "object delete a [0, 0] -", "did"])
        XCTAssertEqual(results.updateCounts.refetch, 1)
    }

    func testDelegateRunsBeforeObserversAndTheSequence() async throws {
        let context = try makeContainer(.inMemory, in: directory).newContext()
        let tasks = try makeTasks(context, [("a", false, 1)])
        let (results, recorder) = try watched(context)
        var order: [String] = []
        recorder.log = { order.append("delegate " + $0) }
        let first = results.observe { _ in order.append("observer 1") }
        let second = results.observe { _ in order.append("observer 2") }
        let stream = results.changes
        tasks[0].notes = "edited"
        context.processPendingChanges()
        XCTAssertEqual(order, ["delegate will", "delegate object update a [0, 0] [0, 0]", "delegate did", "observer 1", "observer 2"])
        var iterator = stream.makeAsyncIterator()
        let change = await iterator.next()
        XCTAssertEqual(change?.updatedRows.first?.to, IndexPath(item: 0, section: 0))
        first.cancel()
        second.cancel()
    }

    func testDelegateIsHeldWeakly() throws {
        let context = try makeContainer(.inMemory, in: directory).newContext()
        let results = FetchedResultsController(fetchRequest: tasksRequest(), context: context)
        do {
            let recorder = Recorder()
            results.delegate = recorder
            XCTAssertNotNil(results.delegate)
        }
        XCTAssertNil(results.delegate)
    }
}
