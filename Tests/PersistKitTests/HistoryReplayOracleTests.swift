import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// Two processes save at random on one store; a controller in this one merges the other's
/// saves from the persistent history. After every merge the controller's rows equal a fresh
/// fetch (objects and values), its change sets replayed on the old rows give the new rows, and
/// the merge was exact: no "everything changed" except after the other process purged the
/// history before it was read.
///
/// The child is this test binary started again (see `ChildProcess`), in lock step: for each
/// step this process writes `go-<n>` (with `purge` when the child should purge at its end),
/// saves at random itself while the child does its batch, waits for `done-<n>`, then merges.
final class HistoryReplayOracleTests: XCTestCase {
    static let childRole = "history-replay-writer"

    private final class Observed {
        var invalidations = 0
    }

    func testControllersMergeAnotherProcessesRandomSavesExactly() throws {
        let seed = testSeed("HistoryReplayOracleTests.testControllersMergeAnotherProcessesRandomSavesExactly")
        let steps = testSize("HistoryReplayOracleTests", full: 150, ci: 30)
        var rng = SeededGenerator(seed: seed)
        let directory = TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        let model = try ManagedObjectModel(entities: [TestTask.self])
        let mine = try PersistentContainer(model: model, store: .sqlite(url))
        let reference = try PersistentContainer(model: model, store: .sqlite(url))
        let local = mine.newContext()
        local.transactionAuthor = "parent"
        for _ in 0..<20 { Self.randomTask(in: local, rng: &rng) }
        try local.save()

        let watched = mine.newContext()
        let sectioned = try ControllerHarness(FetchedResultsController(
            fetchRequest: tasksRequest(predicate: \.priority != .low), context: watched, sectionNameKeyPath: \.isComplete))
        let plainRequest = FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.due, nils: .last), FetchSortDescriptor(\.name)])
        let plain = try ControllerHarness(FetchedResultsController(fetchRequest: plainRequest, context: watched))
        let observed = Observed()
        let token = watched.addObserver { if $0.invalidatedAll { observed.invalidations += 1 } }
        defer { token.cancel() }
        let ledger = NoticeLedger(watched)
        _ = ledger.unannouncedChanges(in: watched)

        let child = try ChildProcess.start(role: Self.childRole, settings: [
            "STORE": url.path, "DIRECTORY": directory.url.path, "SEED": String(seed), "STEPS": String(steps)])
        defer { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }

        var exactMerges = 0, purges = 0
        for step in 0..<steps {
            let purge = Int.random(in: 0..<10, using: &rng) == 0
            purges += purge ? 1 : 0
            ChildProcess.report(purge ? "purge" : "", to: directory.file("go-\(step)").path)
            try Self.randomSaves(local, count: Int.random(in: 0...3, using: &rng), rng: &rng)
            guard ChildProcess.awaitReport(at: directory.file("done-\(step)").path, until: Date().addingTimeInterval(120)) != nil else {
                return XCTFail("seed \(seed) step \(step): the child did not finish its batch")
            }
            let before = observed.invalidations
            watched.processPendingChanges()
            let message = "seed \(seed) step \(step)\(purge ? " (purged)" : "")"
            var failed = observed.invalidations - before != (purge ? 1 : 0)
            XCTAssertEqual(observed.invalidations - before, purge ? 1 : 0, "exact unless purged: " + message)
            exactMerges += observed.invalidations == before ? 1 : 0
            let untold = ledger.unannouncedChanges(in: watched)
            XCTAssertEqual(untold, [], "values changed without a notice: " + message)
            failed = failed || !untold.isEmpty
            for (harness, request, isSectioned) in [(sectioned, tasksRequest(predicate: \.priority != .low), true),
                                                    (plain, plainRequest, false)] {
                let expected = try Self.sections(watched, request, sectioned: isSectioned)
                let values = harness.controller.fetchedObjects.map(Self.values)
                let stored = try reference.newContext().fetch(request).map(Self.values)
                XCTAssertEqual(harness.current, expected, "rows differ from a fresh fetch: " + message)
                XCTAssertEqual(harness.mirror, expected, "replayed change sets differ from a fresh fetch: " + message)
                XCTAssertEqual(harness.problems, [], message)
                XCTAssertEqual(values, stored, "values differ from the store: " + message)
                failed = failed || harness.current != expected || harness.mirror != expected || !harness.problems.isEmpty || values != stored
            }
            if failed { return }
        }
        XCTAssertTrue(ChildProcess.wait(for: child, timeout: 60), "seed \(seed): the child ends by itself")
        XCTAssertEqual(child.terminationStatus, 0, "seed \(seed)")
        let authors = Set(try mine.history(after: nil).compactMap(\.author))
        XCTAssertTrue(authors.isSubset(of: ["parent", "child"]), "\(authors)")
        print("HistoryReplayOracleTests: \(steps) steps, \(exactMerges) exact merges, \(purges) purges")
    }

    // MARK: Random saves

    @discardableResult
    static func randomTask(in context: ManagedObjectContext, rng: inout SeededGenerator) -> TestTask {
        let task = TestTask(context: context)
        task.name = "t\(Int.random(in: 0..<1000, using: &rng))"
        task.due = Int.random(in: 0..<4, using: &rng) == 0 ? nil : day(Int.random(in: 0..<10, using: &rng))
        task.isComplete = Bool.random(using: &rng)
        task.priority = Priority.allCases.randomElement(using: &rng) ?? .normal
        return task
    }

    /// `count` saves of one to three random changes each; a save that conflicts is rolled back.
    static func randomSaves(_ context: ManagedObjectContext, count: Int, rng: inout SeededGenerator) throws {
        for _ in 0..<count {
            let tasks = try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.name)]))
            // Now and then a bulk change, which a controller takes in with one refetch.
            let bulk = Int.random(in: 0..<15, using: &rng) == 0
            for _ in 0..<(bulk ? 40 : Int.random(in: 1...3, using: &rng)) {
                let target = tasks.filter { !$0.isDeleted }.randomElement(using: &rng)
                switch (Int.random(in: 0..<6, using: &rng), target) {
                case (0, _), (_, nil): randomTask(in: context, rng: &rng)
                case (1, let task?): context.delete(task)
                case (2, let task?): task.isComplete.toggle()
                case (3, let task?): task.due = Bool.random(using: &rng) ? nil : day(Int.random(in: 0..<10, using: &rng))
                case (4, let task?): task.priority = Priority.allCases.randomElement(using: &rng) ?? .low
                case (_, let task?): task.notes = "n\(Int.random(in: 0..<5, using: &rng))"
                }
            }
            do {
                try context.save()
            } catch let error as PersistError where error.code == .conflict {
                context.rollback()
                for task in tasks where !task.isDeleted { context.refresh(task, mergeChanges: false) }
            }
        }
    }

    /// In the child: one batch of random saves per `go-<n>`, then `done-<n>`.
    static func playChild() -> Int32 {
        guard let path = ChildProcess.setting("STORE"), let directory = ChildProcess.setting("DIRECTORY"),
              let seed = ChildProcess.setting("SEED").flatMap(UInt64.init), let steps = ChildProcess.setting("STEPS").flatMap(Int.init)
        else { return 2 }
        do {
            let model = try ManagedObjectModel(entities: [TestTask.self])
            let container = try PersistentContainer(model: model, store: .sqlite(URL(fileURLWithPath: path)))
            let context = container.newContext()
            context.transactionAuthor = "child"
            var rng = SeededGenerator(seed: seed ^ 0x5EED)
            for step in 0..<steps {
                let go = (directory as NSString).appendingPathComponent("go-\(step)")
                guard let order = ChildProcess.awaitReport(at: go, until: Date().addingTimeInterval(120)) else { return 4 }
                try randomSaves(context, count: Int.random(in: 1...4, using: &rng), rng: &rng)
                if order == "purge" { try container.purgeHistory(before: Date().addingTimeInterval(60)) }
                ChildProcess.report("done", to: (directory as NSString).appendingPathComponent("done-\(step)"))
            }
            return 0
        } catch {
            return 5
        }
    }

    // MARK: Comparing

    private static func values(_ task: TestTask) -> String {
        "\(task.objectID.primaryKey ?? -1) \(task.name) \(task.notes ?? "-") \(task.due.map { "\($0.timeIntervalSince1970)" } ?? "-") "
            + "\(task.isComplete) \(task.priority)"
    }

    private static func sections(_ context: ManagedObjectContext, _ request: FetchRequest<TestTask>, sectioned: Bool) throws -> [[ObjectIdentifier]] {
        let objects = try context.fetch(request)
        guard sectioned else { return [objects.map(ObjectIdentifier.init)] }
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
