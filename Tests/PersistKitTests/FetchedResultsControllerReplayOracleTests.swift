import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Random batches of changes; after each, the change sets the controller delivered, replayed
/// on the old sections, must equal a fresh fetch, and every change set must be valid.
final class FetchedResultsControllerReplayOracleTests: XCTestCase {
    private struct Configuration {
        var sectioned: Bool
        var limit: Int
        var predicate: FetchPredicate<TestTask>?
        var store: StoreKind
        /// The most rows a chunk of the controller's rows holds: a few, so that chunks split and go.
        var chunk = ResultsRowStore.defaultMaxChunk
    }

    func testRandomBatchesReplayToAFreshFetch() throws {
        let seed = testSeed(#function)
        var rng = SeededGenerator(seed: seed)
        var batches = 0
        let configurations: [Configuration] = [
            Configuration(sectioned: true, limit: 0, predicate: nil, store: .inMemory),
            Configuration(sectioned: false, limit: 0, predicate: nil, store: .inMemory),
            Configuration(sectioned: true, limit: 7, predicate: nil, store: .inMemory),
            Configuration(sectioned: false, limit: 5, predicate: \.priority != .low, store: .inMemory),
            Configuration(sectioned: true, limit: 0, predicate: \.priority != .low || \.due == nil, store: .inMemory),
            Configuration(sectioned: false, limit: 0, predicate: !(\.due > day(6)), store: .inMemory),
            Configuration(sectioned: true, limit: 0, predicate: \.priority >= .normal, store: .sqlite),
            Configuration(sectioned: true, limit: 4, predicate: \.priority != .high, store: .sqlite),
            // Few matches: the unsectioned controller's one section often empties and refills.
            Configuration(sectioned: false, limit: 0, predicate: \.priority == .high && \.due == nil, store: .inMemory),
            Configuration(sectioned: false, limit: 2, predicate: \.priority == .high && \.due == nil, store: .sqlite),
            // Rows in chunks of two to four: changes split chunks, empty them, and cross them.
            Configuration(sectioned: true, limit: 0, predicate: nil, store: .inMemory, chunk: 2),
            Configuration(sectioned: false, limit: 0, predicate: \.priority != .low, store: .inMemory, chunk: 3),
            Configuration(sectioned: true, limit: 0, predicate: \.priority >= .normal, store: .sqlite, chunk: 4),
        ]
        for (index, configuration) in configurations.enumerated() {
            let count = configuration.store == .sqlite ? 80 : 150
            batches += try run(configuration, batches: count, seed: seed, rng: &rng, label: "configuration \(index)")
        }
        XCTAssertGreaterThanOrEqual(batches, 1_000)
    }

    private func run(_ configuration: Configuration, batches: Int, seed: UInt64, rng: inout SeededGenerator, label: String) throws -> Int {
        let directory = TemporaryDirectory()
        let container = try makeContainer(configuration.store, in: directory)
        let context = container.newContext()
        let other = container.newContext()
        var tasks: [TestTask] = []
        func randomTask(in context: ManagedObjectContext) -> TestTask {
            let task = TestTask(context: context)
            task.name = "t\(Int.random(in: 0..<1000, using: &rng))"
            task.due = Int.random(in: 0..<4, using: &rng) == 0 ? nil : day(Int.random(in: 0..<10, using: &rng))
            task.isComplete = Bool.random(using: &rng)
            task.priority = Priority.allCases.randomElement(using: &rng) ?? .normal
            return task
        }
        for _ in 0..<20 { tasks.append(randomTask(in: context)) }
        try context.save()

        var request = tasksRequest(predicate: configuration.predicate, limit: configuration.limit)
        if !configuration.sectioned { request.sortDescriptors = [FetchSortDescriptor(\.due, nils: .last), FetchSortDescriptor(\.name)] }
        let controller = configuration.sectioned
            ? FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: \.isComplete)
            : FetchedResultsController(fetchRequest: request, context: context)
        controller.rowChunkSize = configuration.chunk
        let harness = try ControllerHarness(controller)

        for batch in 0..<batches {
            var log: [String] = []
            tasks = tasks.filter { !$0.isDeleted && $0.managedObjectContext === context }
            let stepwise = ProcessInfo.processInfo.environment["PERSISTKIT_ORACLE_STEPWISE"] != nil
            for _ in 0..<Int.random(in: 1...30, using: &rng) {
                if stepwise {
                    let expected = try expectedSections(context, request, sectioned: configuration.sectioned)
                    context.processPendingChanges()
                    if harness.current != expected {
                        XCTFail("stepwise: differs after \(log.joined(separator: ", "))")
                        return batch
                    }
                }
                let target = tasks.randomElement(using: &rng)
                switch Int.random(in: 0..<11, using: &rng) {
                case 0:
                    tasks.append(randomTask(in: context)); log.append("insert")
                case 1:
                    if let target { context.delete(target); log.append("delete \(target.name)") }
                case 2:
                    if let target { target.due = Bool.random(using: &rng) ? nil : day(Int.random(in: 0..<10, using: &rng)); log.append("due \(target.name)") }
                case 3:
                    if let target {
                        let flags = "ins\(target.isInserted ? 1 : 0)u\(target.insertUnprocessed ? 1 : 0)d\(target.isDeleted ? 1 : 0)c\(target.committedStorage == nil ? 0 : 1)x\(target.managedObjectContext === context ? 1 : 0)ch\(context.changeTracker.changed[ObjectIdentifier(target)] != nil ? 1 : 0)"
                        target.isComplete.toggle(); log.append("toggle \(target.name) [\(flags)]")
                    }
                case 4:
                    if let target { target.notes = "n\(Int.random(in: 0..<5, using: &rng))"; log.append("notes \(target.name)") }
                case 5:
                    if let target { target.name = target.name; target.due = target.due; log.append("equal \(target.name)") }
                case 6:
                    if let target { target.priority = Priority.allCases.randomElement(using: &rng) ?? .low; log.append("priority \(target.name)") }
                case 7:
                    if Int.random(in: 0..<3, using: &rng) == 0 { context.rollback(); log.append("rollback") }
                case 8:
                    do {
                        try context.save()
                        log.append("save")
                    } catch let error as PersistError where error.code == .conflict {
                        context.rollback()
                        for task in tasks where !task.isDeleted { context.refresh(task, mergeChanges: false) }
                        log.append("save conflicted, rolled back")
                    }
                default:
                    // Another context changes saved objects and saves.
                    let theirs = try other.fetch(FetchRequest<TestTask>())
                    var what = "nothing"
                    if let pick = theirs.randomElement(using: &rng) {
                        switch Int.random(in: 0..<4, using: &rng) {
                        case 0: other.delete(pick); what = "deleted \(pick.name)"
                        case 1: pick.isComplete.toggle(); what = "toggled \(pick.name)"
                        case 2: pick.due = day(Int.random(in: 0..<10, using: &rng)); what = "due \(pick.name)"
                        default: what = "inserted \(randomTask(in: other).name)"
                        }
                    }
                    do {
                        try other.save()
                        log.append("other saved (\(what))")
                    } catch let error as PersistError where error.code == .conflict {
                        other.rollback()
                        log.append("other conflicted")
                    }
                }
            }
            do {
                context.processPendingChanges()
                if Bool.random(using: &rng) { try context.save() }
            } catch let error as PersistError where error.code == .conflict {
                context.rollback()
                for task in tasks where !task.isDeleted { context.refresh(task, mergeChanges: false) }
                context.processPendingChanges()
                log.append("conflict, rolled back")
            }
            // A fetch may find objects another context saved while they had local changes here,
            // and refresh them; the controller hears of it at the next processPendingChanges().
            _ = try expectedSections(context, request, sectioned: configuration.sectioned)
            context.processPendingChanges()
            let expected = try expectedSections(context, request, sectioned: configuration.sectioned)
            let actual = harness.current
            let message = "seed \(seed) \(label) batch \(batch): \(log.joined(separator: ", "))"
            if actual != expected {
                let byID = Dictionary(try context.fetch(FetchRequest<TestTask>()).map { (ObjectIdentifier($0), $0) }, uniquingKeysWith: { a, _ in a })
                let flatActual = actual.flatMap { $0 }, flatExpected = expected.flatMap { $0 }
                var detail: [String] = []
                for (index, id) in flatExpected.enumerated() where flatActual.firstIndex(of: id) != index {
                    if let task = byID[id] {
                        detail.append("\(task.name) at \(flatActual.firstIndex(of: id) ?? -1) should be \(index): complete \(task.isComplete) due \(String(describing: task.due)) \(task.priority) v\(task.version) changed \(task.hasChanges)")
                    }
                }
                for object in controller.fetchedObjects where !flatExpected.contains(ObjectIdentifier(object)) {
                    detail.insert("EXTRA \(object.name) \(object.objectID) deleted \(object.isDeleted) inContext \(object.managedObjectContext === context) complete \(object.isComplete) \(object.priority) v\(object.version) pendingDeletion \(context.deletedObjects.contains { $0 === object })", at: 0)
                }
                XCTFail("controller state differs from a fresh fetch; " + message + "\n" + detail.joined(separator: "\n"))
            }
            XCTAssertEqual(harness.mirror, expected, "replayed change sets differ from a fresh fetch; " + message)
            XCTAssertEqual(harness.problems, [], message)
            if actual != expected || harness.mirror != expected || !harness.problems.isEmpty { return batch }
        }
        return batches
    }

    private func expectedSections(_ context: ManagedObjectContext, _ request: FetchRequest<TestTask>, sectioned: Bool) throws -> [[ObjectIdentifier]] {
        let objects = try context.fetch(request)
        guard sectioned else { return [objects.map(ObjectIdentifier.init)] }   // always one section, even empty
        var sections: [[ObjectIdentifier]] = []
        var previous: Bool?
        for object in objects {
            if previous != object.isComplete { sections.append([]) }
            sections[sections.count - 1].append(ObjectIdentifier(object))
            previous = object.isComplete
        }
        return sections
    }
}
