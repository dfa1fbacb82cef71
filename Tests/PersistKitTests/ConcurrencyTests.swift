import Dispatch
import Foundation
import PersistKitTestSupport
import XCTest
@testable import PersistKit

// MARK: Helpers

/// Failures recorded on worker threads, reported on the test's thread.
private final class FailureLog: @unchecked Sendable {
    // @unchecked Sendable: `messages` is only read and written while holding `lock`.
    private let lock = NSLock()
    private var messages: [String] = []

    func add(_ message: String) {
        lock.lock()
        messages.append(message)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return messages
    }
}

private let objectsPerWorker = 200

/// One worker's unit of work on its own context: inserts its objects in batches, saving and
/// reading back between batches, then updates them. Returns a description of what went wrong.
private func runWorker(_ worker: Int, container: PersistentContainer) -> [String] {
    var problems: [String] = []
    do {
        let context = container.newContext()
        let base = worker * 10_000
        let mine = FetchRequest<TestTask>(predicate: \.count >= base && \.count < base + objectsPerWorker,
                                          sortBy: [FetchSortDescriptor(\.count)])
        for index in 0..<objectsPerWorker {
            let task = TestTask(context: context)
            task.name = "worker \(worker) task \(index)"
            task.count = base + index
            if index % 25 == 24 {
                try context.save()
                let saved = try context.count(for: mine)
                if saved != index + 1 { problems.append("worker \(worker): \(saved) of its objects after saving \(index + 1)") }
                // Read everything, while the other workers write.
                _ = try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.name)]))
            }
        }
        try context.save()
        let fetched = try context.fetch(mine)
        if fetched.map(\.count) != Array(base..<base + objectsPerWorker) {
            problems.append("worker \(worker): fetched \(fetched.count) objects, not its \(objectsPerWorker) in order")
        }
        for task in fetched { task.isComplete = true }
        try context.save()
        // A fresh context of the same thread sees the update.
        let done = try container.newContext().count(for: FetchRequest<TestTask>(
            predicate: \.isComplete == true && \.count >= base && \.count < base + objectsPerWorker))
        if done != objectsPerWorker { problems.append("worker \(worker): \(done) completed, expected \(objectsPerWorker)") }
    } catch {
        problems.append("worker \(worker): \(error)")
    }
    return problems
}

/// Saves a task named `name` and returns its ID.
private func saveTask(_ container: PersistentContainer, name: String, notes: String? = nil, count: Int = 0) throws -> ObjectID {
    let context = container.newContext()
    let task = TestTask(context: context)
    task.name = name
    task.notes = notes
    task.count = count
    try context.save()
    return task.objectID
}

private func storedTask(_ container: PersistentContainer, _ id: ObjectID) throws -> TestTask {
    try XCTUnwrap(try container.newContext().existingObject(with: id) as? TestTask)
}

private func load(_ context: ManagedObjectContext, _ id: ObjectID) throws -> TestTask {
    try XCTUnwrap(try context.existingObject(with: id) as? TestTask)
}

// MARK: Tests

final class ConcurrencyTests: XCTestCase {

    func testContextsOnSeveralThreadsAtOnce() {
        let workers = 4
        forEachStore { container, kind in
            let log = FailureLog()
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for problem in runWorker(worker, container: container) { log.add("\(kind): \(problem)") }
            }
            XCTAssertEqual(log.all, [], "\(kind)")
            let check = container.newContext()
            XCTAssertEqual(try check.count(for: FetchRequest<TestTask>()), workers * objectsPerWorker, "\(kind)")
            XCTAssertEqual(try check.count(for: FetchRequest<TestTask>(predicate: \.isComplete == true)), workers * objectsPerWorker, "\(kind)")
            let all = try check.fetch(FetchRequest<TestTask>())
            XCTAssertEqual(Set(all.map(\.name)).count, workers * objectsPerWorker, "\(kind): every object once")
            XCTAssertEqual(Set(all.map(\.objectID)).count, workers * objectsPerWorker, "\(kind): distinct IDs")
        }
    }

    func testContextsOnManyThreadsWithSharedReaders() {
        forEachStore { container, kind in
            let log = FailureLog()
            let threads = 8
            let group = DispatchGroup()
            for worker in 0..<threads {
                group.enter()
                let thread = Thread {
                    if worker % 2 == 0 {
                        for problem in runWorker(worker, container: container) { log.add("\(kind): \(problem)") }
                    } else {
                        // Readers: fetch and count over and over while the writers save.
                        do {
                            let context = container.newContext()
                            var last = 0
                            for _ in 0..<50 {
                                let count = try context.count(for: FetchRequest<TestTask>())
                                let fetched = try context.fetch(FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.count)]))
                                if count < last { log.add("\(kind) reader \(worker): the count went down from \(last) to \(count)") }
                                if fetched.count < count { log.add("\(kind) reader \(worker): fetched \(fetched.count) after counting \(count)") }
                                last = count
                            }
                        } catch {
                            log.add("\(kind) reader \(worker): \(error)")
                        }
                    }
                    group.leave()
                }
                thread.start()
            }
            XCTAssertEqual(group.wait(timeout: .now() + 300), .success, "\(kind): the threads finished")
            XCTAssertEqual(log.all, [], "\(kind)")
            XCTAssertEqual(try container.newContext().count(for: FetchRequest<TestTask>()), threads / 2 * objectsPerWorker, "\(kind)")
        }
    }

    func testContextsInConcurrentTasks() async throws {
        for kind in StoreKind.allCases {
            let directory = TemporaryDirectory()
            let container = try makeContainer(kind, in: directory)
            let problems = await withTaskGroup(of: [String].self) { group in
                for worker in 0..<4 {
                    group.addTask { runWorker(worker, container: container) }
                }
                var all: [String] = []
                for await problems in group { all += problems }
                return all
            }
            XCTAssertEqual(problems, [], "\(kind)")
            XCTAssertEqual(try container.newContext().count(for: FetchRequest<TestTask>()), 4 * objectsPerWorker, "\(kind)")
        }
    }

    /// Two containers on one file behave like two processes: each sees the other's commits at
    /// its next fetch, conflicts are detected through the version column, and writers on
    /// several threads of both wait for each other's locks.
    func testTwoContainersOnOneFile() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        let model = try ManagedObjectModel(entities: [TestTask.self])
        let a = try PersistentContainer(model: model, store: .sqlite(url))
        let b = try PersistentContainer(model: model, store: .sqlite(url))
        XCTAssertEqual(a.storeIdentifier, b.storeIdentifier)
        let ca = a.newContext()
        let cb = b.newContext()
        let t = TestTask(context: ca)
        t.name = "from a"
        try ca.save()
        let seen = try cb.fetch(FetchRequest<TestTask>())
        XCTAssertEqual(seen.map(\.name), ["from a"])
        let tb = try XCTUnwrap(seen.first)
        XCTAssertEqual(tb.objectID, t.objectID)

        t.name = "a again"
        try ca.save()
        _ = try cb.fetch(FetchRequest<TestTask>())
        XCTAssertEqual(tb.name, "a again", "the other process's update appears")

        t.count = 1
        tb.count = 2
        try ca.save()
        expectError(try cb.save(), .conflict, "a conflict with another process")
        XCTAssertEqual(try storedTask(a, t.objectID).count, 1)
        cb.refresh(tb, mergeChanges: false)
        XCTAssertEqual(tb.count, 1)

        ca.delete(t)
        try ca.save()
        _ = try cb.fetch(FetchRequest<TestTask>())
        XCTAssertTrue(tb.isDeleted, "the other process's delete is seen")
        XCTAssertEqual(tb.name, "a again")

        let log = FailureLog()
        let containers = [a, b]
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for problem in runWorker(worker, container: containers[worker % 2]) { log.add(problem) }
        }
        XCTAssertEqual(log.all, [])
        XCTAssertEqual(try a.newContext().count(for: FetchRequest<TestTask>()), 4 * objectsPerWorker)
        XCTAssertEqual(try b.newContext().count(for: FetchRequest<TestTask>()), 4 * objectsPerWorker)
    }

    func testAContextSeesOtherContextsSavesAtItsNextFetch() {
        forEachStore { container, kind in
            let writer = container.newContext()
            let reader = container.newContext()
            let a = TestTask(context: writer)
            a.name = "a"
            a.notes = "a notes"
            let b = TestTask(context: writer)
            b.name = "b"
            b.notes = "b notes"
            b.count = 2
            try writer.save()

            let byName = FetchRequest<TestTask>(sortBy: [FetchSortDescriptor(\.name)])
            let first = try reader.fetch(byName)
            XCTAssertEqual(first.map(\.name), ["a", "b"], "\(kind)")
            let readerA = try XCTUnwrap(first.first)
            let readerB = try XCTUnwrap(first.last)

            let c = TestTask(context: writer)
            c.name = "c"
            a.name = "a2"
            a.count = 5
            writer.delete(b)
            try writer.save()

            let second = try reader.fetch(byName)
            XCTAssertEqual(second.map(\.name), ["a2", "c"], "\(kind): new object appears, deleted one is gone")
            XCTAssertTrue(second.first === readerA, "\(kind): still one instance per object")
            XCTAssertEqual(readerA.name, "a2", "\(kind): updated value appears")
            XCTAssertEqual(readerA.count, 5)
            XCTAssertEqual(readerA.notes, "a notes")
            XCTAssertFalse(readerA.hasChanges)

            XCTAssertTrue(readerB.isDeleted, "\(kind): the stale instance reports isDeleted")
            XCTAssertEqual(readerB.name, "b", "\(kind): and keeps its last values")
            XCTAssertEqual(readerB.notes, "b notes")
            XCTAssertEqual(readerB.count, 2)
            XCTAssertEqual(readerB.objectID, b.objectID)
            XCTAssertNil(reader.object(with: b.objectID))
            expectError(try reader.existingObject(with: b.objectID), .objectNotFound, "\(kind)")

            XCTAssertFalse(reader.hasChanges)
            XCTAssertEqual(try reader.count(for: FetchRequest<TestTask>()), 2)
            XCTAssertEqual(try reader.fetch(FetchRequest<TestTask>(predicate: \.count == 5)).map(\.name), ["a2"])
            XCTAssertEqual(try reader.fetch(FetchRequest<TestTask>(predicate: \.name == "c")).first?.objectID, c.objectID)
        }
    }

    /// Changes made before learning that another context deleted the object: the save fails
    /// with a conflict naming it.
    func testSavingChangesToAnObjectDeletedElsewhereIsAConflict() {
        forEachStore { container, kind in
            let id = try saveTask(container, name: "doomed")
            let writer = container.newContext()
            let reader = container.newContext()
            let mine = try load(reader, id)
            mine.name = "edited"
            writer.delete(try load(writer, id))
            try writer.save()

            expectError(try reader.save(), .conflict, "\(kind)") {
                XCTAssertEqual($0.objectIDs, [id])
                XCTAssertEqual($0.entity, "Task")
            }
            XCTAssertTrue(mine.isDeleted, "\(kind)")
            XCTAssertEqual(mine.name, "edited", "\(kind): the reader's values are kept")
            expectError(try reader.save(), .conflict, "\(kind): still a conflict, never silently dropped")
            XCTAssertEqual(try container.newContext().count(for: FetchRequest<TestTask>()), 0)

            reader.rollback()
            XCTAssertNoThrow(try reader.save(), "\(kind): after a rollback there is nothing to save")
            XCTAssertFalse(reader.hasChanges)
        }
    }

    /// Changes made after the context learned (at a fetch) that the object was deleted
    /// elsewhere: saving them throws too.
    func testChangingAnObjectKnownToBeDeletedElsewhereAndSavingIsAConflict() {
        forEachStore { container, kind in
            let id = try saveTask(container, name: "doomed", notes: "last words")
            let writer = container.newContext()
            let reader = container.newContext()
            let stale = try load(reader, id)
            writer.delete(try load(writer, id))
            try writer.save()
            _ = try reader.fetch(FetchRequest<TestTask>())
            XCTAssertTrue(stale.isDeleted, "\(kind)")
            XCTAssertEqual(stale.notes, "last words")

            stale.name = "too late"
            expectError(try reader.save(), .conflict, "\(kind): saving changes to a deleted object throws") {
                XCTAssertEqual($0.objectIDs, [id])
            }
            XCTAssertEqual(try container.newContext().count(for: FetchRequest<TestTask>()), 0)
        }
    }

    func testConcurrentChangesAreAConflict() {
        forEachStore { container, kind in
            let id = try saveTask(container, name: "original", notes: "n0")
            let one = container.newContext()
            let two = container.newContext()
            let x1 = try load(one, id)
            let x2 = try load(two, id)
            x1.name = "first"
            x2.name = "second"
            x2.count = 9
            try one.save()

            expectError(try two.save(), .conflict, "\(kind)") { error in
                XCTAssertEqual(error.objectIDs, [id], "the error lists the object")
                XCTAssertEqual(error.entity, "Task")
                XCTAssertTrue(error.description.contains("name"), "the error lists the keys: \(error.description)")
                XCTAssertTrue(error.description.contains("count"), "the error lists the keys: \(error.description)")
            }
            let stored = try storedTask(container, id)
            XCTAssertEqual(stored.name, "first", "\(kind): the store keeps the first save")
            XCTAssertEqual(stored.count, 0)

            // The second context is as it was.
            XCTAssertTrue(two.hasChanges, "\(kind)")
            XCTAssertTrue(x2.isUpdated)
            XCTAssertEqual(x2.name, "second")
            XCTAssertEqual(x2.count, 9)
            XCTAssertEqual(two.updatedObjects.map(\.objectID), [id])
            XCTAssertEqual(Set(x2.changedValues().keys), ["name", "count"])
            XCTAssertEqual(x2.committedValues(forKeys: ["name"])["name"] as? String, "original")
            expectError(try two.save(), .conflict, "\(kind): a second attempt still conflicts")
            XCTAssertEqual(try storedTask(container, id).name, "first")

            two.refresh(x2, mergeChanges: false)
            XCTAssertEqual(x2.name, "first", "\(kind): refreshed to the stored values")
            XCTAssertEqual(x2.count, 0)
            XCTAssertFalse(two.hasChanges)
            x2.notes = "after refresh"
            try two.save()
            let after = try storedTask(container, id)
            XCTAssertEqual(after.name, "first", "\(kind)")
            XCTAssertEqual(after.notes, "after refresh")
        }
    }

    func testRefreshMergingChangesKeepsThemOnTopOfTheStoredValues() {
        forEachStore { container, kind in
            let id = try saveTask(container, name: "original", notes: "n0")
            let one = container.newContext()
            let two = container.newContext()
            let x1 = try load(one, id)
            let x2 = try load(two, id)
            x1.notes = "from one"
            x1.name = "one's name"
            x2.name = "from two"
            try one.save()
            expectError(try two.save(), .conflict, "\(kind): both changed the name")

            two.refresh(x2, mergeChanges: true)
            XCTAssertEqual(x2.name, "from two", "\(kind): local change kept")
            XCTAssertEqual(x2.notes, "from one", "\(kind): stored change read")
            XCTAssertTrue(two.hasChanges)
            XCTAssertEqual(Set(x2.changedValues().keys), ["name"])
            try two.save()
            let stored = try storedTask(container, id)
            XCTAssertEqual(stored.name, "from two", "\(kind)")
            XCTAssertEqual(stored.notes, "from one", "\(kind)")
        }
    }

    func testDeletingAnObjectChangedElsewhereIsAConflict() {
        forEachStore { container, kind in
            let id = try saveTask(container, name: "kept")
            let one = container.newContext()
            let two = container.newContext()
            let x1 = try load(one, id)
            let x2 = try load(two, id)
            x1.name = "changed"
            try one.save()
            two.delete(x2)
            expectError(try two.save(), .conflict, "\(kind): the delete would lose the other context's change") {
                XCTAssertEqual($0.objectIDs, [id])
            }
            XCTAssertEqual(try storedTask(container, id).name, "changed", "\(kind)")
            XCTAssertTrue(two.hasChanges)
            XCTAssertEqual(two.deletedObjects.map(\.objectID), [id])
        }
    }

    func testObjectTrumpMergePolicyWins() {
        forEachStore { container, kind in
            let id = try saveTask(container, name: "original", notes: "n0", count: 1)
            let one = container.newContext()
            let two = container.newContext()
            two.mergePolicy = .objectTrump
            let x1 = try load(one, id)
            let x2 = try load(two, id)
            x1.name = "first"
            x1.notes = "first notes"
            try one.save()

            x2.name = "second"
            try two.save()
            XCTAssertFalse(two.hasChanges, "\(kind)")
            let stored = try storedTask(container, id)
            XCTAssertEqual(stored.name, "second", "\(kind): the second save wins")
            XCTAssertEqual(stored.notes, "first notes", "\(kind): only the attributes it changed are written")
            XCTAssertEqual(stored.count, 1)

            // Both contexts converge at their next fetch.
            _ = try two.fetch(FetchRequest<TestTask>())
            XCTAssertEqual(x2.notes, "first notes", "\(kind)")
            _ = try one.fetch(FetchRequest<TestTask>())
            XCTAssertEqual(x1.name, "second", "\(kind)")

            // And the second context can go on saving under the default policy.
            two.mergePolicy = .error
            x2.count = 2
            XCTAssertNoThrow(try two.save(), "\(kind): no conflict with its own earlier save")
            XCTAssertEqual(try storedTask(container, id).count, 2)
        }
    }
}
