import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A results controller whose request has a `fetchBatchSize` holds each saved row's key and
/// sort values, not its object: objects are made a batch at a time as rows are read, and let
/// go. It reports the same changes as any controller: a generated test runs random local
/// edits, other contexts' saves and batch requests, and after each batch compares its rows and
/// its replayed change sets with a fresh fetch.
final class FetchedResultsControllerBatchedTests: XCTestCase {
    private func container(_ directory: TemporaryDirectory) throws -> PersistentContainer {
        try PersistentContainer(model: ManagedObjectModel(entities: [TestTask.self]), store: .sqlite(directory.file("batched.sqlite")))
    }

    private func insertTasks(_ count: Int, into context: ManagedObjectContext) throws {
        try context.execute(BatchInsertRequest<TestTask>(objects: (0..<count).map {
            ["name": "t\(String(format: "%05d", ($0 * 7_919) % count))", "isComplete": $0 % 3 == 0, "priority": $0 % 3]
        }))
    }

    private func batchedRequest(size: Int) -> FetchRequest<TestTask> {
        var request = FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.isComplete), FetchSortDescriptor(\.name)])
        request.fetchBatchSize = size
        return request
    }

    func testRowsAreKeysAndObjectsAreMadeABatchAtATime() throws {
        let directory = TemporaryDirectory()
        let container = try container(directory)
        try insertTasks(1_000, into: container.newContext())
        let context = container.newContext()
        let controller = FetchedResultsController(fetchRequest: batchedRequest(size: 50), context: context, sectionNameKeyPath: \.isComplete)
        try controller.performFetch()
        XCTAssertEqual(context.registeredObjects.count, 0, "no object made by the fetch")
        XCTAssertEqual(controller.sections.map(\.numberOfObjects), [666, 334])
        XCTAssertEqual(controller.sections.map(\.name), ["false", "true"])
        XCTAssertEqual(context.registeredObjects.count, 0, "sections count rows without objects")
        let plain = try context.fetch(batchedRequest(size: 0))
        let row = try XCTUnwrap(controller.object(at: IndexPath(item: 10, section: 1)))
        XCTAssertTrue(row === plain[676], "the context's one instance")
        XCTAssertEqual(controller.indexPath(forObject: plain[900]), IndexPath(item: 234, section: 1))
        XCTAssertEqual(controller.fetchedObjects.map(\.objectID), plain.map(\.objectID))
    }

    func testReadingEveryRowHoldsOnlyTheLastBatches() throws {
        let directory = TemporaryDirectory()
        let container = try container(directory)
        try insertTasks(5_000, into: container.newContext())
        let context = container.newContext()
        let controller = FetchedResultsController(fetchRequest: batchedRequest(size: 100), context: context)
        try controller.performFetch()
        var names = 0
        for item in 0..<controller.sections[0].numberOfObjects {
            if controller.object(at: IndexPath(item: item, section: 0))?.name.isEmpty == false { names += 1 }
        }
        XCTAssertEqual(names, 5_000)
        XCTAssertLessThanOrEqual(context.registeredObjects.count, 200, "the two batches read last")
    }

    /// Rows the context never held, deleted or changed elsewhere, leave or move: the merge names
    /// their keys, and reads the changed ones.
    func testChangesToRowsNeverReadAreReported() throws {
        let directory = TemporaryDirectory()
        let container = try container(directory)
        try insertTasks(300, into: container.newContext())
        let context = container.newContext()
        let watched = try ResultsWatcher(FetchedResultsController(fetchRequest: batchedRequest(size: 20), context: context,
                                                                  sectionNameKeyPath: \.isComplete))
        XCTAssertEqual(context.registeredObjects.count, 0, "the watcher reads IDs only")
        let other = container.newContext()
        let deleted = try other.execute(BatchDeleteRequest<TestTask>(predicate: \.name < "t00010"))
        XCTAssertEqual(deleted.count, 10)
        try other.execute(BatchUpdateRequest<TestTask>(predicate: \.name >= "t00290", propertiesToUpdate: ["isComplete": true]))
        let gone = try other.fetch(FetchRequest<TestTask>(predicate: \.name == "t00150")).first
        if let gone { other.delete(gone) }
        try other.save()
        context.processPendingChanges()
        XCTAssertEqual(watched.invalidations, 0, "merged exactly")
        XCTAssertEqual(watched.controller.updateCounts.refetch, 0, "placed in place, not refetched")
        try watched.check(against: container.newContext(), batchedRequest(size: 0), section: { "\($0.isComplete)" }, "after changes elsewhere")
        XCTAssertEqual(watched.changes.count, 1)
        XCTAssertEqual(watched.changes.first?.deletedRows.count, 11)
    }

    func testPendingChangesAreRowsToo() throws {
        let directory = TemporaryDirectory()
        let container = try container(directory)
        try insertTasks(100, into: container.newContext())
        let context = container.newContext()
        let added = TestTask(context: context)
        added.name = "t00042a"
        let changed = try XCTUnwrap(context.fetch(FetchRequest<TestTask>(predicate: \.name == "t00007")).first)
        changed.isComplete = true
        let watcher = try ResultsWatcher(FetchedResultsController(fetchRequest: batchedRequest(size: 10), context: context,
                                                                  sectionNameKeyPath: \.isComplete))
        try watcher.check(against: context, batchedRequest(size: 0), section: { "\($0.isComplete)" }, "pending at the fetch")
        changed.isComplete = false
        let another = TestTask(context: context)
        another.name = "a"
        context.processPendingChanges()
        try watcher.check(against: context, batchedRequest(size: 0), section: { "\($0.isComplete)" }, "pending after the fetch")
        try context.save()
        // The inserted objects have permanent IDs now; the rows say so.
        let fresh = try context.fetch(batchedRequest(size: 0))
        XCTAssertEqual(watcher.current.flatMap { $0 }, fresh.map(\.objectID), "after the save")
        XCTAssertEqual(watcher.problems, [])
    }

    func testSortsThroughToOnesUseTheStoredValues() throws {
        let directory = TemporaryDirectory()
        let context = try makeGraphContainer(directory).newContext()
        let projects = ["b", "a", "c"].map { name in
            let project = GProject(context: context)
            project.name = name
            return project
        }
        try context.save()
        try context.execute(BatchInsertRequest<GTask>(objects: (0..<30).map { ["title": "t\($0)", "project": projects[$0 % 3].objectID] }))
        var request = FetchRequest<GTask>(sortBy: [FetchSortDescriptor<GTask>(key: "project.name"), FetchSortDescriptor(\.title)])
        request.fetchBatchSize = 4
        let watcher = try ResultsWatcher(FetchedResultsController(fetchRequest: request, context: context))
        XCTAssertEqual(watcher.controller.fetchedObjects.map(\.objectID), try context.fetch(request).map(\.objectID))
        let task = try XCTUnwrap(context.fetch(FetchRequest<GTask>(predicate: \.title == "t0")).first)
        task.project = projects[2]
        context.processPendingChanges()
        XCTAssertEqual(watcher.controller.fetchedObjects.map(\.objectID), try context.fetch(request).map(\.objectID))
        XCTAssertEqual(watcher.problems, [])
    }

    // MARK: Generated

    private struct Configuration {
        var sectioned: Bool
        var batchSize: Int
        var limit: Int
        var predicate: FetchPredicate<TestTask>?
        /// The most rows a chunk of the controller's rows holds: a few, so that chunks split and go.
        var chunk = ResultsRowStore.defaultMaxChunk
    }

    func testRandomChangesReplayToAFreshFetch() throws {
        let seed = testSeed("FetchedResultsControllerBatchedTests.testRandomChangesReplayToAFreshFetch")
        var rng = SeededGenerator(seed: seed)
        let batches = testSize("FetchedResultsControllerBatchedTests.testRandomChangesReplayToAFreshFetch batches", full: 80, ci: 30)
        let configurations = [
            Configuration(sectioned: true, batchSize: 3, limit: 0, predicate: nil),
            Configuration(sectioned: false, batchSize: 5, limit: 0, predicate: \.priority != .low),
            Configuration(sectioned: true, batchSize: 2, limit: 6, predicate: nil),
            Configuration(sectioned: false, batchSize: 7, limit: 0, predicate: \.priority >= .normal || \.due == nil),
            Configuration(sectioned: true, batchSize: 3, limit: 0, predicate: nil, chunk: 2),
            Configuration(sectioned: false, batchSize: 5, limit: 0, predicate: \.priority != .low, chunk: 3),
        ]
        for (index, configuration) in configurations.enumerated() {
            try run(configuration, batches: batches, seed: seed, rng: &rng, label: "configuration \(index)")
        }
    }

    /// The generator, shared by the helpers of one run.
    private final class Dice {
        var rng: SeededGenerator
        init(_ rng: SeededGenerator) { self.rng = rng }
    }

    private func run(_ configuration: Configuration, batches: Int, seed: UInt64, rng: inout SeededGenerator, label: String) throws {
        let dice = Dice(SeededGenerator(seed: rng.next()))
        let directory = TemporaryDirectory()
        let container = try container(directory)
        let context = container.newContext(), other = container.newContext()
        var created: [TestTask] = []
        var temporaryIDs: [ObjectIdentifier: ObjectID] = [:]
        func randomValues() -> [String: Any?] {
            ["name": "t\(Int.random(in: 0..<1000, using: &dice.rng))", "isComplete": Bool.random(using: &dice.rng),
             "due": Int.random(in: 0..<4, using: &dice.rng) == 0 ? nil : day(Int.random(in: 0..<10, using: &dice.rng)),
             "priority": Int.random(in: 0..<3, using: &dice.rng)]
        }
        func randomTask(in target: ManagedObjectContext) throws {
            let task = TestTask(context: target)
            for (key, value) in randomValues() { try task.setValue(value, forKey: key) }
            if target === context {
                created.append(task)
                temporaryIDs[ObjectIdentifier(task)] = task.objectID
            }
        }
        try other.execute(BatchInsertRequest<TestTask>(objects: (0..<40).map { _ in randomValues() }))
        var request = tasksRequest(predicate: configuration.predicate, limit: configuration.limit)
        if !configuration.sectioned { request.sortDescriptors = [FetchSortDescriptor(\.due, nils: .last), FetchSortDescriptor(\.name)] }
        request.fetchBatchSize = configuration.batchSize
        let controller = configuration.sectioned
            ? FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: \.isComplete)
            : FetchedResultsController(fetchRequest: request, context: context)
        controller.rowChunkSize = configuration.chunk
        let watcher = try ResultsWatcher(controller)
        var plain = request
        plain.fetchBatchSize = 0
        for batch in 0..<batches {
            var log: [String] = []
            created = created.filter { !$0.isDeleted && $0.managedObjectContext === context }
            for _ in 0..<Int.random(in: 1...12, using: &dice.rng) {
                log.append(try randomStep(context, other, created: created, dice: dice, insert: randomTask, values: randomValues))
            }
            context.processPendingChanges()
            // A fetch refreshes objects changed and changed back since another save (they
            // have no change of their own left): controllers hear of it at the next
            // processPendingChanges, so the oracle's fetch runs first.
            _ = try context.fetch(plain)
            context.processPendingChanges()
            // The mirror holds IDs as they were reported: an object saved since has a new one.
            let permanent = Dictionary(created.compactMap { task in temporaryIDs[ObjectIdentifier(task)].map { ($0, task.objectID) } },
                                       uniquingKeysWith: { a, _ in a })
            let mirror = watcher.mirror.map { $0.map { permanent[$0] ?? $0 } }
            let message = "seed \(seed) \(label) batch \(batch): \(log.joined(separator: ", "))"
            let expected = try sections(context, plain, sectioned: configuration.sectioned)
            XCTAssertEqual(watcher.current, expected, "rows differ from a fresh fetch; " + message)
            XCTAssertEqual(mirror, expected, "replayed change sets differ from a fresh fetch; " + message)
            XCTAssertEqual(watcher.problems, [], message)
            if watcher.current != expected || mirror != expected || !watcher.problems.isEmpty { return }
        }
    }

    /// One random change: a local edit, insert, delete, save or rollback; another context's
    /// save; or another context's batch request.
    private func randomStep(_ context: ManagedObjectContext, _ other: ManagedObjectContext, created: [TestTask],
                            dice: Dice, insert: (ManagedObjectContext) throws -> Void,
                            values: () -> [String: Any?]) throws -> String {
        // Saved objects are picked from a fetch, so the context holds only what a step touches.
        let saved = try context.fetch(FetchRequest<TestTask>(predicate: \.name < "t5"))
        let target = (created + saved).randomElement(using: &dice.rng)
        switch (Int.random(in: 0..<12, using: &dice.rng), target) {
        case (0, _), (_, nil):
            try insert(context)
            return "insert"
        case (1, let task?):
            context.delete(task)
            return "delete \(task.name)"
        case (2, let task?):
            task.isComplete.toggle()
            return "toggle \(task.name)"
        case (3, let task?):
            task.due = Bool.random(using: &dice.rng) ? nil : day(Int.random(in: 0..<10, using: &dice.rng))
            return "due \(task.name)"
        case (4, let task?):
            task.priority = Priority.allCases.randomElement(using: &dice.rng) ?? .low
            return "priority \(task.name)"
        case (5, _):
            do {
                try context.save()
                return "save"
            } catch let error as PersistError where error.code == .conflict {
                context.rollback()
                return "save conflicted, rolled back"
            }
        case (6, _):
            context.rollback()
            return "rollback"
        case (7, _):
            let bound = "t\(Int.random(in: 0..<1000, using: &dice.rng))"
            let result = try other.execute(BatchDeleteRequest<TestTask>(predicate: \.name >= bound && \.name < bound + "5"))
            return "other batch-deleted \(result.count)"
        case (8, _):
            let bound = "t\(Int.random(in: 0..<1000, using: &dice.rng))"
            let result = try other.execute(BatchUpdateRequest<TestTask>(predicate: \.name < bound,
                                                                        propertiesToUpdate: ["isComplete": Bool.random(using: &dice.rng)]))
            return "other batch-updated \(result.count)"
        case (9, _):
            let result = try other.execute(BatchInsertRequest<TestTask>(objects: (0..<Int.random(in: 1...5, using: &dice.rng)).map { _ in values() }))
            return "other batch-inserted \(result.count)"
        default:
            let theirs = try other.fetch(FetchRequest<TestTask>(predicate: \.name < "t3"))
            if let pick = theirs.randomElement(using: &dice.rng) {
                if Bool.random(using: &dice.rng) { other.delete(pick) } else { pick.isComplete.toggle() }
            } else {
                try insert(other)
            }
            do {
                try other.save()
                return "other saved"
            } catch let error as PersistError where error.code == .conflict {
                other.rollback()
                return "other conflicted"
            }
        }
    }

    private func sections(_ context: ManagedObjectContext, _ request: FetchRequest<TestTask>, sectioned: Bool) throws -> [[ObjectID]] {
        let objects = try context.fetch(request)
        guard sectioned else { return [objects.map(\.objectID)] }
        var sections: [[ObjectID]] = []
        var previous: Bool?
        for object in objects {
            if previous != object.isComplete { sections.append([]) }
            sections[sections.count - 1].append(object.objectID)
            previous = object.isComplete
        }
        return sections
    }
}
