import Dispatch
import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

/// A value shared between threads in a test.
private final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read and written while holding `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withValue<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }

    var current: Value { withValue { $0 } }
}

/// Background contexts, `perform`, automatic merging, and reads beside a save: what runs at
/// once, and what each context sees. These tests also run under the thread sanitizer in CI.
final class BackgroundContextTests: XCTestCase {

    // MARK: performBackgroundTask and perform

    func testPerformBackgroundTaskRunsOffTheMainThreadAndReturnsItsResult() async throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory)
        let (id, onMain) = try await container.performBackgroundTask { context in
            let task = TestTask(context: context)
            task.name = "made in the background"
            try context.save()
            return (task.objectID, Thread.isMainThread)
        }
        XCTAssertFalse(onMain, "the work runs off the main thread")
        XCTAssertFalse(id.isTemporary)
        let name = try await container.performBackgroundTask { context in
            (try context.existingObject(with: id) as? TestTask)?.name
        }
        XCTAssertEqual(name, "made in the background")
    }

    func testPerformBackgroundTaskRethrowsAndSavesNothing() async throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory)
        do {
            try await container.performBackgroundTask { context in
                let task = TestTask(context: context)
                task.name = "never saved"
                throw PersistError(.misuse, "stop here")
            }
            XCTFail("the closure's error is rethrown")
        } catch let error as PersistError {
            XCTAssertEqual(error.message, "stop here")
        }
        XCTAssertEqual(try container.newContext().count(for: FetchRequest<TestTask>()), 0)
    }

    func testPerformAndPerformAndWaitTellObserversAtTheEnd() async throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory)
        let context = container.newContext()
        var notices: [ContextChanges] = []
        let token = context.addObserver { notices.append($0) }
        let name = await context.perform {
            let task = TestTask(context: context)
            task.name = "performed"
            return task.name
        }
        XCTAssertEqual(name, "performed")
        XCTAssertEqual(notices.count, 1, "observers hear of the block's changes when it ends")
        XCTAssertEqual(notices.first?.inserted.count, 1)
        try context.performAndWait { try context.save() }
        let count = try context.performAndWait { try context.count(for: FetchRequest<TestTask>()) }
        XCTAssertEqual(count, 1)
        do {
            try await context.perform { throw PersistError(.misuse, "from perform") }
            XCTFail("perform rethrows")
        } catch let error as PersistError {
            XCTAssertEqual(error.message, "from perform")
        }
        token.cancel()
    }

    /// Several background tasks insert, save and fetch at once: every save is seen whole by
    /// its own context at once, counts never go down, and nothing is lost.
    func testBackgroundTasksSaveAndFetchAtOnce() async throws {
        let workers = 6, batches = 5, perBatch = 20
        for kind in StoreKind.allCases {
            let directory = TemporaryDirectory()
            let container = try makeContainer(kind, in: directory)
            let problems = try await withThrowingTaskGroup(of: [String].self) { group in
                for worker in 0..<workers {
                    group.addTask {
                        try await container.performBackgroundTask { context in
                            try Self.insertAndCheck(worker: worker, batches: batches, perBatch: perBatch, in: context)
                        }
                    }
                }
                var all: [String] = []
                for try await problems in group { all += problems }
                return all
            }
            XCTAssertEqual(problems, [], "\(kind)")
            let check = container.newContext()
            XCTAssertEqual(try check.count(for: FetchRequest<TestTask>()), workers * batches * perBatch, "\(kind)")
            XCTAssertEqual(Set(try check.fetch(FetchRequest<TestTask>()).map(\.count)).count, workers * batches * perBatch, "\(kind)")
        }
    }

    /// One worker's part: batches of inserts, each saved and then counted and fetched.
    private static func insertAndCheck(worker: Int, batches: Int, perBatch: Int, in context: ManagedObjectContext) throws -> [String] {
        var problems: [String] = []
        let base = worker * 10_000
        let mine = FetchRequest<TestTask>(predicate: \.count >= base && \.count < base + 10_000)
        var lastTotal = 0
        for batch in 0..<batches {
            for index in 0..<perBatch {
                let task = TestTask(context: context)
                task.name = "w\(worker) b\(batch) i\(index)"
                task.count = base + batch * perBatch + index
            }
            try context.save()
            let saved = try context.count(for: mine)
            if saved != (batch + 1) * perBatch { problems.append("worker \(worker): \(saved) of its objects after batch \(batch)") }
            let total = try context.fetch(FetchRequest<TestTask>()).count
            if total < lastTotal { problems.append("worker \(worker): the total went down from \(lastTotal) to \(total)") }
            if total % perBatch != 0 { problems.append("worker \(worker): \(total) objects, part of a save") }
            lastTotal = total
        }
        return problems
    }

    /// A controller on one context follows saves made by background tasks: after each round
    /// of saves, one `processPendingChanges()` brings exactly a fresh fetch's rows, through
    /// change sets that replay validly.
    func testAControllerOnOneContextSeesOtherContextsSaves() async throws {
        for kind in StoreKind.allCases {
            let directory = TemporaryDirectory()
            let container = try makeContainer(kind, in: directory)
            let context = container.newContext()
            let harness = try ControllerHarness(FetchedResultsController(fetchRequest: tasksRequest(), context: context,
                                                                         sectionNameKeyPath: \.isComplete))
            for round in 0..<4 {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for worker in 0..<3 {
                        group.addTask {
                            try await container.performBackgroundTask { background in
                                try Self.changeSomeTasks(round: round, worker: worker, in: background)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                context.processPendingChanges()
                let fresh = try container.newContext().fetch(tasksRequest()).map(\.objectID)
                XCTAssertEqual(harness.controller.fetchedObjects.map(\.objectID), fresh, "\(kind) round \(round)")
                XCTAssertEqual(harness.mirror, harness.current, "\(kind) round \(round): the change sets replay to the rows")
            }
            XCTAssertEqual(harness.problems, [], "\(kind)")
            XCTAssertGreaterThanOrEqual(harness.changes.count, 4, "\(kind)")
        }
    }

    /// Inserts a few tasks, completes one, moves one's due date and deletes one.
    private static func changeSomeTasks(round: Int, worker: Int, in context: ManagedObjectContext) throws {
        for index in 0..<5 {
            let task = TestTask(context: context)
            task.name = "r\(round) w\(worker) \(index)"
            task.due = index == 0 ? nil : day(round * 10 + worker * 3 + index)
        }
        try context.save()
        let existing = try context.fetch(FetchRequest<TestTask>(predicate: .beginsWith(\.name, "r\(max(0, round - 1)) w\(worker) ")))
        if existing.count >= 3 {
            existing[0].isComplete.toggle()
            existing[1].due = day(100 + round)
            context.delete(existing[2])
            try context.save()
        }
    }

    /// The view context needs no call: after a background save, the main actor merges it,
    /// and a controller on the view context updates by itself.
    @MainActor
    func testViewContextMergesBackgroundSavesByItself() async throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory)
        let harness = try ControllerHarness(FetchedResultsController(fetchRequest: tasksRequest(), context: container.viewContext))
        let id = try await container.performBackgroundTask { context in
            let task = TestTask(context: context)
            task.name = "from the background"
            try context.save()
            return task.objectID
        }
        let deadline = Date().addingTimeInterval(20)
        while harness.changes.isEmpty && Date() < deadline {
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        XCTAssertEqual(harness.controller.fetchedObjects.map(\.objectID), [id], "merged without anyone asking")
        XCTAssertEqual(harness.last?.insertedRows.count, 1)
        XCTAssertEqual(harness.problems, [])
    }

    // MARK: Automatic merging off

    func testWithAutomaticMergingOffObjectsWaitForRefreshAllObjects() {
        forEachStore { container, kind in
            let setup = container.newContext()
            let kept = TestTask(context: setup), doomed = TestTask(context: setup)
            kept.name = "kept"
            doomed.name = "doomed"
            try setup.save()

            let reader = container.newContext()
            reader.automaticallyMergesChanges = false
            let all = try reader.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.name)]))
            let (readDoomed, readKept) = (all[0], all[1])
            var notices: [ContextChanges] = []
            let token = reader.addObserver { notices.append($0) }

            kept.name = "kept, renamed"
            setup.delete(doomed)
            let added = TestTask(context: setup)
            added.name = "added"
            try setup.save()

            reader.processPendingChanges()
            XCTAssertEqual(readKept.name, "kept", "\(kind): not merged while off")
            XCTAssertFalse(readDoomed.isDeleted, "\(kind)")
            XCTAssertTrue(notices.isEmpty, "\(kind)")

            reader.refreshAllObjects()
            XCTAssertEqual(readKept.name, "kept, renamed", "\(kind): refreshAllObjects catches up")
            XCTAssertTrue(readDoomed.isDeleted, "\(kind)")
            let notice = notices.reduce(into: (inserted: [String](), deleted: 0, updated: [String]())) { result, notice in
                result.inserted += notice.inserted.compactMap { ($0 as? TestTask)?.name }
                result.deleted += notice.deleted.count
                result.updated += notice.updated.compactMap { ($0.object as? TestTask)?.name }
            }
            XCTAssertEqual(notice.inserted, ["added"], "\(kind)")
            XCTAssertEqual(notice.deleted, 1, "\(kind)")
            XCTAssertEqual(notice.updated, ["kept, renamed"], "\(kind)")

            // A fetch still reads the store: it returns new rows and refreshes what it returns.
            kept.name = "kept, third name"
            try setup.save()
            XCTAssertEqual(try reader.fetch(FetchRequest<TestTask>(predicate: \.name == "kept, third name")).first, readKept)
            XCTAssertEqual(readKept.name, "kept, third name", "\(kind)")

            reader.automaticallyMergesChanges = true
            kept.name = "kept, merged again"
            try setup.save()
            reader.processPendingChanges()
            XCTAssertEqual(readKept.name, "kept, merged again", "\(kind): on again, saves merge again")
            token.cancel()
        }
    }

    // MARK: Reads beside a save

    /// A fetch runs while a save holds the write transaction: it neither waits for it nor
    /// sees its uncommitted rows; once it commits, the next fetch sees them.
    func testFetchesRunWhileASaveHoldsTheWriter() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory)
        let setup = container.newContext()
        for index in 0..<10 {
            let task = TestTask(context: setup)
            task.name = "t\(index)"
        }
        try setup.save()

        let inside = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), saved = DispatchSemaphore(value: 0)
        let saveError = Locked<String?>(nil)
        let store = container.store
        Thread {
            do {
                _ = try store.save(origin: 1) { connection in
                    try connection.execute("UPDATE \"Task\" SET \"count\" = 99")
                    inside.signal()
                    _ = release.wait(timeout: .now() + 60)
                    return StoreChange(sequence: 0, origin: 1, updated: ["Task": Array(1...10)])
                }
            } catch {
                saveError.withValue { $0 = "\(error)" }
            }
            saved.signal()
        }.start()
        XCTAssertEqual(inside.wait(timeout: .now() + 30), .success)

        let counts = Locked<[Int]?>(nil)
        let fetched = DispatchSemaphore(value: 0)
        Thread {
            let reader = container.newContext()
            let values = try? reader.fetch(FetchRequest<TestTask>()).map(\.count)
            counts.withValue { $0 = values }
            fetched.signal()
        }.start()
        let fetchedInTime = fetched.wait(timeout: .now() + 20)
        release.signal()
        XCTAssertEqual(fetchedInTime, .success, "the fetch finished while the save held the writer")
        XCTAssertEqual(counts.current, Array(repeating: 0, count: 10), "it read the last committed state")
        XCTAssertEqual(saved.wait(timeout: .now() + 30), .success)
        XCTAssertNil(saveError.current)
        XCTAssertEqual(try container.newContext().fetch(FetchRequest<TestTask>()).map(\.count), Array(repeating: 99, count: 10),
                       "after the commit, fetches see it")
    }

    /// Readers running beside a stream of saves each see whole saves: a count is always a
    /// multiple of the save's size, and a fetch right after it agrees with it.
    func testEveryReadSeesWholeSaves() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory)
        let perSave = 250, saves = 12
        let log = Locked<[String]>([])
        let done = Locked(false)
        let group = DispatchGroup()
        for reader in 0..<3 {
            group.enter()
            Thread {
                defer { group.leave() }
                let context = container.newContext()
                var last = 0
                while !done.current {
                    do {
                        let count = try context.count(for: FetchRequest<TestTask>())
                        if count % perSave != 0 || count < last {
                            log.withValue { $0.append("reader \(reader): \(count) after \(last)") }
                        }
                        last = count
                    } catch {
                        log.withValue { $0.append("reader \(reader): \(error)") }
                    }
                }
            }.start()
        }
        let writer = container.newContext()
        for save in 0..<saves {
            for index in 0..<perSave {
                let task = TestTask(context: writer)
                task.name = "s\(save) i\(index)"
            }
            try writer.save()
            // Another context, right after the save returns, sees it.
            XCTAssertEqual(try container.newContext().count(for: FetchRequest<TestTask>()), (save + 1) * perSave)
        }
        done.withValue { $0 = true }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(log.current, [])
    }

    /// Reads run side by side, each on its own reader: three reads that each wait inside
    /// SQLite's reading for the other two to have started all finish (reads taking turns
    /// would wait for each other forever, and time out here).
    func testReadsRunSideBySide() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(.sqlite, in: directory)
        let store = container.store
        let readers = 3
        let arrived = Locked(0)
        let log = Locked<[String]>([])
        let group = DispatchGroup()
        for reader in 0..<readers {
            group.enter()
            Thread {   // threads of their own: a dispatch pool runs only as many as there are cores
                defer { group.leave() }
                do {
                    try store.withSnapshot { connection in
                        _ = try connection.singleInt("SELECT count(*) FROM \"Task\"")   // the snapshot is taken
                        arrived.withValue { $0 += 1 }
                        let deadline = Date().addingTimeInterval(20)
                        while arrived.current < readers && Date() < deadline { usleep(1_000) }
                        if arrived.current < readers { log.withValue { $0.append("reader \(reader) waited alone") } }
                    }
                } catch {
                    log.withValue { $0.append("reader \(reader): \(error)") }
                }
            }.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(log.current, [])
        XCTAssertEqual(try XCTUnwrap(store.readers).openConnections, readers)
    }

    /// More reads at once than the pool has connections: they wait their turn, and the pool
    /// never opens more than its maximum.
    func testReadsBeyondThePoolWaitForAReader() throws {
        let directory = TemporaryDirectory()
        var description = StoreDescription.sqlite(directory.file("pool.sqlite"))
        description.maximumReaderCount = 2
        let container = try PersistentContainer(model: ManagedObjectModel(entities: [TestTask.self]), store: description)
        let setup = container.newContext()
        for index in 0..<200 {
            let task = TestTask(context: setup)
            task.name = "t\(index)"
        }
        try setup.save()
        let log = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { worker in
            let context = container.newContext()
            for _ in 0..<10 {
                do {
                    let count = try context.fetch(FetchRequest<TestTask>()).count
                    if count != 200 { log.withValue { $0.append("worker \(worker): \(count)") } }
                } catch {
                    log.withValue { $0.append("worker \(worker): \(error)") }
                }
            }
        }
        XCTAssertEqual(log.current, [])
        let open = try XCTUnwrap(container.store.readers).openConnections
        XCTAssertGreaterThan(open, 0)
        XCTAssertLessThanOrEqual(open, 2)
        XCTAssertNil(try makeContainer(.inMemory, in: directory).store.readers, "an in-memory store has one connection")
    }
}
